// Folded items in the report, in headless Chromium: at every zoom where
// the page draws a lane's items (their chunks loaded) it folds the same
// items as the model (visible_boxes) and draws each folded box's columns
// (their items, busy time and lead) and its tooltip's mix (leading) exactly
// as analysis/fold_summary answers them; zoomed out further, where it draws
// rows from their fold blocks, the bars add up to the rows' busy time and
// the phases of a lane show in their tasks' colours. The trace is written
// through the writer API (nothing ran). Skipped with a message when
// Chromium cannot start.
#include <random>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/fold_summary.hpp"
#include "browser/chromium.hpp"
#include "browser/report_page.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using nlohmann::json;
using trace::testing::TempDir;

namespace {

// Two CPUs of 30000 tiny tasks each in phases of four kinds (runs of one
// kind, then mixes; some zero-length), with a long task now and then.
void write_phased_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const uint32_t cpus[] = {t.processor(trace::ProcKind::Cpu, 0, "c0"),
                           t.processor(trace::ProcKind::Cpu, 1, "c1")};
  const uint32_t kinds[] = {t.task_kind("gemm"), t.task_kind("axpy"), t.task_kind("dot"),
                            t.task_kind("fill")};
  std::mt19937_64 rng(17);
  for (const uint32_t cpu : cpus) {
    trace::Time at = 0;
    for (int i = 0; i < 30000; ++i) {
      const int phase = (i / 5000) % 4;
      const uint32_t k = phase < 2 ? kinds[phase] : kinds[rng() % (phase == 2 ? 2 : 4)];
      const trace::Time d = rng() % 200 == 0 ? 40000 : static_cast<trace::Time>(rng() % 30);
      t.task(cpu, k, at, at + d);
      at += d + 1 + static_cast<trace::Time>(rng() % 40);
    }
  }
  t.finish();
}

// The model's folded boxes of every lane and their columns and mixes, for
// the window [t0, t1] drawn `width` pixels wide: [[first, count, columns,
// leading], ...] with columns [[first, count, busy, lead, start], ...] and
// leading [[item, share], ...].
json model_folds(const analysis::Profile& p, double t0, double t1, double width,
                 const json& lanes) {
  json out = json::array();
  analysis::Window w{static_cast<analysis::Time>(std::floor(t0)),
                     static_cast<analysis::Time>(std::ceil(t1)), (t1 - t0) / width, 3};
  for (const uint32_t l : lanes) {
    std::vector<analysis::DrawBox> boxes;
    analysis::visible_boxes(p, l, w, boxes);
    for (const auto& b : boxes) {
      if (b.item != analysis::kNone) continue;
      std::vector<analysis::FoldColumn> cols;
      analysis::fold_columns(p, b, t0, 3 * w.ns_per_px, cols);
      json columns = json::array(), leading = json::array();
      for (const auto& c : cols) columns.push_back({c.first, c.count, c.busy, c.lead, c.start});
      for (const auto& s : analysis::leading(p, b.first, b.first + b.count, 3))
        leading.push_back({s.item, s.share});
      out.push_back({b.first, b.count, columns, leading});
    }
  }
  return out;
}

// Shows [t0, t1] and waits until what it asked for has loaded and been drawn.
std::string show(double t0, double t1) {
  return "(async () => { const t = legatoReport.timeline; t.t0 = " + std::to_string(t0) +
         "; t.t1 = " + std::to_string(t1) +
         "; t.paint(); await legatoReport.settled(); t.paint(); return 0; })()";
}

// The lanes the page drew item by item, and those it drew from fold blocks.
const char* kDrawnBy = R"((() => {
  const by = legatoReport.timeline.drawnBy, out = {items: [], blocks: []};
  for (const [l, how] of [...by].sort((a, b) => a[0] - b[0])) out[how].push(l);
  return out;
})())";

// The same as the page answers it after drawing [t0, t1].
const char* kPageFolds = R"((() => {
  const t = legatoReport.timeline, p = t.p, width = 3 * (t.t1 - t.t0) / t.w;
  return t.hitBoxes.filter((b) => b.count > 1).sort((a, b) => a.first - b.first).map((b) => [
    b.first, b.count,
    p.foldColumns(b.first, b.count, b.stop, t.t0, width).map((c) => [c.first, c.count, c.busy, c.lead, c.start]),
    p.leading(b.first, b.first + b.count, 3).map((s) => [s.item, s.share])]);
})())";

}  // namespace

TEST_CASE("the report folds and summarises items as the model does", "[browser][fold]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  write_phased_trace(dir.file("legate_0.prof"));
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  html::write_report(p, dir.file("report"));
  REQUIRE(legato::testing::open_report(chrome, dir.file("report/index.html")));
  const double width = chrome.eval("legatoReport.timeline.w").get<double>();
  REQUIRE(width > 100);
  const double span = static_cast<double>(p.stop - p.start);
  size_t boxes = 0, columns = 0;
  // The whole run, then windows ever deeper in (the last ones: few items folded).
  for (const double part : {0.3, 0.05, 0.01, 0.002, 0.0004}) {
    const double t0 = static_cast<double>(p.start) + span * (1 - part) * 0.37,
                 t1 = t0 + span * part;
    INFO("window " << t0 << " .. " << t1);
    chrome.eval(show(t0, t1));
    const double page_t0 = chrome.eval("legatoReport.timeline.t0").get<double>();
    const double page_t1 = chrome.eval("legatoReport.timeline.t1").get<double>();
    const json drawn = chrome.eval(kDrawnBy);
    // 9000 of a row's items or fewer in view: each row drawn item by item.
    CHECK(drawn["blocks"].empty());
    const json page = chrome.eval(kPageFolds),
               model = model_folds(p, page_t0, page_t1, width, drawn["items"]);
    REQUIRE(page.size() == model.size());
    for (size_t b = 0; b < model.size(); ++b) {
      INFO("box " << model[b][0] << " of " << model[b][1] << " items");
      REQUIRE(page[b][0] == model[b][0]);
      REQUIRE(page[b][1] == model[b][1]);
      const json &pc = page[b][2], &mc = model[b][2];
      REQUIRE(pc.size() == mc.size());
      for (size_t c = 0; c < mc.size(); ++c) {
        for (int f = 0; f < 4; ++f) CHECK(pc[c][f].get<double>() == mc[c][f].get<double>());
        CHECK(pc[c][4].get<double>() == Approx(mc[c][4].get<double>()).margin(1e-3));
      }
      const json &pl = page[b][3], &ml = model[b][3];
      REQUIRE(pl.size() == ml.size());
      for (size_t s = 0; s < ml.size(); ++s) {
        CHECK(pl[s][0] == ml[s][0]);
        CHECK(pl[s][1].get<double>() == Approx(ml[s][1].get<double>()));
      }
      columns += mc.size();
    }
    boxes += model.size();
  }
  CHECK(boxes > 20);
  CHECK(columns > 300);
  // The whole run (30000 items a row, more than the page loads for its
  // width): both CPUs drawn from their fold blocks. Each row's bars add up
  // to its busy time; c0's first phase (gemm alone) shows in gemm's colour,
  // and hovering it lists gemm alone.
  chrome.eval(show(static_cast<double>(p.start), static_cast<double>(p.stop)));
  const json drawn = chrome.eval(kDrawnBy);
  REQUIRE(drawn["blocks"].size() == 2);
  const json rows = chrome.eval(R"((() => {
    const t = legatoReport.timeline, p = t.p, width = 3 * (t.t1 - t.t0) / t.w;
    return p.lanes.filter((l) => l.rows.length).map((l) => {
      const o = p.overview(l.rowRanges[0], t.t0, t.t1, t.t0, width, Math.ceil(t.w / 3) + 1);
      return {busy: o.busy.reduce((a, b) => a + b, 0), items: o.items.reduce((a, b) => a + b, 0)};
    });
  })())");
  for (uint32_t l = 0, r = 0; l < p.lanes.size(); ++l) {
    if (p.lanes[l].rows.empty()) continue;
    const analysis::Row& row = p.lanes[l].rows[0];
    INFO("lane " << p.lanes[l].name);
    CHECK(rows[r]["busy"].get<double>() ==
          Approx(static_cast<double>(p.busy_between(row.begin, row.end))).epsilon(1e-9));
    CHECK(rows[r]["items"].get<double>() == Approx(row.end - row.begin).epsilon(1e-9));
    ++r;
  }
  // c0's row: 5 % of its span in, within its first phase.
  const json first = chrome.eval(R"((() => {
    const t = legatoReport.timeline, p = t.p, row = p.lanes[0].rowRanges[0];
    const b = t.hitBoxes.filter((h) => h.overview && h.y === t.hitBoxes.filter((x) => x.overview)[0].y)[0];
    const r = t.canvas.getBoundingClientRect();
    return {x: r.left + t.x(row[2] + 0.05 * (row[3] - row[2])), y: r.top + b.y + b.h - 1};
  })())");
  chrome.mouse_move(first["x"].get<double>(), first["y"].get<double>());
  REQUIRE(chrome.wait_for("!document.getElementById('tooltip').hidden"));
  const std::string tip = chrome.eval("document.getElementById('tooltip').textContent");
  CHECK_THAT(tip, Catch::Contains("items folded"));
  CHECK_THAT(tip, Catch::Contains("100%  gemm (task)"));
  chrome.screenshot(dir.file("folds.png"));
  if (const char* keep = std::getenv("LEGATO_KEEP_SCREENSHOT"))
    std::filesystem::copy_file(dir.file("folds.png"), keep,
                               std::filesystem::copy_options::overwrite_existing);
}
