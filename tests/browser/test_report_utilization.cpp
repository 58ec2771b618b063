// The report's avg lines against the model's (analysis/utilization): over
// the whole run the page reads the grid the index holds, and zoomed in finer
// than a slice it sums the loaded items itself; both give, bucket by bucket,
// the model's exact averages (UtilizationCurve::average). The trace (written
// through the writer API; nothing ran) has two nodes, CPUs whose tasks
// overlap (two rows), a task that waits, instances in a sized memory and
// copies. Skipped with a message when Chromium cannot start.
#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/utilization.hpp"
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

void write_rank(const std::string& path, uint32_t rank) {
  analysis::testing::SyntheticTrace t(path, rank, 2);
  const uint32_t c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const uint32_t c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const uint32_t io = t.processor(trace::ProcKind::Io, 2, "io0");
  const uint32_t mem = t.memory(trace::MemKind::System, 1 << 20, "sysmem");
  const uint32_t chan = t.channel(mem, mem, "sysmem to sysmem");
  const uint32_t kind = t.task_kind("work");
  const trace::Uid top = t.task(io, t.task_kind("top"), 0, 4'000'000);
  for (int k = 0; k < 400; ++k) {
    const trace::Time at = 5000 + k * 9000 + rank * 1300;
    // c0: back to back; c1: each task overlaps the next (two rows).
    t.task(c0, kind, at, at + 4000 + (k * 37) % 3000);
    t.task(c1, kind, at, at + 12000 + (k * 53) % 5000);
    if (k % 3 == 0) t.instance(mem, 4096 + k * 64, "tmp", at, at + 200, at + 30000);
    if (k % 5 == 0) t.copy(chan, 1 << 16, at + 100, at + 2100);
    if (k % 7 == 0) t.wait(top, at, at + 3000, at + 3500);
  }
  t.finish();
}

// Every avg line the page draws: [rank (-1: all nodes), kind, values over
// [t0, t1) in n buckets], once what the lines ask for has loaded.
json page_lines(Chromium& chrome, double t0, double t1, int n) {
  const std::string window =
      std::to_string(t0) + ", " + std::to_string(t1) + ", " + std::to_string(n);
  chrome.eval(
      "(async () => { const t = legatoReport.timeline;"
      "for (const r of t.rows) if (r.type === 'avg') t.utilization(r).sample(" +
      window + ", 1e9); await legatoReport.settled(); return 0; })()");
  return chrome.eval(
      "(() => { const t = legatoReport.timeline; return t.rows"
      ".filter((r) => r.type === 'avg').map((r) => [r.rank, r.kind, "
      "Array.from(t.utilization(r).sample(" +
      window + ", 1e9))]); })()");
}

}  // namespace

TEST_CASE("the report's avg lines are the model's at every zoom", "[browser][utilization]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  write_rank(dir.file("legate_0.prof"), 0);
  write_rank(dir.file("legate_1.prof"), 1);
  const analysis::Profile p =
      load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  REQUIRE(p.nodes.size() == 2);
  const auto info = html::write_report(p, dir.file("report"));
  REQUIRE(legato::testing::open_report(chrome, info.path));
  // Every memory and kind unfolded: the page keeps a line per group drawn.
  chrome.eval(
      "document.querySelectorAll('.avg-label').forEach((a) => {"
      "if (a.textContent.startsWith('▸')) a.click(); }); 0");
  const double start = static_cast<double>(p.start), span = static_cast<double>(p.stop - p.start);
  struct Zoom {
    double from, part;
    int n;
  };
  // The whole run in buckets of 4 slices of the index's grid, then windows
  // finer than a slice (the page sums the items).
  const Zoom zooms[] = {{0, 1, 1024}, {0.3, 1.0 / 5000, 300}, {0.61, 1.0 / 20000, 200}};
  size_t lines = 0;
  for (const Zoom& z : zooms) {
    const double t0 = start + span * z.from, t1 = t0 + span * z.part;
    INFO("window " << t0 << " .. " << t1 << " in " << z.n);
    const json page = page_lines(chrome, t0, t1, z.n);
    REQUIRE(page.size() >= 8);
    for (const auto& line : page) {
      const int64_t rank = line[0];
      const auto kind = static_cast<analysis::LaneKind>(line[1].get<int>());
      INFO(analysis::to_string(kind) << " on " << rank);
      const analysis::UtilizationCurve curve = analysis::utilization(
          p, kind, rank < 0 ? analysis::kAllNodes : static_cast<uint32_t>(rank));
      REQUIRE(line[2].size() == static_cast<size_t>(z.n));
      for (int k = 0; k < z.n; ++k) {
        const double a = t0 + (t1 - t0) * k / z.n, b = t0 + (t1 - t0) * (k + 1) / z.n;
        const double model = curve.average(static_cast<analysis::Time>(std::llround(a)),
                                           static_cast<analysis::Time>(std::llround(b)));
        INFO("bucket " << k);
        CHECK(line[2][k].get<double>() == Approx(model).margin(z.part == 1 ? 2e-3 : 1e-3));
      }
      ++lines;
    }
  }
  CHECK(lines >= 24);
}
