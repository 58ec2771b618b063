// The report's findings in headless Chromium: a trace of tiny tasks opens on
// its findings; clicking one zooms the timeline to it, unfolds and shows its
// lanes and outlines its items; an item's popup names the findings it
// belongs to, as analysis::belongs decides; a trace with nothing to find
// says so. Traces are written through the writer API (nothing ran).
// Skipped with a message when Chromium cannot start.

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/findings.hpp"
#include "browser/chromium.hpp"
#include "browser/report_page.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using trace::testing::TempDir;

namespace {

// 300 tasks of 4 us, 50 us apart on two CPUs, each its own operation from
// tiny.py:7, then one 25 ms task; a sysmem instance the whole run and four
// 2 MiB temporaries of 1 ms from tiny.py:8.
void write_tiny_tasks_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const auto sys = t.memory(trace::MemKind::System, 1 << 30, "sysmem");
  const auto kind = t.task_kind("add");
  for (int i = 0; i < 300; ++i) {
    const trace::Time at = 1000000 + i * 50000;
    t.task(i % 2 ? c1 : c0, kind, at, at + 4000, t.operation("add", "tiny.py:7"));
  }
  t.task(c0, t.task_kind("solve"), 17000000, 42000000, t.operation("solve", "tiny.py:9"));
  t.instance(sys, 1 << 20, "x", 0, 1000, 43000000);
  for (uint64_t k = 0; k < 4; ++k) {
    const trace::Time at = 2000000 + static_cast<trace::Time>(k) * 3000000;
    t.writer().add(trace::InstanceRecord{trace::make_uid(0, 900 + k), sys, 0, 2 << 20, 10 + k,
                                         t.writer().intern("tmp"), t.writer().intern("tiny.py:8"),
                                         at, at + 100000, at + 1000000, 0});
  }
  t.finish();
}

std::string log_of(const Chromium& c) {
  std::string log;
  for (const auto& l : c.console()) log += l + "\n";
  return log;
}

}  // namespace

TEST_CASE("clicking a finding shows it on the timeline", "[browser][findings]") {
  Chromium chrome(1400, 900);
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  write_tiny_tasks_trace(dir.file("legate_0.prof"));
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  const auto found = analysis::find(profile);
  REQUIRE(!found.findings.empty());
  const auto report = html::write_report(profile, dir.file("out"));
  REQUIRE(legato::testing::open_report(chrome, report.path));
  INFO(log_of(chrome));

  // One row per finding, in the analysis' order, the tiny tasks among them.
  CHECK(chrome.eval("document.querySelectorAll('#findings .finding-row').length") ==
        found.findings.size());
  CHECK(chrome.eval("legatoReport.findings.list[0].rule") == found.findings[0].rule);
  CHECK(chrome.eval("legatoReport.findings.list.some((f) => f.rule === 'tiny_tasks')") == true);
  CHECK_THAT(chrome.eval("document.getElementById('findings').textContent").get<std::string>(),
             Catch::Contains("of the program's time)") && Catch::Contains("tiny.py:7"));
  // The timeline starts below the findings on the first screen.
  CHECK(chrome.eval("document.getElementById('view').getBoundingClientRect().top < 300") == true);
  // The memory is folded to its avg line; the CPUs' lanes are shown.
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == 2);
  CHECK_THAT(chrome
                 .eval("[...document.querySelectorAll('.avg-label')].map((a) => a.textContent)"
                       ".join('|')")
                 .get<std::string>(),
             Catch::Contains("▸ System Memory avg (1)"));
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_findings_before.png");

  // Click the first finding's row (not its fold button).
  const auto at = chrome.eval(
      "(() => { const r = document.querySelector('#findings .finding-row .finding-title')"
      ".getBoundingClientRect(); return [r.left + 5, r.top + r.height / 2]; })()");
  chrome.click(at[0].get<double>(), at[1].get<double>());
  REQUIRE(chrome.wait_for("legatoReport.findings.selected === 0", 3000));
  chrome.eval("legatoReport.timeline.paint(); 0");
  const auto& f = found.findings[0];
  // The window moved to the finding's, with a small margin.
  const double t0 = chrome.eval("legatoReport.timeline.t0");
  const double t1 = chrome.eval("legatoReport.timeline.t1");
  const auto span = static_cast<double>(f.t1 - f.t0);
  CHECK(t0 <= static_cast<double>(f.t0));
  CHECK(t1 >= static_cast<double>(f.t1));
  CHECK(t1 - t0 <= span * 1.25 + 2000);
  // Its lanes are unfolded and in view.
  for (uint32_t l : f.lanes) {
    CHECK(chrome.eval("document.querySelector('.lane-label[data-lane=\"" + std::to_string(l) +
                      "\"]') !== null") == true);
    CHECK(chrome.eval("legatoReport.timeline.laneVisible(" + std::to_string(l) + ")") == true);
  }
  // Every representative item is outlined where it is drawn: around its
  // span, in its lane's row.
  nlohmann::json items = nlohmann::json::array();
  for (uint32_t i : f.items) items.push_back(i);
  REQUIRE(!items.empty());
  CHECK(chrome.eval("(() => { const t = legatoReport.timeline, p = legatoReport.profile;"
                    "return " +
                    items.dump() +
                    ".filter((i) => { const r = t.rows.find((row) => row.type === 'lane' &&"
                    "row.lane === p.laneOf(i)); const y = AXIS_H + r.y - t.scroll + 1 + "
                    "p.rowOf(i) * ROW_H; return !t.outlined.some((b) => b.item === i && b.y === y"
                    "&& b.x0 <= t.x(p.start(i)) && b.x1 >= t.x(p.stop(i))); }); })()") ==
        nlohmann::json::array());
  CHECK(chrome.eval("document.getElementById('findings-clear').hidden") == false);
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_findings_after.png");

  // The page's belongs() agrees with the analysis for every item.
  nlohmann::json expected = nlohmann::json::array();
  for (size_t k = 0; k < found.findings.size(); ++k)
    for (uint32_t i = 0; i < profile.items.size(); ++i)
      if (analysis::belongs(profile, found.findings[k], i)) expected.push_back({k, i});
  CHECK(
      chrome.eval("(() => { const F = legatoReport.findings, out = [];"
                  "F.list.forEach((f, k) => { for (let i = 0; i < legatoReport.profile.count; ++i)"
                  "if (F.belongs(f, i)) out.push([k, i]); }); return out; })()") == expected);
  // An item's popup lists the findings it belongs to; the link selects one.
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(f.items[0]) + ").then(() => 0)");
  CHECK(chrome.eval("document.querySelector('#popup .item-findings a').textContent") == f.title);
  // Durations read short; the exact value is in the cell's title.
  CHECK(chrome.eval("[formatNs(2e8), formatNs(140145904), formatNs(2820), formatNs(999.7e3), "
                    "formatNs(800)]") ==
        nlohmann::json({"200 ms", "140 ms", "2.82 us", "1 ms", "800 ns"}));
  CHECK(chrome.eval("/\\.\\d{3} [mu]?s/.test(document.getElementById('popup').textContent + "
                    "document.getElementById('run').textContent)") == false);

  // A memory finding unfolds the memory's lanes and outlines its instances.
  const int temporaries =
      chrome.eval("legatoReport.findings.list.findIndex((f) => f.rule === 'temporaries')");
  REQUIRE(temporaries >= 0);
  // The page knows where each instance's array was allocated.
  CHECK(chrome.eval("(() => { const p = legatoReport.profile, out = [];"
                    "for (let i = 0; i < p.count; ++i) if (p.kind(i) === p.KIND_INSTANCE)"
                    "out.push(p.strings[p.provenanceId(i)]); return out; })()") ==
        nlohmann::json({"prog.cc:1", "tiny.py:8", "tiny.py:8", "tiny.py:8", "tiny.py:8"}));
  chrome.eval("document.querySelectorAll('#findings .finding-row')[" + std::to_string(temporaries) +
              "].click(); legatoReport.timeline.paint(); 0");
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == 3);
  CHECK(chrome.eval("legatoReport.timeline.laneVisible(legatoReport.findings.list[" +
                    std::to_string(temporaries) + "].lanes[0].lane)") == true);
  CHECK(chrome.eval("legatoReport.timeline.outlined.length") ==
        found.findings[static_cast<size_t>(temporaries)].items.size());

  // Clearing removes the outline.
  chrome.eval(
      "document.getElementById('findings-clear').click(); legatoReport.timeline.paint(); 0");
  CHECK(chrome.eval("legatoReport.timeline.outlined.length") == 0);
  // Details unfold under the row.
  chrome.eval("document.querySelector('#findings .finding-fold').click(); 0");
  CHECK_THAT(chrome.eval("document.querySelector('#findings .finding-details').textContent")
                 .get<std::string>(),
             Catch::Contains(f.fix.substr(0, 40)) && Catch::Contains(f.summary.substr(0, 40)));
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("a run with nothing to find says so in one line", "[browser][findings]") {
  Chromium chrome(1400, 900);
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  {
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    t.task(c0, t.task_kind("solve"), 0, 50000000, t.operation("solve", "big.py:3"));
    t.finish();
  }
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(analysis::find(profile).findings.empty());
  const auto report = html::write_report(profile, dir.file("out"));
  REQUIRE(legato::testing::open_report(chrome, report.path));
  CHECK(chrome.eval("document.getElementById('findings').hidden") == false);
  CHECK(chrome.eval("document.querySelectorAll('#findings .finding-row').length") == 0);
  CHECK_THAT(chrome.eval("document.getElementById('findings-head').textContent").get<std::string>(),
             Catch::Contains("none: no rule saw a pattern that costs this run"));
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_no_findings.png");
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}
