// legate_prof view on Legion Prof logs in a real window under Xvfb: a gzip
// log opens with its lanes, a Julia task's critical-path link goes to the
// task before it, and a log cut short opens with its warning. Skipped with a
// message without xvfb-run.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/stats.hpp"
#include "gpu_run_fixture.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "log_editor.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"
#include "viewer/xvfb_view.hpp"

using namespace legato;
using namespace legato::legion::testing;
using nlohmann::json;
using trace::testing::TempDir;

namespace {

using testing::have_xvfb;
using testing::view_under_xvfb;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

TEST_CASE("a Legion log in the viewer: lanes and the critical path", "[gui][legion]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string gz = dir.file("prof_0.gz");
  write_file(gz, gzip(read_file(data_file(kA))));
  // The last Julia task (op 6 on c2), found as the viewer's search finds it
  // (its meta tasks match too: they serve its operation).
  const analysis::Profile p = load::load_profile({gz});
  uint32_t op6 = analysis::kNone, op5 = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != analysis::ItemKind::Task || p.items[i].op == analysis::kNone) continue;
    if (p.operations[p.items[i].op].uid == 6) op6 = i;
    if (p.operations[p.items[i].op].uid == 5) op5 = i;
  }
  const auto hits = analysis::search(p, "ufi::JuliaCustomTask");
  const auto at = std::find(hits.begin(), hits.end(), op6);
  REQUIRE(at != hits.end());
  const std::string nth = std::to_string(at - hits.begin());  // select counts from 0
  uint32_t toplevel = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.label(i) == "Toplevel Task") toplevel = i;
  }
  const auto top_hits = analysis::search(p, "Toplevel");
  const auto top_at = std::find(top_hits.begin(), top_hits.end(), toplevel);
  REQUIRE(top_at != top_hits.end());
  const std::string top_nth = std::to_string(top_at - top_hits.begin());
  // Memories open folded to their avg lines: `expand all` lists every lane.
  const auto r = view_under_xvfb(
      gz,
      "expand all\ndump " + dir.file("all.json") + "\nselect ufi::JuliaCustomTask " + nth +
          "\nwait 2\ndump " + dir.file("before.json") + "\nclick-ui critical\nwait 2\ndump " +
          dir.file("after.json") + "\nselect Toplevel " + top_nth + "\nwait 2\ndump " +
          dir.file("toplevel.json") + "\nquit\n",
      dir);
  INFO("select match " << nth << ": " << r.out << r.err);
  REQUIRE(r.status == 0);
  const json all = read_json(dir.file("all.json"));
  std::string texts;
  for (const auto& row : all["rows"]) texts += row["text"].get<std::string>() + "|";
  CHECK_THAT(texts, Catch::Contains("|c2|") && Catch::Contains("|u0|") &&
                        Catch::Contains("|i19|") && Catch::Contains("|g18h|") &&
                        Catch::Contains("|sysmem0|"));
  CHECK(all["warnings"].empty());
  const json before = read_json(dir.file("before.json")), after = read_json(dir.file("after.json"));
  REQUIRE(before.contains("selected"));
  CHECK(before["selected"]["item"] == op6);
  CHECK(before["selected"]["name"] == "ufi::JuliaCustomTask");
  CHECK(before["selected"]["critical"] == op5);
  CHECK(after["selected"]["item"] == op5);
  CHECK(after["selected"]["name"] == "ufi::JuliaCustomTask");
  // The top-level task blocked twice on futures: each wait's backtrace
  // (EventWaitInfo + BacktraceDesc) is in its details.
  const json top = read_json(dir.file("toplevel.json"));
  REQUIRE(top.contains("selected"));
  CHECK(top["selected"]["name"] == "Toplevel Task");
  REQUIRE(top["selected"]["wait_notes"].size() == 2);
  for (const auto& note : top["selected"]["wait_notes"])
    CHECK_THAT(note.get<std::string>(), Catch::Contains("FutureImpl::wait"));
}

TEST_CASE("a Legion log cut short opens with its warning", "[gui][legion]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  auto bytes = read_file(data_file(kA));
  bytes.resize(50000);
  const std::string cut = dir.file("cut.prof");
  write_file(cut, bytes);
  const auto r = view_under_xvfb(cut, "dump " + dir.file("cut.json") + "\nquit\n", dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json st = read_json(dir.file("cut.json"));
  CHECK_THAT(st["warnings"].dump(), Catch::Contains("cut off"));
}

TEST_CASE("a synthetic Legion GPU run in the viewer", "[gui][legion]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const auto f =
      legion::testing::write_gpu_run(dir.path().string(), legion::testing::LogVersion::V1008, true);
  const std::string png = std::string(LEGATO_BIN_DIR) + "/../legion_gpu_viewer.png";
  std::filesystem::remove(png);
  const auto r = view_under_xvfb(
      f.node0 + " " + f.node1,
      "expand all\nwait 1\ndump " + dir.file("gpu.json") + "\nscreenshot " + png + "\nquit\n", dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json st = read_json(dir.file("gpu.json"));
  std::string texts;
  for (const auto& row : st["rows"]) texts += row["text"].get<std::string>() + "|";
  INFO(texts);
  CHECK_THAT(texts, Catch::Contains("|g3d|") && Catch::Contains("|g3h|") &&
                        Catch::Contains("|fbmem2|") && Catch::Contains("|zcmem1|") &&
                        Catch::Contains("|zcmem1 -> fbmem2|") && Catch::Contains("|dp0|"));
  CHECK(st["warnings"].empty());
  CHECK(std::filesystem::file_size(png) > 1000);
}
