// Profile model and report benchmark: loads synthetic runs of 1 M and 10 M
// records (run_trace.hpp) and writes the report of a 1 M-task run, then
// prints `RESULT <metric> <value> <unit>` lines. Targets (bench/README.md):
// >= 10 M records/s loaded, <= 32 bytes per record in memory, every
// findings rule on the 10 M-record run in <= 1 s and less than its load, a
// 1 M-task report <= 10 MB that paints in headless Chromium in <= 2 s.
// Then the report's curve: for runs of each size given (1 and 10 M records
// over --ranks ranks by default), the archive's time and bytes and, in
// headless Chromium, the page's first paint, JS heap, slowest frame at
// five zooms and the time its detail takes to arrive where it zooms.
//
// Baseline measured in the same run: reading the same files without building
// the model (the format decoder alone), so load_over_read says what the
// model's merge, sort and index steps add.
//
//   bench_analysis [--large RECORDS] [--ranks N] [--no-browser]
//                  [--report-records N,N,...]   (the large run: 10 M records
//   over 4 ranks by default; --report-records 100000000 alone: the 100 M
//   point of the curve, minutes)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/findings.hpp"
#include "analysis/stats.hpp"
#include "browser/chromium.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "result.hpp"
#include "run_trace.hpp"

using namespace legato;
using Clock = std::chrono::steady_clock;

namespace {

using legato::bench::result;

template <class F>
double seconds(F&& f) {
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Best of `reps` runs, in seconds.
template <class F>
double best_of(int reps, F&& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) best = std::min(best, seconds(f));
  return best;
}

void load_case(const std::string& dir, const std::string& label, uint64_t records, int ranks) {
  const bench::RunTrace run =
      bench::write_run_trace(dir + "/" + label, bench::ops_for_records(records, ranks), ranks);
  std::printf("# %s: %d rank(s), %llu records, %.1f MB on disk\n", label.c_str(), ranks,
              static_cast<unsigned long long>(run.records), run.bytes / 1e6);
  const double read_s = best_of(3, [&] {
    for (const auto& f : run.files) (void)legato::load::read_file(f);
  });
  load::LoadOptions one;
  one.threads = 1;
  const double load1_s = best_of(3, [&] { (void)load::load_profile(run.files, one); });
  analysis::Profile p;
  const double load_s = best_of(3, [&] { p = load::load_profile(run.files); });
  const double n = static_cast<double>(p.records);
  result("load_records_per_s_" + label, n / load_s, "records/s");
  result("load_records_per_s_1thread_" + label, n / load1_s, "records/s");
  result("read_records_per_s_1thread_" + label, n / read_s, "records/s");
  result("load_over_read_" + label, load1_s / read_s, "x");
  result("bytes_per_record_in_memory_" + label, static_cast<double>(p.memory_bytes()) / n, "B");
  // What legate_prof stats computes after the load.
  const double stats_s = best_of(3, [&] {
    (void)analysis::utilization_summary(p);
    (void)analysis::kind_stats(p);
  });
  result("stats_ms_" + label, stats_s * 1e3, "ms");
  size_t found = 0;
  const double find_s = best_of(3, [&] { found = analysis::find(p).findings.size(); });
  std::printf("# %s: %zu findings\n", label.c_str(), found);
  result("findings_ms_" + label, find_s * 1e3, "ms");
  result("findings_over_load_" + label, find_s / load_s, "x");
  for (const auto& w : p.warnings) std::printf("# warning: %s\n", w.c_str());
}

// Opens a report in chrome: its first paint in ms, or -1 (said) when it did
// not become ready within timeout_ms.
double first_paint(testing::Chromium& chrome, const std::string& path, int timeout_ms) {
  chrome.open_file(path);
  if (!chrome.wait_for("document.body.dataset.state === 'ready'", timeout_ms)) {
    std::printf("# the report did not become ready in %d s\n", timeout_ms / 1000);
    return -1;
  }
  return chrome.eval("legatoReport.firstPaintMs").get<double>();
}

void report_case(const std::string& dir, bool browser) {
  const bench::RunTrace run =
      bench::write_run_trace(dir + "/report", bench::ops_for_tasks(1'000'000, 1), 1);
  const analysis::Profile p = load::load_profile(run.files);
  std::printf("# report: %llu tasks, %llu records\n", static_cast<unsigned long long>(run.tasks),
              static_cast<unsigned long long>(p.records));
  html::ReportInfo info;
  const double write_s = seconds([&] { info = html::write_report(p, dir + "/report/out"); });
  // The whole folder: index.html and its detail files.
  result("report_bytes_1m", static_cast<double>(info.total_bytes), "B");
  result("report_bytes_per_task_1m", static_cast<double>(info.total_bytes) / run.tasks, "B");
  result("report_index_bytes_1m", static_cast<double>(info.bytes), "B");
  result("report_write_s_1m", write_s, "s");
  if (!browser) return;
  testing::Chromium chrome;
  if (!chrome.available()) {
    std::printf("# first_paint_ms_1m not measured: headless chromium could not start\n");
    return;
  }
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const double ms = first_paint(chrome, info.path, 60000);
    if (ms < 0) return;
    best = std::min(best, ms);
  }
  result("first_paint_ms_1m", best, "ms");
}

// One point of the report's curve: a run of `records` records over `ranks`
// ranks archived (load and report, as `legate_prof archive`) and opened.
void report_point(const std::string& dir, uint64_t records, int ranks, bool browser) {
  const std::string label = records >= 1'000'000 && records % 1'000'000 == 0
                                ? std::to_string(records / 1'000'000) + "m_records"
                                : std::to_string(records) + "_records";
  const bench::RunTrace run = bench::write_run_trace(dir + "/curve_" + label,
                                                     bench::ops_for_records(records, ranks), ranks);
  html::ReportInfo info;
  const double archive_s = seconds([&] {
    const analysis::Profile p = load::load_profile(run.files);
    info = html::write_report(p, dir + "/curve_" + label + "/report");
  });
  std::printf("# report of %llu records over %d ranks: %zu detail files\n",
              static_cast<unsigned long long>(run.records), ranks, info.files);
  result("archive_s_" + label, archive_s, "s");
  result("report_bytes_" + label, static_cast<double>(info.total_bytes), "B");
  result("report_index_bytes_" + label, static_cast<double>(info.bytes), "B");
  if (browser) {
    testing::Chromium chrome;
    if (!chrome.available()) {
      std::printf("# report_first_paint_ms_%s not measured: chromium could not start\n",
                  label.c_str());
    } else {
      double paint = 1e30, heap = 0, frame = 0, detail = 0;
      for (int rep = 0; rep < 3; ++rep) {
        const double ms = first_paint(chrome, info.path, 120000);
        if (ms < 0) break;
        paint = std::min(paint, ms);
        if (rep > 0) continue;
        const auto fw = chrome.eval(R"((async () => {
            const t = legatoReport.timeline, p = legatoReport.profile, span = p.run.stop - p.run.start;
            let worst = 0, wait = 0;
            for (const part of [1, 0.1, 0.01, 0.001, 0.0001]) {
              const c = p.run.start + span * 0.52, a = performance.now();
              t.setWindow(c - span * part / 2, c + span * part / 2);
              await legatoReport.settled();
              wait = Math.max(wait, performance.now() - a);
              const b = performance.now();
              for (let k = 0; k < 10; ++k) t.paint();
              worst = Math.max(worst, (performance.now() - b) / 10);
            }
            return [worst, wait, performance.memory.usedJSHeapSize];
          })())");
        frame = fw[0].get<double>();
        detail = fw[1].get<double>();
        heap = fw[2].get<double>() / (1 << 20);
      }
      if (paint < 1e30) {
        result("report_first_paint_ms_" + label, paint, "ms");
        result("report_frame_ms_" + label, frame, "ms");
        result("report_detail_ms_" + label, detail, "ms");
        result("report_heap_mb_" + label, heap, "MB");
      }
    }
  }
  std::filesystem::remove_all(dir + "/curve_" + label);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t large = 10'000'000;
  int ranks = 4;
  bool browser = true;
  std::vector<uint64_t> curve = {1'000'000, 10'000'000};
  bool curve_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--large") == 0 && i + 1 < argc) {
      large = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      ranks = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--no-browser") == 0) {
      browser = false;
    } else if (std::strcmp(argv[i], "--report-records") == 0 && i + 1 < argc) {
      curve.clear();
      curve_only = true;
      for (const char* at = argv[++i]; *at;) {
        char* end = nullptr;
        const uint64_t n = std::strtoull(at, &end, 10);
        if (end == at || n == 0) {
          std::fprintf(stderr,
                       "bench_analysis: --report-records takes counts like 1000000,10000000\n");
          return 2;
        }
        curve.push_back(n);
        at = *end == ',' ? end + 1 : end;
      }
    } else {
      std::fprintf(stderr,
                   "usage: bench_analysis [--large RECORDS] [--ranks N] [--no-browser] "
                   "[--report-records N,N,...]\n");
      return 2;
    }
  }
  const std::string dir =
      (std::filesystem::temp_directory_path() / "legato_bench_analysis").string();
  std::filesystem::remove_all(dir);
  std::printf("# %u hardware threads\n", std::thread::hardware_concurrency());
  if (!curve_only) {
    load_case(dir, "1m", 1'000'000, 1);
    load_case(dir, "10m", large, ranks);
    report_case(dir, browser);
  }
  for (const uint64_t n : curve) report_point(dir, n, ranks, browser);
  std::filesystem::remove_all(dir);
  return 0;
}
