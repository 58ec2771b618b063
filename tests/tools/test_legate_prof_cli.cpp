// legate_prof info / dump as a user runs them: output, exit status, and the
// one-line reasons for files that cannot be read.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::testing;
using namespace legato::trace::testing;

namespace {
std::string golden() {
  return std::string(LEGATO_SOURCE_DIR) + "/sample_traces/golden_v1.0.prof";
}
size_t count_lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}
// The count column of a `legate_prof stats` row ("<kind> <what> <count> ..."); -1 if absent.
long stats_count(const std::string& out, const std::string& kind, const std::string& what) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string k, w;
    long count = -1;
    if (words >> k >> w >> count && k == kind && w == what) return count;
  }
  return -1;
}
}  // namespace

TEST_CASE("legate_prof --help lists the subcommands", "[cli]") {
  const auto r = run_command(bin("legate_prof") + " --help");
  CHECK(r.status == 0);
  CHECK(r.out.find("info") != std::string::npos);
  CHECK(r.out.find("dump") != std::string::npos);
  CHECK(r.out.find("Legion Prof logs") != std::string::npos);
  const auto sub = run_command(bin("legate_prof") + " dump --help");
  CHECK(sub.status == 0);
  CHECK(sub.out.find("--strings") != std::string::npos);
  // Every subcommand says it reads Legion Prof logs too.
  for (const char* c : {"info", "dump", "stats", "findings", "archive", "view"}) {
    INFO(c);
    const auto help = run_command(bin("legate_prof") + " " + c + " --help");
    CHECK(help.status == 0);
    CHECK(help.out.find("Legion Prof log") != std::string::npos);
  }
  const auto none = run_command(bin("legate_prof"));
  CHECK(none.status != 0);
  CHECK(none.err.find("A subcommand is required") != std::string::npos);
}

TEST_CASE("legate_prof info summarizes a trace of a runtime program", "[cli]") {
  TempDir dir;
  const auto run =
      run_command(bin("legate") + " --cpus 3 --utility 2 --profile --logdir " +
                  dir.path().string() + " " + bin("parallel_sum") + " --n 200000 --steps 4");
  REQUIRE(run.status == 0);
  const std::string trace = dir.file("legate_0.prof");
  const auto r = run_command(bin("legate_prof") + " info " + trace);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("finished cleanly") != std::string::npos);
  CHECK(r.out.find("processors   3 cpu, 2 utility, 1 io, 1 dep_part, 1 profiler") !=
        std::string::npos);
  CHECK(r.out.find("    task              16\n") !=
        std::string::npos);  // 5 launches x 3 points + top level
  CHECK(r.out.find("rank 0 of 1") != std::string::npos);
  CHECK(r.out.find(" 0 dropped") != std::string::npos);
  CHECK(r.out.find("program      " + bin("parallel_sum") + " --n 200000 --steps 4") !=
        std::string::npos);
  CHECK(r.out.find("\"cpus\":3") != std::string::npos);
}

TEST_CASE("legate_prof dump prints one JSON object per line", "[cli]") {
  const auto r = run_command(bin("legate_prof") + " dump --no-frames " + golden());
  REQUIRE(r.status == 0);
  // The committed JSON lines of the golden file list the same records.
  const std::string expected =
      slurp(std::string(LEGATO_SOURCE_DIR) + "/sample_traces/golden_v1.0.jsonl");
  // ... plus the footer's index (3 frames) and counts (18 kinds).
  CHECK(count_lines(r.out) == count_lines(expected) + 3 + 18);
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) CHECK(nlohmann::json::parse(line).contains("kind"));
  const auto tasks = run_command(bin("legate_prof") + " dump --no-frames --kind task " + golden());
  CHECK(count_lines(tasks.out) == 20);
  const auto with_frames = run_command(bin("legate_prof") + " dump " + golden());
  CHECK(count_lines(with_frames.out) == count_lines(r.out) + 4);  // metadata, 2 events, footer
}

TEST_CASE("legate_prof refuses unreadable files with one clear line", "[cli]") {
  TempDir dir;
  write_bytes(dir.file("text.prof"), {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd', '!'});
  const auto r = run_command(bin("legate_prof") + " info " + dir.file("text.prof"));
  CHECK(r.status == 1);
  CHECK(r.err ==
        "legate_prof info: " + dir.file("text.prof") +
            ": not a Legato trace: expected \"LGTOPROF\" at offset 0, found \"hello wo\"\n");
  const auto missing = run_command(bin("legate_prof") + " info " + dir.file("missing.prof"));
  CHECK(missing.status == 1);
  CHECK(missing.err == "legate_prof info: " + dir.file("missing.prof") +
                           ": cannot open: No such file or directory\n");
}

TEST_CASE("legate_prof info reports damage with offsets and fails when data was lost", "[cli]") {
  TempDir dir;
  write_sample_trace(dir.file("t.prof"), 4, 200);
  std::vector<uint8_t> bytes = read_bytes(dir.file("t.prof"));
  SECTION("a file cut inside a frame shows what it holds, warns, and exits with 1") {
    bytes.resize(bytes.size() - 500);
    write_bytes(dir.file("cut.prof"), bytes);
    const auto r = run_command(bin("legate_prof") + " info " + dir.file("cut.prof"));
    CHECK(r.status == 1);
    CHECK(r.out.find("NOT finished") != std::string::npos);
    CHECK(r.err.find(": warning: the file ends inside frame") != std::string::npos);
  }
  SECTION("a corrupt frame is an error: exit status 1") {
    bytes[bytes.size() / 2] ^= 0x10;
    write_bytes(dir.file("bad.prof"), bytes);
    const auto r = run_command(bin("legate_prof") + " info " + dir.file("bad.prof"));
    CHECK(r.status == 1);
    CHECK(r.out.find("damage       1 frames could not be read") != std::string::npos);
    CHECK(r.err.find(": error: frame ") != std::string::npos);
    CHECK(r.err.find("payload checksum mismatch") != std::string::npos);
  }
}

TEST_CASE("legate_prof stats prints utilization and per-kind statistics", "[cli][stats]") {
  TempDir dir;
  const auto run =
      run_command(bin("legate") + " --cpus 3 --utility 2 --profile --logdir " +
                  dir.path().string() + " " + bin("parallel_sum") + " --n 200000 --steps 4");
  REQUIRE(run.status == 0);
  const auto r = run_command(bin("legate_prof") + " stats " + dir.file("legate_0.prof"));
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("1 of 1 rank(s)") != std::string::npos);
  CHECK(r.out.find("node 0     CPU                       3 lanes") != std::string::npos);
  CHECK(r.out.find("node 0     Utility                   2 lanes") != std::string::npos);
  CHECK(r.out.find("node 0     System Memory             1 memories") != std::string::npos);
  // 4 steps x 3 points of sqrt_plus_one, one sum launch of 3 points, the top-level task.
  CHECK(stats_count(r.out, "sqrt_plus_one", "task") == 12);
  CHECK(stats_count(r.out, "sum", "task") == 3);
  CHECK(stats_count(r.out, "TopLevelTask", "task") == 1);
  CHECK(r.out.find("Mapping") != std::string::npos);
  // --json: the same run for scripts, lane by lane.
  const auto json = run_command(bin("legate_prof") + " stats --json " + dir.file("legate_0.prof"));
  CHECK(json.status == 0);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  const int64_t span = j["run"]["stop_ns"].get<int64_t>() - j["run"]["start_ns"].get<int64_t>();
  int cpu_lanes = 0, tasks = 0;
  for (const auto& lane : j["lanes"]) {
    if (lane["kind"] != "CPU") continue;
    ++cpu_lanes;
    tasks += lane["items"].value("task", 0);
    CHECK(lane["busy_ns"].get<int64_t>() <= span);
    CHECK(lane["node"] == 0);
  }
  CHECK(cpu_lanes == 3);
  CHECK(tasks == 15);  // 12 sqrt_plus_one and 3 sum points
  REQUIRE(j["memories"].size() == 1);
  const auto& sysmem = j["memories"][0];
  CHECK(sysmem["kind"] == "System Memory");
  CHECK(sysmem["instances"].get<int>() > 0);
  CHECK(sysmem["peak_bytes"].get<uint64_t>() > 0);
  CHECK(sysmem["peak_bytes"].get<uint64_t>() <= sysmem["capacity_bytes"].get<uint64_t>());
  CHECK(j["channels"].is_array());
  // --top limits the table.
  const auto top = run_command(bin("legate_prof") + " stats --top 2 " + dir.file("legate_0.prof"));
  CHECK(top.out.find("more kinds (--top 0 shows all)") != std::string::npos);
  // Garbage is an error naming the file.
  write_bytes(dir.file("junk.prof"), {'j', 'u', 'n', 'k'});
  const auto junk = run_command(bin("legate_prof") + " stats " + dir.file("junk.prof"));
  CHECK(junk.status == 1);
  CHECK(junk.err.find("no trace could be read") != std::string::npos);
  CHECK(junk.err.find("junk.prof") != std::string::npos);
}

TEST_CASE("legate_prof archive replaces a link planted at index.html, never its target",
          "[cli][security]") {
  TempDir dir;
  const std::string victim = dir.file("victim.txt");
  write_bytes(victim, {'k', 'e', 'e', 'p'});
  std::filesystem::create_directories(dir.file("report"));
  const std::string page = dir.file("report/index.html");
  std::filesystem::create_symlink(victim, page);
  const auto r =
      run_command(bin("legate_prof") + " archive " + golden() + " -o " + dir.file("report"));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(read_bytes(victim) == std::vector<uint8_t>{'k', 'e', 'e', 'p'});
  CHECK(std::filesystem::is_regular_file(std::filesystem::symlink_status(page)));
  CHECK(read_bytes(page).size() > 1000);
  // Only the page and its data folder are left in the directory: no
  // temporary beside them, and the data folder holds only detail files.
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.file("report")))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() == 2);
  CHECK(names[0].rfind("data-", 0) == 0);
  CHECK(names[1] == "index.html");
  for (const auto& e : std::filesystem::directory_iterator(dir.file("report/" + names[0]))) {
    const std::string name = e.path().filename().string();
    INFO(name);
    CHECK(e.is_regular_file());
    CHECK(name.size() > 3);
    CHECK(name.substr(name.size() - 3) == ".js");
  }
}

TEST_CASE("legate_prof findings: text, JSON, thresholds and their errors", "[cli][findings]") {
  TempDir dir;
  const auto run = run_command("LEGATE_CONFIG='--cpus 2 --profile --logdir " + dir.path().string() +
                               "' " + bin("chunked_update") + " --n 100000");
  REQUIRE(run.status == 0);
  const std::string trace = dir.file("legate_0.prof");
  const auto text = run_command(bin("legate_prof") + " findings " + trace);
  INFO(text.err);
  CHECK(text.status == 0);
  // The most costly first (after a line on the program's time, when the
  // runtime's starting and stopping took a tenth of the trace or more).
  const size_t first = text.out.find("\n1. ");
  REQUIRE(first != std::string::npos);
  CHECK(text.out.compare(first, 11, "\n1. [high] ") == 0);
  CHECK((first == 0 || text.out.rfind("The program ran ", 0) == 0));
  CHECK(text.out.find("(tiny_tasks)") != std::string::npos);
  CHECK(text.out.find("   fix:      ") != std::string::npos);

  const auto json = run_command(bin("legate_prof") + " findings --json " + trace);
  CHECK(json.status == 0);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(!j["findings"].empty());
  CHECK(j["findings"][0]["severity"] == "high");
  CHECK(j["findings"][0]["cost_ns"].get<int64_t>() > 0);

  // A threshold nobody's tasks reach silences the rule.
  const auto quiet = run_command(bin("legate_prof") + " findings --json " + trace +
                                 " --threshold tiny_tasks.max_task_us=0");
  CHECK(quiet.status == 0);
  for (const auto& f : nlohmann::json::parse(quiet.out)["findings"])
    CHECK(f["rule"] != "tiny_tasks");

  const auto bad =
      run_command(bin("legate_prof") + " findings " + trace + " --threshold tiny_tasks.max_task=5");
  CHECK(bad.status == 2);
  CHECK(bad.err ==
        "legate_prof findings: --threshold: rule tiny_tasks has no parameter 'max_task'; it has "
        "max_task_us, min_tasks, min_share\n");
  CHECK(bad.out.empty());
  const auto none = run_command(bin("legate_prof") + " findings");
  CHECK(none.status == 2);
  CHECK(none.err.find("no trace files given") != std::string::npos);
  const auto list = run_command(bin("legate_prof") + " findings --list-rules");
  CHECK(list.status == 0);
  CHECK(list.out.find("    tiny_tasks.max_task_us = 100 (us): ") != std::string::npos);
  CHECK(list.out.find("out_of_memory: Out of memory") != std::string::npos);
}

TEST_CASE("legate_prof takes a log directory for the traces in it in rank order", "[cli]") {
  TempDir dir;
  const auto run = run_command(bin("legate") + " --cpus 2 --profile --logdir " + dir.file("run") +
                               " " + bin("parallel_sum") + " --n 100000 --steps 2");
  REQUIRE(run.status == 0);
  // The run's directory holds its trace and its report's folder, which is
  // not entered: the directory answers as the trace does.
  REQUIRE(std::filesystem::is_directory(dir.file("run/legate_prof")));
  const auto by_file = run_command(bin("legate_prof") + " stats " + dir.file("run/legate_0.prof"));
  const auto by_dir = run_command(bin("legate_prof") + " stats " + dir.file("run"));
  INFO(by_dir.err);
  CHECK(by_dir.status == 0);
  CHECK(by_dir.err.empty());
  CHECK(by_dir.out == by_file.out);

  // Files by name: traces and logs in natural order, nothing else.
  std::filesystem::create_directories(dir.file("many/sub.prof"));
  for (const char* name : {"legate_10.prof", "legate_2.prof", "prof_1.gz", "legate_0.prof"})
    write_sample_trace(dir.file(std::string("many/") + name), 1, 5);
  write_bytes(dir.file("many/notes.txt"), {'h', 'i'});
  const auto info = run_command(bin("legate_prof") + " info " + dir.file("many"));
  INFO(info.out << info.err);
  CHECK(info.status == 0);
  std::vector<size_t> at;
  for (const char* name : {"legate_0.prof", "legate_2.prof", "legate_10.prof", "prof_1.gz"})
    at.push_back(info.out.find(dir.file(std::string("many/") + name)));
  CHECK(std::find(at.begin(), at.end(), std::string::npos) == at.end());
  CHECK(std::is_sorted(at.begin(), at.end()));
  CHECK(info.out.find("notes.txt") == std::string::npos);
  CHECK(info.out.find("sub.prof") == std::string::npos);

  // A directory with no traces says so and what it looked for; dump reads
  // one file and refuses a directory.
  std::filesystem::create_directories(dir.file("empty"));
  const auto empty = run_command(bin("legate_prof") + " stats " + dir.file("empty"));
  CHECK(empty.status == 1);
  CHECK(empty.out.empty());
  CHECK(empty.err == "legate_prof stats: " + dir.file("empty") +
                         ": a directory with no trace files in it (legate_*.prof, prof_*.gz); "
                         "give the log directory of a run (--logdir) or the trace files "
                         "themselves\n");
  const auto dump = run_command(bin("legate_prof") + " dump " + dir.file("run"));
  CHECK(dump.status == 1);
  CHECK(dump.err == "legate_prof dump: " + dir.file("run") +
                        ": cannot open: Is a directory, not a regular file\n");
}

TEST_CASE("legate_prof pins the colours a settings file gives and says what it cannot read",
          "[cli]") {
  TempDir dir;
  write_sample_trace(dir.file("t.prof"), 1, 5);
  const auto with = [&](const std::string& env) {
    return run_command(env + " " + bin("legate_prof") + " info " + dir.file("t.prof"));
  };
  // Good entries are pinned silently; a bad one is named and left out.
  const std::string pins = R"({"work": "#3cb44b", "other": "green"})";
  write_bytes(dir.file("colors.json"), std::vector<uint8_t>(pins.begin(), pins.end()));
  auto r = with("LEGATO_COLORS=" + dir.file("colors.json"));
  CHECK(r.status == 0);
  CHECK(r.err == "legate_prof: warning: " + dir.file("colors.json") +
                     ": \"other\": \"green\" is not a colour written #rrggbb; left out\n");
  // Not JSON, and a file named but missing: said, and the command runs.
  write_bytes(dir.file("broken.json"), {'{', 'x'});
  r = with("LEGATO_COLORS=" + dir.file("broken.json"));
  CHECK(r.status == 0);
  CHECK_THAT(r.err,
             Catch::StartsWith("legate_prof: warning: " + dir.file("broken.json") + ": not JSON"));
  r = with("LEGATO_COLORS=" + dir.file("none.json"));
  CHECK(r.err == "legate_prof: warning: LEGATO_COLORS=" + dir.file("none.json") +
                     ": no such file; no colour pinned\n");
  // No file where the user's settings would be: nothing said.
  r = with("env -u LEGATO_COLORS XDG_CONFIG_HOME=" + dir.file("config"));
  CHECK(r.status == 0);
  CHECK(r.err.empty());
}
