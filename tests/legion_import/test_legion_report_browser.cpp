// The HTML report of a Legion Prof log in headless Chromium: it loads with
// every lane and avg line, memories are read as memories (their kinds moved
// when Python processors came), and a Julia task's critical-path link goes to
// the task before it. Skipped with a message when Chromium cannot start.
#include <filesystem>

#include <catch2/catch.hpp>

#include "analysis/load.hpp"
#include "browser/chromium.hpp"
#include "log_editor.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using trace::testing::TempDir;

TEST_CASE("the report of a Legion log works in a browser", "[browser][legion]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string log = legion::testing::data_file("legatejl_85d792a6_legate_0.prof");
  const auto r = testing::run_command(testing::bin("legate_prof") + " archive " + log + " -o " +
                                      dir.file("report"));
  REQUIRE(r.status == 0);
  const analysis::Profile p = analysis::load_profile({log});
  chrome.open("file://" + std::filesystem::absolute(dir.file("report/index.html")).string());
  REQUIRE(chrome.wait_for("document.body.dataset.state === 'ready'"));
  INFO([&] {
    std::string text;
    for (const auto& l : chrome.console()) text += l + "\n";
    return text;
  }());
  CHECK(chrome.eval("document.getElementById('status').textContent") == "");
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == p.lanes.size());
  size_t kinds = 0;
  for (const auto& n : p.nodes) kinds += n.kinds.size();
  CHECK(chrome.eval("document.querySelectorAll('.avg-label').length") == kinds);
  CHECK(chrome.eval("legatoReport.profile.count") == p.items.size());
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
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../legion_report.png");
}
