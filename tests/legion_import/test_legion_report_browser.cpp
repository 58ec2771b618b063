// The HTML report of a Legion Prof log in headless Chromium: it loads with
// every lane and avg line, memories are read as memories (their kinds moved
// when Python processors came), and a Julia task's critical-path link goes to
// the task before it; the report of a synthetic 2-node GPU run (written by
// the test-only writer) shows GPU Device and Host lanes, Framebuffer and
// Zero-Copy memories and its channels. Skipped with a message when Chromium
// cannot start.

#include <catch2/catch.hpp>

#include "browser/chromium.hpp"
#include "browser/report_page.hpp"
#include "gpu_run_fixture.hpp"
#include "load/load.hpp"
#include "log_editor.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using trace::testing::TempDir;

namespace {

// `legate_prof archive FILES` into dir/report, opened in chrome until it is
// ready, with no error on the page and (memories unfolded) a label per lane;
// the files' profile.
analysis::Profile open_report(Chromium& chrome, const TempDir& dir,
                              const std::vector<std::string>& files) {
  std::string args;
  for (const auto& f : files) args += " " + f;
  const auto r = testing::run_command(testing::bin("legate_prof") + " archive" + args + " -o " +
                                      dir.file("report"));
  REQUIRE(r.status == 0);
  analysis::Profile p = load::load_profile(files);
  REQUIRE(legato::testing::open_report(chrome, dir.file("report/index.html")));
  INFO([&] {
    std::string text;
    for (const auto& l : chrome.console()) text += l + "\n";
    return text;
  }());
  CHECK(chrome.eval("document.getElementById('status').textContent") == "");
  // Memories open folded to their avg line; unfolded, every lane has a label.
  size_t unfolded = 0;
  for (const auto& l : p.lanes) unfolded += analysis::is_memory(l.kind) ? 0 : 1;
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == unfolded);
  chrome.eval(
      "document.querySelectorAll('.avg-label').forEach((a) => {"
      "if (a.textContent.startsWith('▸')) a.click(); }); 0");
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == p.lanes.size());
  CHECK(chrome.eval("legatoReport.profile.count") == p.items.size());
  return p;
}

}  // namespace

TEST_CASE("the report of a Legion log works in a browser", "[browser][legion]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string log = legion::testing::data_file(legion::testing::kA);
  const analysis::Profile p = open_report(chrome, dir, {log});
  size_t kinds = 0;
  for (const auto& n : p.nodes) kinds += n.kinds.size();
  CHECK(chrome.eval("document.querySelectorAll('.avg-label').length") == kinds);
  // Exactly the memory lanes are memories to the page.
  nlohmann::json memories = nlohmann::json::array();
  for (const auto& l : p.lanes) memories.push_back(analysis::is_memory(l.kind));
  CHECK(
      chrome.eval("legatoReport.profile.lanes.map((l) => legatoReport.profile.isMemory(l.kind))") ==
      memories);
  // The last Julia task (op 6, on c2) was held back by op 5's task.
  uint32_t op6 = analysis::kNone, op5 = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != analysis::ItemKind::Task || p.items[i].op == analysis::kNone) continue;
    if (p.operations[p.items[i].op].uid == 6) op6 = i;
    if (p.operations[p.items[i].op].uid == 5) op5 = i;
  }
  REQUIRE(op6 != analysis::kNone);
  CHECK(chrome.eval("legatoReport.profile.lastPrecondition(" + std::to_string(op6) + ")") == op5);
  // The top-level task's popup lists where it waited, each wait's backtrace
  // folded: opened, it shows Legion's stack.
  uint32_t toplevel = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.label(i) == "Toplevel Task") toplevel = i;
  }
  REQUIRE(toplevel != analysis::kNone);
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(toplevel) +
              ").then(() => { document.querySelector('#popup .wait-notes details').open = true; "
              "return 0; })");
  CHECK_THAT(chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
             Catch::Contains("Where it waited (2)"));
  CHECK(chrome.eval("document.querySelectorAll('#popup .wait-notes pre').length") == 2);
  CHECK_THAT(chrome.eval("document.querySelector('#popup .wait-notes pre').textContent")
                 .get<std::string>(),
             Catch::Contains("FutureImpl::wait"));
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../legion_report.png");
}

TEST_CASE("the report of a synthetic Legion GPU run works in a browser", "[browser][legion]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const auto f =
      legion::testing::write_gpu_run(dir.path().string(), legion::testing::LogVersion::V1008);
  const analysis::Profile p = open_report(chrome, dir, {f.node0, f.node1});
  // Per node: the GPU's two lanes, the GPU memories and a host-to-device
  // channel, with their kinds, as the page holds them.
  for (int n = 0; n < 2; ++n) {
    const auto kind_of = [&](const std::string& name) {
      return chrome.eval("(legatoReport.profile.lanes.find((l) => l.rank === " + std::to_string(n) +
                         " && l.name === '" + name + "') || {kind: -1}).kind");
    };
    INFO("node " << n);
    CHECK(kind_of("g3d") == static_cast<int>(analysis::LaneKind::GpuDevice));
    CHECK(kind_of("g3h") == static_cast<int>(analysis::LaneKind::GpuHost));
    CHECK(kind_of("fbmem2") == static_cast<int>(analysis::LaneKind::Framebuffer));
    CHECK(kind_of("zcmem1") == static_cast<int>(analysis::LaneKind::ZeroCopy));
    CHECK(kind_of("zcmem1 -> fbmem2") == static_cast<int>(analysis::LaneKind::Channel));
  }
  const std::string labels = chrome.eval(
      "Array.from(document.querySelectorAll('.lane-label')).map((e) => e.textContent).join('|')");
  CHECK_THAT(labels, Catch::Contains("g3d") && Catch::Contains("g3h") &&
                         Catch::Contains("fbmem2") && Catch::Contains("zcmem1 -> fbmem2"));
  // A GPU task's popup names its Legion operation by op_id.
  uint32_t gpu_task = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size() && gpu_task == analysis::kNone; ++i) {
    const uint32_t l = p.lane_of(i);
    if (l != analysis::kNone && p.lanes[l].kind == analysis::LaneKind::GpuHost) gpu_task = i;
  }
  REQUIRE(gpu_task != analysis::kNone);
  REQUIRE(p.items[gpu_task].op != analysis::kNone);
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(gpu_task) + ").then(() => 0)");
  const std::string popup = chrome.eval("document.getElementById('popup').textContent");
  CHECK_THAT(popup,
             Catch::Contains("op id" + std::to_string(p.operations[p.items[gpu_task].op].uid)));
  // A copy's popup gives its effective bandwidth: 1 MiB in 1,000 ns.
  uint32_t copy = analysis::kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const uint32_t l = p.lane_of(i);
    if (p.items[i].kind == analysis::ItemKind::Copy && p.items[i].start == 10500 &&
        p.lanes[l].rank == 0 && p.lanes[l].name == "zcmem1 -> fbmem2")
      copy = i;
  }
  REQUIRE(copy != analysis::kNone);
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(copy) + ").then(() => 0)");
  CHECK_THAT(
      chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
      Catch::Contains("bytes1,048,576 (1.0 MiB)") && Catch::Contains("bandwidth976.6 GiB/s"));
  // Gathers and scatters are named as such, as the model names them.
  nlohmann::json kinds = nlohmann::json::array(), names = nlohmann::json::array();
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != analysis::ItemKind::Copy) continue;
    kinds.push_back(i);
    names.push_back(std::string(p.kind_name(i)));
  }
  CHECK(chrome.eval("" + kinds.dump() + ".map((i) => legatoReport.profile.kindName(i))") == names);
  CHECK_THAT(names.dump(), Catch::Contains("\"gather copy\"") &&
                               Catch::Contains("\"scatter copy\"") && Catch::Contains("\"copy\""));
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(gpu_task) + ").then(() => 0)");
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../legion_gpu_report.png");
}
