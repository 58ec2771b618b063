// A report too big for one page: a run of a million records (written through
// the writer API; nothing ran) opens on its overview with few of its detail
// files loaded, and where the user zooms the page loads the items there and
// opens the item the model finds under the mouse; search counts hits in
// every chunk and opens those not loaded; a missing detail file is named on
// the page, which draws the rest. Firefox loads the detail files from file://
// as Chromium does. Each browser's case is skipped with a message when it
// cannot start.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/timeline.hpp"
#include "analysis/units.hpp"
#include "browser/chromium.hpp"
#include "browser/firefox.hpp"
#include "browser/report_page.hpp"
#include "html_export/report.hpp"
#include "html_export/report_tables.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using legato::testing::Firefox;
using nlohmann::json;
using trace::testing::TempDir;

namespace {

constexpr int kSteps = 100'000;  // 10 records each

// Per step: an operation from one of eight lines, its mapping on the
// utility processor well before, then a point task on each of four CPUs,
// each waiting for the one before it on its CPU (which ends after the
// mapping: every task's critical path runs back along its CPU).
void write_big_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const uint32_t util = t.processor(trace::ProcKind::Utility, 0, "u0");
  uint32_t cpus[4];
  for (uint32_t c = 0; c < 4; ++c)
    cpus[c] = t.processor(trace::ProcKind::Cpu, c + 1, "c" + std::to_string(c));
  const uint32_t kinds[] = {t.task_kind("gemm"), t.task_kind("axpy"), t.task_kind("dot")};
  trace::Uid last[4] = {0, 0, 0, 0};
  trace::Time at = 2000;
  for (int s = 0; s < kSteps; ++s) {
    const trace::Uid op = t.operation("step", "solver.py:" + std::to_string(10 + s % 8));
    t.meta(util, "map", at - 1400, at - 1300, op);
    for (uint32_t c = 0; c < 4; ++c) {
      const trace::Time start = at + 400 + 37 * c, stop = start + 900 + (s * 7 + c * 13) % 500;
      last[c] = [&] {
        const trace::Uid task = t.task(cpus[c], kinds[(s + c) % 3], start, stop, op, start - 50);
        if (last[c] != 0) t.edge(task, last[c]);
        return task;
      }();
    }
    at += 1500;
  }
  t.finish();
}

struct BigReport {
  TempDir dir;
  analysis::Profile p;
  html::ReportInfo info;
  BigReport() {
    write_big_trace(dir.file("legate_0.prof"));
    p = load::load_profile({dir.file("legate_0.prof")});
    info = html::write_report(p, dir.file("report"));
  }
};

const BigReport& big() {
  static const BigReport report;
  return report;
}

// The item the model draws under x on row 0 of lane l, when the window
// [t0, t1] is drawn `width` pixels wide; kNone for none.
uint32_t model_item_at(const analysis::Profile& p, uint32_t l, double t0, double t1, double width,
                       double x) {
  analysis::Window w{static_cast<analysis::Time>(std::floor(t0)),
                     static_cast<analysis::Time>(std::ceil(t1)), (t1 - t0) / width, 3};
  std::vector<analysis::DrawBox> boxes;
  analysis::visible_boxes(p, l, w, boxes);
  for (const auto& b : boxes) {
    const double x0 = (static_cast<double>(b.start) - t0) / w.ns_per_px;
    const double x1 = (static_cast<double>(b.stop) - t0) / w.ns_per_px;
    if (b.row == 0 && b.item != analysis::kNone && x >= x0 && x <= x1) return b.item;
  }
  return analysis::kNone;
}

// Zooms the page to [t0, t1] and waits until what it asked for is drawn.
std::string show(double t0, double t1) {
  return "(async () => { const t = legatoReport.timeline; t.setWindow(" + std::to_string(t0) +
         ", " + std::to_string(t1) +
         "); await legatoReport.settled(); t.paint(); return [t.t0, t.t1, t.w]; })()";
}

// Lane l's row 0 in the page: the screen y of its middle and the canvas's left edge.
json row_place(Chromium& chrome, uint32_t l) {
  return chrome.eval(
      "(() => { const t = legatoReport.timeline, r = t.canvas.getBoundingClientRect();"
      "const row = t.rows.find((x) => x.type === 'lane' && x.lane === " +
      std::to_string(l) + "); return [r.left, r.top + 22 + row.y - t.scroll + 1 + 7]; })()");
}

}  // namespace

TEST_CASE("a million-record report opens on its overview and opens the model's item where zoomed",
          "[browser][scale]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  const BigReport& r = big();
  const analysis::Profile& p = r.p;
  REQUIRE(p.records >= 1'000'000);
  REQUIRE(html::item_chunks(p) >= 10);
  REQUIRE(legato::testing::open_report(chrome, r.info.path));
  INFO([&] {
    std::string log;
    for (const auto& l : chrome.console()) log += l + "\n";
    return log;
  }());
  CHECK(chrome.eval("legatoReport.firstPaintMs > 0") == true);
  CHECK(chrome.eval("document.getElementById('status').textContent") == "");
  // The first screen: every CPU row holds 100000 items, more than the page
  // loads for its width, so they are drawn from their fold blocks, with
  // next to none of the detail files loaded.
  const json drawn = chrome.eval("Object.fromEntries(legatoReport.timeline.drawnBy)");
  uint32_t c2 = analysis::kNone;
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    if (p.lanes[l].kind != analysis::LaneKind::Cpu) continue;
    INFO(p.lanes[l].name);
    CHECK(drawn[std::to_string(l)] == "blocks");
    if (p.lanes[l].name == "c2") c2 = l;
  }
  REQUIRE(c2 != analysis::kNone);
  CHECK(chrome.eval("legatoReport.profile.store.loaded").get<int>() <= 2);
  // Zoomed onto a task of c2 in the middle of the run: the page loads c2's
  // items there, and a click on the task opens it, the item the model draws
  // at that pixel.
  const analysis::Row& row = p.lanes[c2].rows[0];
  const uint32_t item = row.begin + (row.end - row.begin) * 3 / 5;
  const double s = static_cast<double>(p.items[item].start),
               e = static_cast<double>(p.items[item].stop());
  const json window = chrome.eval(show(s - 6 * (e - s), e + 6 * (e - s)));
  CHECK(chrome.eval("legatoReport.timeline.drawnBy.get(" + std::to_string(c2) + ")") == "items");
  const double t0 = window[0], t1 = window[1], width = window[2];
  const double x = ((s + e) / 2 - t0) / (t1 - t0) * width;
  REQUIRE(model_item_at(p, c2, t0, t1, width, x) == item);
  const json place = row_place(chrome, c2);
  chrome.click(place[0].get<double>() + x, place[1].get<double>());
  REQUIRE(chrome.wait_for(
      "document.getElementById('popup').dataset.item === '" + std::to_string(item) + "'", 5000));
  CHECK(chrome.eval("document.querySelector('#popup h3').textContent") == p.label(item));
  CHECK_THAT(chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
             Catch::Contains(p.str(p.operations[p.items[item].op].provenance)));
  // Its critical path runs back through c2's tasks, chunk after chunk.
  CHECK(chrome.eval("document.querySelectorAll('#popup ol.path li').length") == 199);
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("search counts hits in every chunk of a big report and opens those not loaded",
          "[browser][scale]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  const BigReport& r = big();
  const analysis::Profile& p = r.p;
  REQUIRE(legato::testing::open_report(chrome, r.info.path));
  // One line of eight: its operations' mappings and tasks.
  const std::string line = "solver.py:13";
  uint64_t hits = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const uint32_t op = p.items[i].op;
    if (op != analysis::kNone && p.str(p.operations[op].provenance) == line) ++hits;
  }
  REQUIRE(hits == kSteps / 8 * 5);
  chrome.eval("(() => { const s = document.getElementById('search'); s.value = '" + line +
              "'; s.dispatchEvent(new Event('input')); })()");
  REQUIRE(chrome.wait_for("legatoReport.timeline.search !== null", 3000));
  CHECK(chrome.eval("legatoReport.timeline.search.total") == hits);
  CHECK(chrome.eval("document.getElementById('hits').textContent") ==
        analysis::grouped(hits) + " hits");
  // The last hit lies in the last chunk, not loaded: going back from the
  // first hit (hit ordinal -1) opens it.
  chrome.eval("legatoReport.panels.hitIndex = legatoReport.timeline.search.total - 2; 0");
  chrome.eval("legatoReport.panels.nextHit()");
  uint32_t last = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const uint32_t op = p.items[i].op;
    if (op != analysis::kNone && p.str(p.operations[op].provenance) == line) last = i;
  }
  REQUIRE(chrome.wait_for(
      "document.getElementById('popup').dataset.item === '" + std::to_string(last) + "'", 5000));
  CHECK(chrome.eval("document.getElementById('hits').textContent") ==
        analysis::grouped(hits) + " of " + analysis::grouped(hits));
  CHECK_THAT(chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
             Catch::Contains(line));
}

TEST_CASE("a report missing a detail file names it and draws the rest", "[browser][scale]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const BigReport& r = big();
  std::filesystem::copy(r.dir.file("report"), dir.file("report"),
                        std::filesystem::copy_options::recursive);
  const std::string data = std::filesystem::path(r.info.data_dir).filename().string();
  // The chunk holding the middle of c0's items goes missing.
  const analysis::Profile& p = r.p;
  uint32_t c0 = 0;
  while (p.lanes[c0].name != "c0") ++c0;
  const analysis::Row& row = p.lanes[c0].rows[0];
  const uint32_t item = (row.begin + row.end) / 2, chunk = item / html::kChunkItems;
  const std::string gone = data + "/c" + std::to_string(chunk) + ".js";
  REQUIRE(std::filesystem::remove(dir.file("report/" + gone)));
  REQUIRE(legato::testing::open_report(chrome, dir.file("report/index.html")));
  const double s = static_cast<double>(p.items[item].start),
               e = static_cast<double>(p.items[item].stop());
  chrome.eval(show(s - 6 * (e - s), e + 6 * (e - s)));
  const std::string status = chrome.eval("document.getElementById('status').textContent");
  CHECK_THAT(status, Catch::Contains(gone) && Catch::Contains("keep the report's " + data));
  CHECK(chrome.eval("document.body.dataset.state") == "ready");
  // The row is drawn from its fold blocks; the others from their items.
  CHECK(chrome.eval("legatoReport.timeline.drawnBy.get(" + std::to_string(c0) + ")") == "blocks");
  CHECK(chrome.eval("[...legatoReport.timeline.drawnBy.values()].filter((v) => v === 'items')"
                    ".length > 0") == true);
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("Firefox loads a big report's detail files from file:// as it zooms",
          "[browser][scale]") {
  Firefox firefox;
  if (!firefox.available()) {
    WARN("SKIPPED: headless firefox could not start (install firefox-esr)");
    return;
  }
  const BigReport& r = big();
  const analysis::Profile& p = r.p;
  firefox.open_file(r.info.path);
  REQUIRE(firefox.wait_for("['ready', 'error'].includes(document.body.dataset.state)", 30000));
  REQUIRE(firefox.eval("document.body.dataset.state") == "ready");
  REQUIRE(firefox.eval("legatoReport.settled()") == true);
  uint32_t c1 = 0;
  while (p.lanes[c1].name != "c1") ++c1;
  const analysis::Row& row = p.lanes[c1].rows[0];
  const uint32_t item = row.begin + (row.end - row.begin) / 3;
  const double s = static_cast<double>(p.items[item].start),
               e = static_cast<double>(p.items[item].stop());
  firefox.eval("legatoReport.timeline.setWindow(" + std::to_string(s - 6 * (e - s)) + ", " +
               std::to_string(e + 6 * (e - s)) + "); 0");
  REQUIRE(firefox.eval("legatoReport.settled()") == true);
  firefox.eval("legatoReport.timeline.paint(); 0");
  CHECK(firefox.eval("legatoReport.timeline.drawnBy.get(" + std::to_string(c1) + ")") == "items");
  CHECK(firefox.eval("legatoReport.profile.start(" + std::to_string(item) + ")") ==
        static_cast<double>(p.items[item].start));
  CHECK(firefox.eval("document.getElementById('status').textContent") == "");
  TempDir shots;
  firefox.screenshot(shots.file("firefox.png"));
  if (const char* keep = std::getenv("LEGATO_KEEP_SCREENSHOT"))
    std::filesystem::copy_file(shots.file("firefox.png"), keep,
                               std::filesystem::copy_options::overwrite_existing);
}
