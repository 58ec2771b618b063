// legate_prof info, dump, stats and archive on Legion Prof logs as a user
// runs them: output, exit status and the one-line reasons.
#include <filesystem>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "gpu_run_fixture.hpp"
#include "log_editor.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::testing;
using namespace legato::legion::testing;
using legato::trace::testing::TempDir;

namespace {
bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("legate_prof info describes a Legion log, plain or gzip", "[cli][legion]") {
  TempDir dir;
  const std::string gz = dir.file("prof_0.gz");
  write_file(gz, gzip(read_file(data_file(kA))));
  for (const std::string& path : {data_file(kA), gz}) {
    INFO(path);
    const auto r = run_command(bin("legate_prof") + " info " + path);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(has(r.out, "Legion Prof log, format 1008, "));
    CHECK(has(r.out, "node 0 of 1 on dubliner (pid 3941588)"));
    CHECK(has(r.out, "processors   16 cpu, 2 utility, 1 io, 1 gpu_host, 1 gpu_device"));
    CHECK(has(r.out, "records      2,167\n"));
    CHECK(has(r.out, "    ProcMDesc               1,010\n"));
    CHECK(has(r.out, "6 tasks"));
    CHECK(has(r.out, path.size() > 3 && path.substr(path.size() - 3) == ".gz"
                         ? "decompressed from gzip"
                         : "(plain)"));
  }
}

TEST_CASE("legate_prof info names the format and Legion's version of a 1011 log", "[cli][legion]") {
  TempDir dir;
  legato::legion::testing::LogEditor e(data_file(kA));
  e.as_format(legato::legion::testing::LogVersion::V1011);
  const std::string path = dir.file("legate_0.prof");
  write_file(path, e.encode());
  const auto r = run_command(bin("legate_prof") + " info " + path);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(has(r.out, "Legion Prof log, format 1011 (Legion version legion-26.03.0-test), "));
  CHECK(has(r.out, "records      2,167\n"));
  CHECK(has(r.out, "6 tasks"));
}

TEST_CASE("legate_prof on damaged and foreign Legion logs", "[cli][legion]") {
  TempDir dir;
  auto bytes = read_file(data_file(kA));
  const std::string cut = dir.file("cut.prof");
  write_file(cut, {bytes.begin(), bytes.begin() + 50000});
  auto r = run_command(bin("legate_prof") + " info " + cut);
  CHECK(r.status == 0);  // cut short, like an unfinished trace: a warning
  CHECK(has(r.out, "records      1,156\n"));
  CHECK(has(r.err, "warning: " + cut + ": byte offset "));
  CHECK(has(r.err, "cut off"));

  bytes.insert(bytes.end(), {0x63, 0, 0, 0, 0xff, 0xff});
  const std::string bad = dir.file("id99.prof");
  write_file(bad, bytes);
  r = run_command(bin("legate_prof") + " info " + bad);
  CHECK(r.status == 1);  // damaged
  CHECK(has(r.err, "byte offset 100304: record id 99 is not declared"));

  const std::string text = dir.file("ascii.log");
  const std::string line = "[0 - 7f3c] {4}{legion_prof}: Prof Task Info 1 2 3\n";
  write_file(text, {line.begin(), line.end()});
  for (const char* cmd : {"info", "dump", "stats"}) {
    r = run_command(bin("legate_prof") + " " + cmd + " " + text);
    CHECK(r.status == 1);
    CHECK(has(r.err, text + ":1: a text-format Legion Prof log"));
  }
}

TEST_CASE("legate_prof dump prints what a Legion log became", "[cli][legion]") {
  const auto r = run_command(bin("legate_prof") + " dump --strings --kind task " + data_file(kA));
  CHECK(r.status == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);
  CHECK(has(r.out, "\"start\":2672636469,\"stop\":2910192273"));
  const auto kinds = run_command(bin("legate_prof") + " dump --kind task_kind " + data_file(kA));
  CHECK(std::count(kinds.out.begin(), kinds.out.end(), '\n') == 23);
  const auto metas =
      run_command(bin("legate_prof") + " dump --strings --kind meta_task " + data_file(kA));
  CHECK(has(metas.out, "\"meta_kind_text\":\"Trigger Ready\""));
  const auto meta = run_command(bin("legate_prof") + " dump --kind metadata " + data_file(kA));
  CHECK(has(meta.out, "\"zero_time_ns\":1769621188808901136"));
}

TEST_CASE("legate_prof stats and archive on Legion logs", "[cli][legion]") {
  TempDir dir;
  auto r = run_command(bin("legate_prof") + " stats " + data_file(kA));
  CHECK(r.status == 0);
  CHECK(has(r.out, "2,167 records"));
  CHECK(has(r.out, "ufi::JuliaCustomTask"));
  CHECK(has(r.out, "node 0     IO                        1 lanes      100.0% avg"));
  // Two runs: a warning, and only one of them is shown.
  r = run_command(bin("legate_prof") + " stats " + data_file(kA) + " " + data_file(kB));
  CHECK(r.status == 0);
  CHECK(has(r.err, "left out: it belongs to run"));
  CHECK(has(r.out, "1 of 1 rank(s)"));
  r = run_command(bin("legate_prof") + " archive " + data_file(kA) + " -o " + dir.file("report"));
  CHECK(r.status == 0);
  CHECK(std::filesystem::file_size(dir.file("report") + "/index.html") > 10000);
}

TEST_CASE("legate_prof stats --json gives Legion Prof's busy time per lane", "[cli][legion]") {
  const auto r = run_command(bin("legate_prof") + " stats --json " + data_file(kA));
  CHECK(r.status == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, int64_t> busy;
  std::map<std::string, nlohmann::json> items;
  for (const auto& lane : j["lanes"]) {
    busy[lane["name"]] = lane["busy_ns"].get<int64_t>();
    items[lane["name"]] = lane["items"];
  }
  // legion_prof_logs.md §5.4, log A.
  CHECK(busy["u0"] == 144009893);
  CHECK(busy["u0"] + busy["u1"] == 284190419);
  CHECK(busy["i19"] == 2737591127);
  CHECK(items["u0"]["runtime work"] == 47);
  CHECK(items["i19"]["task"] == 2);
  bool sysmem = false;
  for (const auto& m : j["memories"]) {
    if (m["name"] != "sysmem0") continue;
    sysmem = true;
    CHECK(m["instances"] == 4);
    CHECK(m["peak_bytes"].get<uint64_t>() > 0);
    CHECK(m["peak_bytes"].get<uint64_t>() <= 1600);
  }
  CHECK(sysmem);
}

TEST_CASE("legate_prof stats --json on a 2-node log whose files each describe both nodes",
          "[cli][legion]") {
  // Legion of 2023 logged every node's processors and memories in each
  // node's file: each node keeps its own, with its own GPU work.
  TempDir dir;
  const auto f = legato::legion::testing::write_gpu_run(dir.path().string(),
                                                        legato::legion::testing::LogVersion::V2023);
  const auto r = run_command(bin("legate_prof") + " stats --json " + f.node0 + " " + f.node1);
  CHECK(r.status == 0);
  INFO(r.err);
  CHECK(r.err.empty());
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::pair<int, std::string>, int> lanes;  // (node, name) -> how many
  std::map<std::pair<int, std::string>, int64_t> busy;
  for (const auto& lane : j["lanes"]) {
    ++lanes[{lane["node"].get<int>(), lane["name"].get<std::string>()}];
    busy[{lane["node"].get<int>(), lane["name"].get<std::string>()}] =
        lane["busy_ns"].get<int64_t>();
  }
  for (const auto& m : j["memories"]) ++lanes[{m["node"].get<int>(), m["name"].get<std::string>()}];
  for (int node = 0; node < 2; ++node) {
    INFO("node " << node);
    for (const char* name : {"u0", "c1", "c2", "g3h", "g3d", "sysmem0", "zcmem1", "fbmem2"})
      CHECK(lanes[{node, name}] == 1);
    CHECK(busy[{node, "g3d"}] == 13000);  // its own kernels
  }
  CHECK(lanes.size() == 2 * 8 + 1);  // and node 0's dependent-partitioning lane, nothing else
}

TEST_CASE("legate_prof stats and archive on a 2-node run of every format from 1008 to 1012",
          "[cli][legion]") {
  using legato::legion::testing::LogVersion;
  TempDir dir;
  const auto stats = [&](LogVersion v) {
    const std::string sub = dir.file(std::to_string(static_cast<int>(v)));
    std::filesystem::create_directories(sub);
    const auto f = legato::legion::testing::write_gpu_run(sub, v);
    const auto r = run_command(bin("legate_prof") + " stats --json " + f.node0 + " " + f.node1);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK_THAT(j["run"]["program"].get<std::string>(),
               Catch::StartsWith("Legion run (format " + std::to_string(static_cast<int>(v))));
    const auto a = run_command(bin("legate_prof") + " archive " + f.node0 + " " + f.node1 + " -o " +
                               sub + "/report");
    CHECK(a.status == 0);
    CHECK(std::filesystem::exists(sub + "/report/index.html"));
    j.erase("run");  // its program names the format
    return j;
  };
  const nlohmann::json base = stats(LogVersion::V1008);
  CHECK(base["lanes"].size() > 10);
  for (const LogVersion v :
       {LogVersion::V1009, LogVersion::V1010, LogVersion::V1011, LogVersion::V1012}) {
    INFO("format " << static_cast<int>(v));
    CHECK(stats(v) == base);
  }
}
