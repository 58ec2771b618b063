// Profile model and report benchmark: loads synthetic runs of 1 M and 10 M
// records (run_trace.hpp) and writes the report of a 1 M-task run, then
// prints `RESULT <metric> <value> <unit>` lines. Targets (bench/README.md):
// >= 10 M records/s loaded, <= 32 bytes per record in memory, every
// findings rule on the 10 M-record run in <= 1 s and less than its load, a
// 1 M-task report <= 10 MB that paints in headless Chromium in <= 2 s.
//
// Baseline measured in the same run: reading the same files without building
// the model (the format decoder alone), so load_over_read says what the
// model's merge, sort and index steps add.
//
//   bench_analysis [--large RECORDS] [--ranks N] [--no-browser]   (the large run: 10 M
//   records over 4 ranks by default)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

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

void report_case(const std::string& dir, bool browser) {
  const bench::RunTrace run =
      bench::write_run_trace(dir + "/report", bench::ops_for_tasks(1'000'000, 1), 1);
  const analysis::Profile p = load::load_profile(run.files);
  std::printf("# report: %llu tasks, %llu records\n", static_cast<unsigned long long>(run.tasks),
              static_cast<unsigned long long>(p.records));
  html::ReportInfo info;
  const double write_s = seconds([&] { info = html::write_report(p, dir + "/report/out"); });
  result("report_bytes_1m", static_cast<double>(info.bytes), "B");
  result("report_bytes_per_task_1m", static_cast<double>(info.bytes) / run.tasks, "B");
  result("report_write_s_1m", write_s, "s");
  if (!browser) return;
  testing::Chromium chrome;
  if (!chrome.available()) {
    std::printf("# first_paint_ms_1m not measured: headless chromium could not start\n");
    return;
  }
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    chrome.open_file(info.path);
    if (!chrome.wait_for("document.body.dataset.state === 'ready'", 60000)) {
      std::printf("# the report did not become ready in 60 s\n");
      return;
    }
    best = std::min(best, chrome.eval("legatoReport.firstPaintMs").get<double>());
  }
  result("first_paint_ms_1m", best, "ms");
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t large = 10'000'000;
  int ranks = 4;
  bool browser = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--large") == 0 && i + 1 < argc) {
      large = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      ranks = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--no-browser") == 0) {
      browser = false;
    } else {
      std::fprintf(stderr, "usage: bench_analysis [--large RECORDS] [--ranks N] [--no-browser]\n");
      return 2;
    }
  }
  const std::string dir =
      (std::filesystem::temp_directory_path() / "legato_bench_analysis").string();
  std::filesystem::remove_all(dir);
  std::printf("# %u hardware threads\n", std::thread::hardware_concurrency());
  load_case(dir, "1m", 1'000'000, 1);
  load_case(dir, "10m", large, ranks);
  report_case(dir, browser);
  std::filesystem::remove_all(dir);
  return 0;
}
