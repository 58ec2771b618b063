// legate_prof on files it cannot read, outputs it cannot write, damaged and
// crafted traces: the same messages and the same exit status from every
// subcommand (0 read completely, 1 something not read or not written, 2
// usage), and never nonsense in what it prints.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <regex>

#include <catch2/catch.hpp>

#include "analysis/crafted_traces.hpp"
#include "tools/run_command.hpp"
#include "viewer/xvfb_view.hpp"

using namespace legato;
using namespace legato::testing;
using namespace legato::analysis::testing;
using trace::testing::TempDir;
using trace::testing::write_bytes;

namespace {

const char* const kSubcommands[] = {"info", "dump", "stats", "archive", "view"};

std::string prof(const std::string& args) {
  return bin("legate_prof") + " " + args;
}

// A subcommand reading `file` and writing nothing outside `dir` (view takes
// a screenshot under Xvfb, whose own exit status can be that of its clean-up:
// legate_prof's is taken from the line it prints after it).
CommandResult run_reading(const std::string& sub, const std::string& file, const TempDir& dir) {
  if (sub == "archive") return run_command(prof("archive " + file + " -o " + dir.file("report")));
  if (sub != "view") return run_command(prof(sub + " " + file));
  CommandResult r =
      run_command("xvfb-run -a -s '-screen 0 1024x768x24' sh -c '" +
                  prof("view " + file + " --size 800x600 --screenshot " + dir.file("view.png")) +
                  "; echo \"legate_prof exit status $?\"'");
  const size_t at = r.out.rfind("legate_prof exit status ");
  r.status = at == std::string::npos ? -1 : std::stoi(r.out.substr(at + 24));
  return r;
}

// A prefix that runs a command as a user a directory of mode 0700 (or 0555)
// keeps out. Root passes every permission check, so as root the command runs
// as the user nobody through setpriv; other users are kept out already.
// nullopt when it cannot be done (root without setpriv).
std::optional<std::string> unprivileged() {
  if (::geteuid() != 0) return std::string();
  if (run_command("command -v setpriv").status != 0) return std::nullopt;
  return std::string("setpriv --reuid=65534 --regid=65534 --clear-groups ");
}

// Percentages in the text, e.g. 12.5 for "12.5%".
std::vector<double> percentages(const std::string& text) {
  std::vector<double> out;
  const std::regex number(R"(([0-9]+(\.[0-9]+)?)%)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
       it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

}  // namespace

TEST_CASE("every subcommand names a file it cannot open with the system's reason", "[cli][fault]") {
  TempDir dir;
  // A path through a regular file fails with ENOTDIR, whoever runs it; a
  // missing file with ENOENT. No window opens for view: nothing is readable.
  write_bytes(dir.file("plain"), {'x'});
  const std::string through_file = dir.file("plain/legate_0.prof");
  const std::string missing = dir.file("missing.prof");
  for (const char* sub : kSubcommands) {
    INFO(sub);
    auto r = run_command("env -u DISPLAY " + prof(std::string(sub) + " " + through_file));
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err == "legate_prof " + std::string(sub) + ": " + through_file +
                       ": cannot open: Not a directory\n");
    r = run_command("env -u DISPLAY " + prof(std::string(sub) + " " + missing));
    CHECK(r.status == 1);
    CHECK(r.err == "legate_prof " + std::string(sub) + ": " + missing +
                       ": cannot open: No such file or directory\n");
  }
}

TEST_CASE("a trace in a directory the user cannot enter: Permission denied, from every subcommand",
          "[cli][fault]") {
  const auto as_user = unprivileged();
  if (!as_user) {
    WARN("SKIPPED: running as root without setpriv, so no permission can be denied");
    return;
  }
  TempDir dir;
  std::filesystem::create_directories(dir.file("locked"));
  const std::string trace = dir.file("locked/legate_0.prof");
  write_two_frame_trace(trace);
  // Root-owned 0700 keeps nobody out; for other users, 0000 keeps the owner out.
  ::chmod(dir.file("locked").c_str(), ::geteuid() == 0 ? 0700 : 0000);
  ::chmod(dir.path().c_str(), 0755);
  for (const char* sub : kSubcommands) {
    INFO(sub);
    const auto r = run_command("env -u DISPLAY " + *as_user + prof(std::string(sub) + " " + trace));
    CHECK(r.status == 1);
    CHECK(r.err ==
          "legate_prof " + std::string(sub) + ": " + trace + ": cannot open: Permission denied\n");
  }
  ::chmod(dir.file("locked").c_str(), 0700);
}

TEST_CASE("a file that cannot be opened among others: the rest is shown, exit status 1",
          "[cli][fault]") {
  TempDir dir;
  write_two_frame_trace(dir.file("good.prof"));
  const std::string bad = dir.file("nowhere/legate_1.prof");
  auto r = run_command(prof("stats " + dir.file("good.prof") + " " + bad));
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains("work"));
  CHECK_THAT(r.err, Catch::StartsWith("legate_prof stats: " + bad +
                                      ": cannot open: No such file or directory\n"));
  r = run_command(prof("info " + bad + " " + dir.file("good.prof")));
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::StartsWith(dir.file("good.prof") + "\n"));
}

TEST_CASE("view --screenshot to a path that cannot be written says why before a window opens",
          "[cli][fault]") {
  TempDir dir;
  write_two_frame_trace(dir.file("t.prof"));
  write_bytes(dir.file("plain"), {'x'});
  std::filesystem::create_directories(dir.file("a_directory.png"));
  const auto screenshot = [&](const std::string& png, const std::string& as_user = "") {
    // No DISPLAY: had a window been tried, the reason would be the display.
    return run_command("env -u DISPLAY " + as_user +
                       prof("view " + dir.file("t.prof") + " --screenshot " + png));
  };
  const auto expected = [](const std::string& png, const std::string& why) {
    return "legate_prof view: cannot write the screenshot " + png + ": " + why +
           "; give a path in a directory you can write to\n";
  };
  for (const auto& [png, why] : std::vector<std::pair<std::string, std::string>>{
           {dir.file("plain/view.png"), "Not a directory"},
           {dir.file("no/such/dir/view.png"), "No such file or directory"},
           {dir.file("a_directory.png"), "Is a directory"}}) {
    const auto r = screenshot(png);
    CHECK(r.status == 1);
    CHECK(r.err == expected(png, why));
  }
  if (const auto as_user = unprivileged()) {
    std::filesystem::create_directories(dir.file("read_only"));
    ::chmod(dir.file("read_only").c_str(), 0555);
    ::chmod(dir.path().c_str(), 0755);
    ::chmod(dir.file("t.prof").c_str(), 0644);
    const std::string png = dir.file("read_only/view.png");
    const auto r = screenshot(png, *as_user);
    CHECK(r.status == 1);
    CHECK(r.err == expected(png, "Permission denied"));
    ::chmod(dir.file("read_only").c_str(), 0755);
  } else {
    WARN("SKIPPED the Permission denied case: root without setpriv");
  }
  // The check leaves nothing behind: t.prof, plain, a_directory.png (and read_only).
  using It = std::filesystem::directory_iterator;
  CHECK(std::distance(It(dir.path()), It()) == (unprivileged() ? 4 : 3));
}

TEST_CASE("one exit status rule for every subcommand, on intact, unfinished and damaged traces",
          "[cli][fault]") {
  const bool xvfb = have_xvfb();
  if (!xvfb) WARN("view is left out: xvfb-run is not installed (apt install xvfb xauth)");
  TempDir dir;
  for (const char* name : {"intact.prof", "unfinished.prof", "corrupt.prof", "cut.prof"})
    write_two_frame_trace(dir.file(name));
  // Frames: metadata (0), events (1, 2), footer (3).
  cut_file_at_frame(dir.file("unfinished.prof"), 3, /*at_start=*/true);
  corrupt_frame_payload(dir.file("corrupt.prof"), 2);
  cut_file_at_frame(dir.file("cut.prof"), 2);
  struct Case {
    const char* file;
    int status;
    const char* stderr_has;
  };
  for (const Case& c : {Case{"intact.prof", 0, ""}, Case{"unfinished.prof", 0, "warning: "},
                        Case{"corrupt.prof", 1, "payload checksum mismatch"},
                        Case{"cut.prof", 1, "the file ends inside frame 2"}}) {
    for (const char* sub : kSubcommands) {
      if (std::string(sub) == "view" && !xvfb) continue;
      INFO(sub << " " << c.file);
      std::filesystem::remove_all(dir.file("report"));
      std::filesystem::remove(dir.file("view.png"));
      const auto r = run_reading(sub, dir.file(c.file), dir);
      INFO(r.out << r.err);
      CHECK(r.status == c.status);
      CHECK_THAT(r.err, Catch::Contains(c.stderr_has));
      if (std::string(c.file) == "intact.prof")
        CHECK(r.err.find("legate_prof") == std::string::npos);
      // Whatever could be read is still shown or written: the first frame's task.
      const std::string sub_name(sub);
      if (sub_name == "info") CHECK_THAT(r.out, Catch::Contains("task              "));
      if (sub_name == "dump") CHECK_THAT(r.out, Catch::Contains("\"kind\":\"task\""));
      if (sub_name == "stats") CHECK_THAT(r.out, Catch::Contains("work"));
      if (sub_name == "archive") CHECK(std::filesystem::exists(dir.file("report/index.html")));
      if (sub_name == "view") CHECK(std::filesystem::exists(dir.file("view.png")));
    }
  }
}

TEST_CASE("usage errors exit with 2 from every subcommand, and --help states the rule",
          "[cli][fault]") {
  const std::string golden = std::string(LEGATO_SOURCE_DIR) + "/sample_traces/golden_v1.0.prof";
  for (const std::string& args :
       {std::string("info"), std::string("dump"), "dump " + golden + " " + golden,
        "stats --top x " + golden, std::string("archive"), "view " + golden + " --range 5ms",
        "info --no-such-flag " + golden, std::string("no-such-subcommand"), std::string("")}) {
    INFO(args);
    const auto r = run_command(prof(args));
    CHECK(r.status == 2);
    CHECK_FALSE(r.err.empty());
  }
  for (const std::string& help : {std::string("--help"), std::string("stats --help")}) {
    const auto r = run_command(prof(help));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("Exit status, for every subcommand: 0 when every trace file "
                                      "was read completely (warnings allowed); 1 when a file "
                                      "could not be opened or read"));
  }
}

TEST_CASE("crafted traces: warnings name the problem, the output stays sane", "[cli][fault]") {
  TempDir dir;
  SECTION("an instance in an undeclared memory: utilization unknown, not millions of percent") {
    write_undeclared_memory_trace(dir.file("t.prof"));
    const auto r = run_command(prof("stats " + dir.file("t.prof")));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("node 0     System Memory             1 memories  unknown "
                                      "(the trace gives no size for these memories)"));
    for (const double pct : percentages(r.out)) CHECK(pct <= 100);
    CHECK_THAT(r.out, Catch::Contains("1.0 MiB"));
    CHECK_THAT(r.out, !Catch::Contains("TiB"));
    CHECK(r.err ==
          "legate_prof stats: warning: 1 processors, memories or channels are used but never "
          "described (a damaged frame?); shown as lanes named like sysmem77?; such memories have "
          "no known size, so their utilization is unknown\n");
  }
  SECTION("frame headers contradicting their records: info shows the records' span") {
    write_two_frame_trace(dir.file("t.prof"));
    set_frame_time_range(dir.file("t.prof"), 1, 0, trace::Time{1} << 60);
    const auto r = run_command(prof("info " + dir.file("t.prof")));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("time span    2.500 us (1.000 us to 3.500 us)"));
    CHECK_THAT(r.err, Catch::Contains(": warning: 1 events frames give a time range (header "
                                      "t_min/t_max) that contradicts their records, e.g. frame 1 "
                                      "(events): header 0 to 1152921504606846976 ns, records 1000 "
                                      "to 1500 ns; the records' times are used"));
  }
  SECTION("string ids never defined: placeholders in stats and dump") {
    write_dangling_string_trace(dir.file("t.prof"));
    const auto r = run_command(prof("stats " + dir.file("t.prof")));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("<string 999 undefined>"));
    CHECK_THAT(r.err, Catch::Contains("legate_prof stats: warning: 2 string ids are used but never "
                                      "defined in their file, e.g. id 998 in "));
    const auto d =
        run_command(prof("dump --strings --no-frames --kind task_kind " + dir.file("t.prof")));
    CHECK(d.status == 0);
    CHECK_THAT(d.out, Catch::Contains("\"name\":999,\"name_text\":\"<string 999 undefined>\""));
  }
  SECTION("duplicate uids and self-edges: one warning line each") {
    write_duplicate_uid_trace(dir.file("dup.prof"));
    write_self_edge_trace(dir.file("self.prof"));
    auto r = run_command(prof("stats " + dir.file("dup.prof")));
    CHECK(r.status == 0);
    CHECK_THAT(r.err,
               Catch::Contains("legate_prof stats: warning: 1 items reuse the uid of another "
                               "item, e.g. uid "));
    CHECK_THAT(r.err, Catch::Contains("legate_prof stats: warning: 1 operations reuse the uid of "
                                      "another operation"));
    r = run_command(prof("stats " + dir.file("self.prof")));
    CHECK(r.status == 0);
    CHECK(r.err.find("warning: 2 dependency edges go from an item to itself") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("two runs given together: the first file's run, each other file named", "[cli][fault]") {
  TempDir dir;
  const std::string run_a(32, 'a'), run_b(32, 'b');
  for (const auto& [name, run] :
       {std::pair{"a_0.prof", run_a}, std::pair{"b_0.prof", run_b}, std::pair{"b_1.prof", run_b}}) {
    SyntheticTrace t(dir.file(name), name[2] == '0' ? 0 : 1, 1, run);
    t.task(t.processor(trace::ProcKind::Cpu, 0, "c0"), t.task_kind("work"), 100, 200);
    t.finish();
  }
  const auto r = run_command(prof("stats " + dir.file("a_0.prof") + " " + dir.file("b_0.prof") +
                                  " " + dir.file("b_1.prof")));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("1 of 1 rank(s)"));
  for (const char* dropped : {"b_0.prof", "b_1.prof"}) {
    CHECK_THAT(r.err, Catch::Contains("legate_prof stats: warning: " + dir.file(dropped) +
                                      ": left out: it belongs to run " + run_b + ", not to run " +
                                      run_a + " of " + dir.file("a_0.prof") +
                                      " (the first file given decides the run; give the files of "
                                      "one run)\n"));
  }
}

TEST_CASE("archive onto a directory named index.html says why it cannot", "[cli][fault]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("report/index.html"));
  const std::string golden = std::string(LEGATO_SOURCE_DIR) + "/sample_traces/golden_v1.0.prof";
  const auto r = run_command(prof("archive " + golden + " -o " + dir.file("report")));
  CHECK(r.status == 1);
  CHECK_THAT(r.err,
             Catch::Contains("cannot write " + dir.file("report/index.html") + ": Is a directory"));
}
