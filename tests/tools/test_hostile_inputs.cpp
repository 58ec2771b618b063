// legate_prof against hostile files: names and file names holding escape
// sequences and bytes that are not UTF-8, special files (FIFOs, sockets,
// devices, directories) where a file is read or written, and Legato traces
// and Legion logs damaged, cut or holding nothing. Each must end promptly
// with the promised exit status (0 read completely, 1 not read or not
// written, 2 usage), and what is printed must be valid UTF-8 with no control
// character a terminal would obey. Commands that could block run under
// `timeout`, only as a guard. Options and outputs: test_hostile_cli.cpp.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/crafted_traces.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "tools/hostile_commands.hpp"
#include "viewer/xvfb_view.hpp"  // have_xvfb

using namespace legato;
using namespace legato::testing;
using namespace legato::testing::hostile;
using namespace legato::analysis::testing;
using trace::testing::write_bytes;
namespace lw = legato::legion::testing;

namespace {

// A Legato trace whose names hold escape sequences, C1 controls, a bidi
// override and bytes that are not UTF-8; two events frames (so that one can
// be damaged).
void write_hostile_names_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0\x1b[31m\xff");
  const auto mem = t.memory(trace::MemKind::System, 64 * kMiB, "sys\x80mem\x1b]0;t\x07");
  const auto kind = t.task_kind("work\xfe\x1b]2;title\x07\xc2\x9b");
  const trace::Uid op = t.operation("add\xe2\x80\xae", "prog\xff.cc:1");
  t.task(c0, kind, 1000, 1500, op);
  t.instance(mem, kMiB, "x\xc3(", 1000, 1100, 1500);
  t.writer().flush();
  t.task(c0, kind, 3000, 3500, op);
  t.finish();
}

// One node's Legion log whose host, task, variant, meta task, mapper, mapper
// call, runtime call and provenance names hold escape sequences and bytes
// that are not UTF-8.
void write_hostile_legion_log(const std::string& path) {
  lw::LegionLogWriter w(path, lw::LogVersion::V1008);
  lw::MachineInfo m;
  m.hostname = "node\xff\x1b[7m";
  w.machine(m);
  const uint64_t u0 = lw::proc_id(0, 0), c1 = lw::proc_id(0, 1);
  w.proc(u0, lw::kUtility);
  w.proc(c1, lw::kCpu);
  const uint64_t sys = lw::mem_id(0, 0);
  w.memory(sys, lw::kSystemMem, 256 * kMiB);
  w.task_kind(1, "task\xfe\x1b]0;x\x07");
  w.task_variant(1, 1, "variant\xc0\xaf");
  w.meta_desc(1, "meta\xff\x9b");
  w.op_desc(30, "Task\xed\xa0\x80");
  w.mapper_call_desc(1, "map\xe9_task\x1b[2J");
  w.runtime_call_desc(3, "create\xf5region");
  w.mapper_name(0, u0, "mapper\xff");
  w.provenance(1, "file\xff.py:3\x1b[1A");
  w.operation(10, ~uint64_t{0}, 30, 1);
  lw::MetaTimes mt;
  mt.op = 10;
  mt.lg_id = 1;
  mt.proc = u0;
  mt.create = 100;
  mt.ready = 200;
  mt.start = 500;
  mt.stop = 3000;
  mt.fevent = lw::event_id(0, 1);
  w.meta(mt);
  w.mapper_call(0, u0, 1, 10, 600, 2600, u0, lw::event_id(0, 1));
  w.runtime_call(3, 2700, 2800, u0, lw::event_id(0, 1));
  lw::TaskTimes tt;
  tt.op = 10;
  tt.task_id = 1;
  tt.variant_id = 1;
  tt.proc = c1;
  tt.create = 3000;
  tt.ready = 3100;
  tt.start = 3200;
  tt.stop = 9000;
  tt.fevent = lw::event_id(0, 2);
  w.task(tt);
  w.instance({.inst_uid = 1,
              .inst_id = lw::instance_id(0, 0, 1),
              .mem = sys,
              .size = kMiB,
              .op = 10,
              .create = 3000,
              .ready = 3100,
              .destroy = 9000});
  w.finish();
}

// The file with a record of an id its header never declares appended: the
// importer loads what comes before and reports the damage.
void damage_legion_log(const std::string& from, const std::string& to) {
  std::vector<uint8_t> bytes = trace::testing::read_bytes(from);
  bytes.insert(bytes.end(), {0x63, 0, 0, 0, 0xff, 0xff});
  write_bytes(to, bytes);
}

// Every subcommand reading `file`, its output and the checks on it.
struct Reading {
  std::string args;
  bool json_object = false, json_lines = false;
};
const std::vector<Reading>& readings() {
  static const std::vector<Reading> r = {
      {"info", false, false},          {"dump", false, true},
      {"dump --strings", false, true}, {"stats", false, false},
      {"stats --json", true, false},   {"findings", false, false},
      {"findings --json", true, false}};
  return r;
}

void check_every_subcommand(const std::string& file, int status, const TempDir& dir) {
  for (const Reading& reading : readings()) {
    INFO(reading.args);
    const auto r = run_command(prof(reading.args + " " + sh(file)));
    INFO(r.out << r.err);
    CHECK(r.status == status);
    CHECK(terminal_safe(r.out));
    CHECK(terminal_safe(r.err));
    if (reading.json_object) CHECK(parses_as_json(r.out));
    if (reading.json_lines) CHECK(every_line_parses(r.out));
  }
  std::filesystem::remove_all(dir.file("report"));
  const auto a = run_command(prof("archive " + sh(file) + " -o " + dir.file("report")));
  INFO("archive: " << a.out << a.err);
  CHECK(a.status == status);
  CHECK(terminal_safe(a.out));
  CHECK(terminal_safe(a.err));
  CHECK(std::filesystem::exists(dir.file("report/index.html")));
  if (!have_xvfb()) {
    WARN("view is left out: xvfb-run is not installed");
    return;
  }
  std::filesystem::remove(dir.file("view.png"));
  const auto v = view_screenshot(sh(file), dir);
  INFO("view: " << v.out << v.err);
  CHECK(v.status == status);
  CHECK(terminal_safe(v.err));
  CHECK(std::filesystem::exists(dir.file("view.png")));
}

}  // namespace

TEST_CASE("names and file names with escape sequences and bytes that are not UTF-8",
          "[hostile][utf8]") {
  TempDir dir;
  // The file name alone would retitle the terminal and clear it.
  const std::string name = "run\x1b]0;pwned\x07\xff\x1b[2J";
  const std::string intact = dir.file(name + ".prof"), damaged = dir.file(name + "_damaged.prof");
  write_hostile_names_trace(intact);
  write_hostile_names_trace(damaged);
  corrupt_frame_payload(damaged, 2);
  SECTION("intact: exit status 0") {
    check_every_subcommand(intact, 0, dir);
  }
  SECTION("damaged, so the file name is in the warnings: exit status 1") {
    check_every_subcommand(damaged, 1, dir);
  }
  SECTION("what is shown is the bytes escaped, not dropped") {
    const auto info = run_command(prof("info " + sh(intact)));
    CHECK_THAT(info.out, Catch::StartsWith(dir.file("run\\x1b]0;pwned\\x07\\xff\\x1b[2J.prof\n")));
    const auto stats = run_command(prof("stats " + sh(intact)));
    CHECK_THAT(stats.out, Catch::Contains("work\\xfe\\x1b]2;title\\x07\\u009b"));
    const auto damage = run_command(prof("stats " + sh(damaged)));
    CHECK_THAT(damage.err, Catch::Contains("run\\x1b]0;pwned\\x07\\xff\\x1b[2J_damaged.prof"));
    // JSON keeps what can be kept: the control characters as JSON escapes,
    // a byte that is not UTF-8 as U+FFFD.
    const auto json = nlohmann::json::parse(run_command(prof("stats --json " + sh(intact))).out);
    bool found = false;
    for (const auto& lane : json["lanes"]) found |= lane["name"] == "c0\x1b[31m\xef\xbf\xbd";
    CHECK(found);
  }
}

TEST_CASE("Legion logs naming hosts, tasks and mapper calls with bytes that are not UTF-8",
          "[hostile][utf8][legion]") {
  TempDir dir;
  const std::string log = dir.file("prof_0.prof"), damaged = dir.file("prof_0_damaged.prof");
  write_hostile_legion_log(log);
  damage_legion_log(log, damaged);
  SECTION("intact: exit status 0") {
    check_every_subcommand(log, 0, dir);
  }
  SECTION("damaged: exit status 1 from every subcommand") {
    check_every_subcommand(damaged, 1, dir);
  }
  SECTION("cut inside a record: the status info gives, from every subcommand") {
    const std::vector<uint8_t> bytes = trace::testing::read_bytes(log);
    const std::string cut = dir.file("prof_0_cut.prof");
    write_bytes(cut, {bytes.begin(), bytes.end() - 3});
    const int status = run_command(prof("info " + cut)).status;
    CHECK((status == 0 || status == 1));
    check_every_subcommand(cut, status, dir);
  }
  SECTION("the names are shown, escaped") {
    const auto info = run_command(prof("info " + log));
    CHECK_THAT(info.out, Catch::Contains(" on node"));
    CHECK_THAT(info.out, Catch::Contains("\\x1b[7m (pid"));
    const auto stats = run_command(prof("stats " + log));
    CHECK_THAT(stats.out, Catch::Contains("\\x1b]0;x\\x07"));
  }
}

TEST_CASE("files that hold no records: said so, and no run is called healthy", "[hostile][empty]") {
  TempDir dir;
  const std::string legion = dir.file("prof_0.prof"), legato = dir.file("legate_0.prof");
  {
    lw::LegionLogWriter w(legion, lw::LogVersion::V1008);  // the header alone
    w.finish();
  }
  {
    SyntheticTrace t(legato);  // the run's metadata alone
    t.finish();
  }
  for (const std::string& file : {legion, legato}) {
    INFO(file);
    for (const char* sub : {"info", "dump", "stats", "findings"}) {
      INFO(sub);
      const auto r = run_command(prof(std::string(sub) + " " + file));
      INFO(r.out << r.err);
      CHECK(r.status == 0);  // read completely: there was nothing more
      if (std::string(sub) != "dump" || file == legion)
        CHECK_THAT(r.err, Catch::Contains(file) && Catch::Contains("holds no records"));
    }
    const auto f = run_command(prof("findings " + file));
    CHECK_THAT(f.out, !Catch::Contains("No findings"));
    CHECK_THAT(f.out, Catch::Contains("Nothing to check: the run holds no records"));
    const auto j = nlohmann::json::parse(run_command(prof("findings --json " + file)).out);
    CHECK(j["empty_run"] == true);
    CHECK(j["findings"].empty());
    const auto rules = nlohmann::json::parse(run_command(prof("findings --list-rules --json")).out);
    // Every rule left out for the one reason, said once.
    REQUIRE(j["not_checked"].size() == 1);
    for (const auto& rule : rules["rules"])
      CHECK_THAT(j["not_checked"][0]["rule"].get<std::string>(),
                 Catch::Contains(rule["rule"].get<std::string>()));
    const auto a = run_command(prof("archive " + file + " -o " + dir.file("report")));
    CHECK(a.status == 0);
    CHECK_THAT(a.err, Catch::Contains("holds no records"));
  }
}

TEST_CASE("FIFOs, sockets, devices and directories as inputs are refused at once, named",
          "[hostile][special]") {
  TempDir dir;
  make_fifo(dir.file("fifo.prof"));
  make_socket(dir.file("socket.prof"));
  std::filesystem::create_directories(dir.file("dir.prof"));
  std::filesystem::create_symlink(dir.file("fifo.prof"), dir.file("link_to_fifo.prof"));
  write_two_frame_trace(dir.file("good.prof"));
  struct Special {
    std::string path, what;
  };
  const std::vector<Special> specials = {
      {dir.file("fifo.prof"), "Is a named pipe (FIFO), not a regular file"},
      {dir.file("link_to_fifo.prof"), "Is a named pipe (FIFO), not a regular file"},
      {dir.file("socket.prof"), "Is a socket, not a regular file"},
      {"/dev/zero", "Is a character device, not a regular file"},
      {dir.file("dir.prof"), "Is a directory, not a regular file"}};
  for (const char* sub : {"info", "dump", "stats", "findings", "archive", "view"}) {
    for (const Special& s : specials) {
      INFO(sub << " " << s.path);
      // A directory stands for its traces, but for dump, which reads one
      // file (test_legate_prof_cli.cpp).
      if (s.path == dir.file("dir.prof") && std::string(sub) != "dump") continue;
      const std::string out = std::string(sub) == "archive" ? " -o " + dir.file("report") : "";
      // No DISPLAY: view refuses the file before a window would be needed.
      const auto r = run_command("env -u DISPLAY " + prof(std::string(sub) + " " + s.path + out));
      CHECK(r.status == 1);
      CHECK(r.out.empty());
      CHECK(r.err ==
            "legate_prof " + std::string(sub) + ": " + s.path + ": cannot open: " + s.what + "\n");
    }
    // Among readable files: the others are shown, exit status 1.
    if (std::string(sub) == "view" || std::string(sub) == "archive") continue;
    const auto r = run_command(
        prof(std::string(sub) + " " + dir.file("fifo.prof") + " " + dir.file("good.prof")));
    INFO(sub << " " << r.out << r.err);
    CHECK(r.status == (std::string(sub) == "dump" ? 2 : 1));  // dump reads one file
    if (std::string(sub) != "dump") CHECK_FALSE(r.out.empty());
  }
  // /dev/stdin, as a pipe whose writer is gone: opening it would wait for
  // another writer forever.
  const auto r = run_command("true | " + prof("info /dev/stdin"));
  CHECK(r.status == 1);
  CHECK(r.err ==
        "legate_prof info: /dev/stdin: cannot open: Is a named pipe (FIFO), not a "
        "regular file\n");
  CHECK(std::filesystem::is_fifo(dir.file("fifo.prof")));
}

TEST_CASE("FIFOs, sockets and devices where an output goes are refused at once, named",
          "[hostile][special]") {
  TempDir dir;
  const std::string trace = dir.file("t.prof");
  write_two_frame_trace(trace);
  std::filesystem::create_directories(dir.file("report"));
  make_fifo(dir.file("fifo.png"));
  make_socket(dir.file("socket.png"));
  std::filesystem::create_symlink("/dev/null", dir.file("null.png"));
  const std::vector<std::pair<std::string, std::string>> specials = {
      {dir.file("fifo.png"), "Is a named pipe (FIFO), not a regular file"},
      {dir.file("socket.png"), "Is a socket, not a regular file"},
      {dir.file("null.png"), "Is a character device, not a regular file"}};
  const std::string index = dir.file("report/index.html");
  for (const auto& [path, what] : specials) {
    INFO(path);
    std::filesystem::remove(index);
    if (std::filesystem::is_fifo(path)) {
      make_fifo(index);
    } else if (std::filesystem::is_socket(path)) {
      make_socket(index);
    } else {
      std::filesystem::create_symlink("/dev/null", index);
    }
    auto r = run_command(prof("archive " + trace + " -o " + dir.file("report")));
    CHECK(r.status == 1);
    CHECK(r.err == "legate_prof archive: cannot write " + index + ": " + what +
                       "; remove it or choose another directory with -o\n");
    r = run_command("env -u DISPLAY " + prof("view " + trace + " --screenshot " + path));
    CHECK(r.status == 1);
    CHECK(r.err == "legate_prof view: cannot write the screenshot " + path + ": " + what +
                       "; give a path in a directory you can write to\n");
  }
  CHECK(std::filesystem::is_fifo(dir.file("fifo.png")));
  CHECK(std::filesystem::is_symlink(index));
  // A script read from a FIFO is refused too.
  const auto s =
      run_command("env -u DISPLAY " + prof("view " + trace + " --script " + dir.file("fifo.png")));
  CHECK(s.status == 2);
  CHECK(s.err == "legate_prof view: " + dir.file("fifo.png") +
                     ": cannot read the script file: Is a named pipe (FIFO), not a regular file\n");
  if (!have_xvfb()) {
    WARN("the script's dump step is left out: xvfb-run is not installed");
    return;
  }
  const auto d = view_script(trace, "dump " + dir.file("fifo.png") + "\nquit\n", dir);
  CHECK(d.status == 1);
  CHECK_THAT(d.err, Catch::Contains("cannot write " + dir.file("fifo.png") +
                                    ": Is a named pipe (FIFO), not a regular file"));
}

TEST_CASE("a FIFO typed into the viewer's open box is an error in the window",
          "[hostile][special][gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed");
    return;
  }
  TempDir dir;
  make_fifo(dir.file("fifo.prof"));
  const auto r =
      view_script("",
                  "wait 2\nclick-ui paths\nwait 1\ntype " + dir.file("fifo.prof") +
                      "\nwait 1\nkey enter\nwait 2\ndump " + dir.file("state.json") + "\nquit\n",
                  dir);
  INFO(r.out << r.err);
  const auto state = nlohmann::json::parse(slurp(dir.file("state.json")));
  CHECK_THAT(state["error"].get<std::string>(),
             Catch::Contains(dir.file("fifo.prof") + ": cannot open: Is a named pipe (FIFO)"));
}
