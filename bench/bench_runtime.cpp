// Runtime benchmark: empty point tasks through the whole pipeline
// (dependence analysis and mapping on the utility threads, execution on the
// CPUs), with and without --profile, in one run. Each task reads one element
// of a small store, so the analysis and the mapping have real work to do.
// Prints `RESULT <metric> <value> <unit>` lines; figures in bench/README.md.
//
//   bench_runtime [TASKS [REPEATS]]
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "runtime/legato.hpp"

using namespace legato::rt;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Cost {
  double wall;  // seconds
  double cpu;   // seconds of CPU time, all threads
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// What running `tasks` empty tasks under the given LEGATE_CONFIG costs.
Cost run(const std::string& config, int64_t tasks) {
  setenv("LEGATE_CONFIG", config.c_str(), 1);
  start();
  const TaskId empty = register_task("empty", [](TaskContext&) {});
  const TaskId zero = register_task(
      "zero", [](TaskContext& ctx) { std::fill_n(ctx.data<double>(0), ctx.range(0).size(), 0.0); });
  // One instance holds the whole store; the tasks read single elements of it.
  Store s = create_store(1024, DType::F64, "s");
  TaskLauncher(zero, 1024).add_aligned(s, 0, Privilege::Write).execute();
  fence();
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  for (int64_t i = 0; i < tasks; ++i)
    TaskLauncher(empty, 1).add_aligned(s, i % 1024, Privilege::Read).execute();
  fence();
  Cost cost{std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0};
  s = Store();
  finish();  // the trace is written out within the measured CPU time
  cost.cpu = cpu_seconds() - c0;
  return cost;
}

}  // namespace

int main(int argc, char** argv) {
  const legato::bench::CountArgs args(
      argc, argv, "bench_runtime [TASKS] [REPEATS]",
      "Empty-task throughput and the profiling overhead (TASKS, default 200000; REPEATS, "
      "default 5).");
  const auto tasks = static_cast<int64_t>(args.get(1, 200'000));
  const int repeats = static_cast<int>(args.get(2, 5));
  const auto dir =
      std::filesystem::temp_directory_path() / ("legato_bench_runtime_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  // Recording only: the end-of-run report is timed by bench_arrays.
  const std::string profile = " --profile --profile-report 0 --logdir " + dir.string();
  std::vector<double> wall1, wall2, overhead_wall, overhead_cpu;
  for (int r = 0; r < repeats; ++r) {
    // Each profiled run right after its plain twin: drift touches both alike,
    // and the overhead is the median of the pairs' ratios.
    for (const char* cpus : {"--cpus 1 --utility 2", "--cpus 2 --utility 2"}) {
      const Cost plain = run(cpus, tasks);
      const Cost prof = run(std::string(cpus) + profile, tasks);
      (std::string(cpus) == "--cpus 1 --utility 2" ? wall1 : wall2).push_back(plain.wall);
      overhead_wall.push_back((prof.wall / plain.wall - 1) * 100);
      overhead_cpu.push_back((prof.cpu / plain.cpu - 1) * 100);
    }
  }
  const double n = static_cast<double>(tasks);
  std::printf("%lld empty tasks per run, %d runs of each, %u hardware threads\n",
              static_cast<long long>(tasks), repeats, std::thread::hardware_concurrency());
  std::printf("RESULT empty_tasks_per_s_cpus1 %.4g tasks/s\n", n / median(wall1));
  std::printf("RESULT empty_tasks_per_s_cpus2 %.4g tasks/s\n", n / median(wall2));
  std::printf("RESULT us_per_task_cpus1 %.3g us\n", median(wall1) / n * 1e6);
  std::printf("RESULT profile_overhead_pct %.3g %%\n", median(overhead_wall));
  std::printf("RESULT profile_cpu_overhead_pct %.3g %%\n", median(overhead_cpu));
  std::filesystem::remove_all(dir);
  return 0;
}
