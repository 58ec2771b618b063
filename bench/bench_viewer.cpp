// Viewer benchmark: loads a synthetic 10 M-record, 4-rank run (run_trace.hpp)
// into the viewer with a headless Dear ImGui context (everything a frame
// does on the CPU: model queries, layout, draw lists; no GPU) and prints
// `RESULT <metric> <value> <unit>` lines:
//   first_frame_ms_10m   start to the first frame showing the lanes
//   settled_ms_10m       start until every avg line is computed too
//   frame_ms_zoomed_out  median CPU time per frame, whole run shown
//   frame_ms_mid         ... a window of 1/100 of the run
//   frame_ms_deep        ... a 50 us window (single tasks visible)
// Frames pan a little each time, so nothing is reused from the frame before.
// Targets (bench/README.md): <= 4 ms per frame at every zoom, first frame
// <= 1.5 s. Baseline in the same run: an empty frame (ImGui alone).
//
//   bench_viewer [--records N] [--ranks N] [--frames N] [--keep DIR]   (--keep: write
//   the run's files into DIR and leave them, e.g. to open them in the window)
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "result.hpp"
#include "run_trace.hpp"
#include "viewer/headless.hpp"

using namespace legato;
using Clock = std::chrono::steady_clock;

namespace {

using legato::bench::result;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Median CPU ms per frame over `frames` frames around [t0, t0 + span).
double frame_ms(viewer::HeadlessContext& ctx, viewer::App& app, double t0, double span, int frames,
                size_t* boxes) {
  app.camera().set(t0, t0 + span, false);
  ctx.frame(app);
  std::vector<double> ms;
  for (int f = 0; f < frames; ++f) {
    app.camera().pan((f / 20) % 2 ? -0.01 : 0.01);
    const double a = thread_cpu_ms();
    ctx.frame(app);
    ms.push_back(thread_cpu_ms() - a);
  }
  *boxes = app.view().boxes_drawn();
  return median(ms);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t records = 10'000'000;
  int frames = 200;
  std::string keep;
  int ranks = 4;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--records") == 0 && i + 1 < argc) {
      records = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      ranks = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--keep") == 0 && i + 1 < argc) {
      keep = argv[++i];
    } else if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
      frames = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr,
                   "usage: bench_viewer [--records N] [--ranks N] [--frames N] [--keep DIR]\n");
      return 2;
    }
  }
  const std::string dir =
      keep.empty() ? (std::filesystem::temp_directory_path() / "legato_bench_viewer").string()
                   : keep;
  if (keep.empty()) std::filesystem::remove_all(dir);
  const bench::RunTrace run =
      bench::write_run_trace(dir, bench::ops_for_records(records, ranks), ranks);
  std::printf("# %u hardware threads; %d ranks, %llu records, %.1f MB on disk; 1920x1080\n",
              std::thread::hardware_concurrency(), ranks,
              static_cast<unsigned long long>(run.records), run.bytes / 1e6);

  viewer::HeadlessContext ctx(1920, 1080);
  {
    // Baseline: a frame with nothing open (the open box).
    viewer::App empty(viewer::ViewOptions{});
    std::vector<double> ms;
    for (int f = 0; f < 50; ++f) {
      const double a = thread_cpu_ms();
      ctx.frame(empty);
      ms.push_back(thread_cpu_ms() - a);
    }
    result("frame_ms_empty", median(ms), "ms");
  }
  viewer::ViewOptions options;
  options.files = run.files;
  const auto start = Clock::now();
  viewer::App app(options);
  app.wait_loaded();
  const double loaded = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ctx.frame(app);
  const double first = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const size_t first_boxes = app.view().boxes_drawn();
  app.wait_settled();
  ctx.frame(app);
  const double settled = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  result("first_frame_ms_10m", first, "ms");
  result("settled_ms_10m", settled, "ms");
  // The whole process at its peak (writing the run's files took less), per record.
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  result("peak_bytes_per_record",
         static_cast<double>(usage.ru_maxrss) * 1024 / static_cast<double>(run.records), "B");
  std::printf("# loaded after %.0f ms; the first frame drew %zu boxes\n", loaded, first_boxes);

  const analysis::Profile& p = *app.profile();
  const double t0 = static_cast<double>(p.start), span = static_cast<double>(p.stop - p.start);
  size_t boxes = 0;
  result("frame_ms_zoomed_out", frame_ms(ctx, app, t0, span, frames, &boxes), "ms");
  std::printf("# zoomed out: %zu boxes per frame\n", boxes);
  result("frame_ms_mid", frame_ms(ctx, app, t0 + span / 2, span / 100, frames, &boxes), "ms");
  std::printf("# mid: %zu boxes per frame\n", boxes);
  result("frame_ms_deep", frame_ms(ctx, app, t0 + span / 2, 50'000, frames, &boxes), "ms");
  std::printf("# deep: %zu boxes per frame\n", boxes);
  if (keep.empty()) std::filesystem::remove_all(dir);
  return 0;
}
