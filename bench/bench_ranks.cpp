// Multi-rank benchmark: how well the ranks of a run share one time axis.
// Runs vectorized_update through `legate --ranks-per-node R --launcher
// mpirun` (R = 2 and 4, on this one machine, oversubscribed when R exceeds
// the cores) several times and reads each rank's clock_alignment metadata.
// On one machine every rank reads the same CLOCK_MONOTONIC, so the offset a
// rank measured to rank 0 is exactly its alignment error; the measurement's
// own bound (half the tightest round trip) is the baseline it must stay
// within. Prints `RESULT <metric> <value> <unit>` lines:
//   clock_error_ns_max_rR        largest |measured offset| over ranks and runs
//   clock_uncertainty_ns_max_rR  largest half round trip (the stated bound)
//   clock_drift_ns_max_rR        largest change of the offset from start to finish
//   run_s_rR                     median wall time of the whole run (MPI start included)
// Weak scaling and bytes moved between ranks need arrays split across
// ranks, which the runtime does not do yet.
//
//   bench_ranks [--runs N]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/rank_trace.hpp"
#include "result.hpp"

using namespace legato;
using legato::bench::result;

namespace {

std::string self_dir() {
  return std::filesystem::canonical("/proc/self/exe").parent_path().string();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench_ranks [--runs N]\n");
      return 2;
    }
  }
  const std::string dir = (std::filesystem::temp_directory_path() / "legato_bench_ranks").string();
  for (const int ranks : {2, 4}) {
    int64_t error = 0, uncertainty = 0, drift = 0;
    std::vector<double> wall;
    for (int run = 0; run < runs; ++run) {
      std::filesystem::remove_all(dir);
      const std::string cmd = self_dir() + "/legate --ranks-per-node " + std::to_string(ranks) +
                              " --launcher mpirun --cpus 1 --utility 1 --profile "
                              "--profile-report 0 --logdir " +
                              dir + " " + self_dir() + "/vectorized_update --n 200000 >/dev/null";
      const auto t0 = std::chrono::steady_clock::now();
      const int status = std::system(cmd.c_str());
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "bench_ranks: failed: %s\n", cmd.c_str());
        return 1;
      }
      for (int r = 1; r < ranks; ++r) {
        const auto t = analysis::read_rank_trace(dir + "/legate_" + std::to_string(r) + ".prof");
        const auto& start = t.metadata["clock_alignment"];
        const auto& end = t.metadata["clock_alignment_at_finish"];
        if (!start.is_object() || !end.is_object()) {
          std::fprintf(stderr, "bench_ranks: rank %d has no clock_alignment metadata\n", r);
          return 1;
        }
        const int64_t offset = start["offset_ns"], bound = start["uncertainty_ns"];
        const int64_t offset_end = end["offset_ns"];
        error = std::max<int64_t>(error, std::llabs(offset));
        uncertainty = std::max(uncertainty, bound);
        drift = std::max<int64_t>(drift, std::llabs(offset_end - offset));
      }
    }
    const std::string r = "_r" + std::to_string(ranks);
    result("clock_error_ns_max" + r, static_cast<double>(error), "ns");
    result("clock_uncertainty_ns_max" + r, static_cast<double>(uncertainty), "ns");
    result("clock_drift_ns_max" + r, static_cast<double>(drift), "ns");
    result("run_s" + r, median(wall), "s");
  }
  std::filesystem::remove_all(dir);
  return 0;
}
