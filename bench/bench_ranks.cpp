// Multi-rank benchmark, on this one machine through `legate --ranks-per-node
// R --launcher mpirun` (oversubscribed when R exceeds the cores). Prints
// `RESULT <metric> <value> <unit>` lines:
//
// Clock alignment (vectorized_update, 200 k elements, R = 2 and 4). On one
// machine every rank reads the same CLOCK_MONOTONIC, so the offset a rank
// measured to rank 0 is exactly its alignment error; the measurement's own
// bound (half the tightest round trip) is the baseline it must stay within.
//   clock_error_ns_max_rR        largest |measured offset| over ranks and runs
//   clock_uncertainty_ns_max_rR  largest half round trip (the stated bound)
//   clock_drift_ns_max_rR        largest change of the offset from start to finish
//   run_s_rR                     median wall time of the whole run (MPI start included)
//
// Weak scaling (R = 1, 2, 4; the work per rank stays the same): the
// program's own timings, the slowest rank's, median over runs, and the
// efficiency t(1 rank) / t(R ranks) (1 is perfect).
//   weak_vectorized_ms_rR, weak_vectorized_efficiency_rR   2 M elements per rank
//   weak_cg_ms_per_iter_rR, weak_cg_efficiency_rR          CG through shifted slices,
//                                                         90 k unknowns per rank
//
// Bytes moved between ranks per CG iteration (R = 2 and 4), from the traces'
// network channel copies: the difference of runs of 20 and 10 iterations,
// divided by 10, against the least the algorithm must move.
//   cg_dense_bytes_per_iter_rR, cg_dense_bytes_over_min_rR     a dense matrix in
//       row blocks: each rank needs the other ranks' blocks of p, (R-1) n values
//   cg_stencil_bytes_per_iter_rR, cg_stencil_bytes_over_min_rR the matrix as
//       shifted slices: each rank boundary needs one halo row each way, 2 (R-1) N values
//   cg_allreduces_per_iter_rR    all-reduces per rank per iteration (2 dot products)
//
//   bench_ranks [--runs N]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "analysis/rank_trace.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
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

const std::string kDir = (std::filesystem::temp_directory_path() / "legato_bench_ranks").string();

// Runs `program args` on `ranks` ranks (with `flags` for the runtime) and
// returns its output; exits on failure.
std::string run(int ranks, const std::string& flags, const std::string& program,
                const std::string& args) {
  std::filesystem::remove_all(kDir);
  const std::string cmd = self_dir() + "/legate --ranks-per-node " + std::to_string(ranks) +
                          " --launcher mpirun --cpus 1 --utility 1 --logdir " + kDir + " " + flags +
                          " " + self_dir() + "/" + program + " " + args;
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    std::fprintf(stderr, "bench_ranks: cannot run %s\n", cmd.c_str());
    std::exit(1);
  }
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_ranks: failed: %s\n%s", cmd.c_str(), out.c_str());
    std::exit(1);
  }
  return out;
}

// The largest number captured by `pattern` over the output's lines (every
// rank prints its own; the slowest counts).
double slowest(const std::string& out, const std::string& pattern) {
  const std::regex re(pattern);
  double worst = -1;
  for (std::sregex_iterator it(out.begin(), out.end(), re), end; it != end; ++it)
    worst = std::max(worst, std::stod((*it)[1].str()));
  if (worst < 0) {
    std::fprintf(stderr, "bench_ranks: no '%s' in:\n%s", pattern.c_str(), out.c_str());
    std::exit(1);
  }
  return worst;
}

std::vector<std::string> traces(int ranks) {
  std::vector<std::string> files;
  for (int r = 0; r < ranks; ++r) files.push_back(kDir + "/legate_" + std::to_string(r) + ".prof");
  return files;
}

void clock_alignment(int runs) {
  for (const int ranks : {2, 4}) {
    int64_t error = 0, uncertainty = 0, drift = 0;
    std::vector<double> wall;
    for (int i = 0; i < runs; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      run(ranks, "--profile --profile-report 0", "vectorized_update", "--n 200000");
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      for (int r = 1; r < ranks; ++r) {
        const auto t = legato::load::read_file(traces(ranks)[static_cast<size_t>(r)]);
        const auto& start = t.metadata["clock_alignment"];
        const auto& end = t.metadata["clock_alignment_at_finish"];
        if (!start.is_object() || !end.is_object()) {
          std::fprintf(stderr, "bench_ranks: rank %d has no clock_alignment metadata\n", r);
          std::exit(1);
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
}

void weak_scaling(int runs) {
  double vec1 = 0, cg1 = 0;
  for (const int ranks : {1, 2, 4}) {
    std::vector<double> vec, cg;
    // CG through shifted slices: N^2 unknowns, N^2 = 90 k per rank.
    const auto N = static_cast<int64_t>(std::lround(300 * std::sqrt(ranks)));
    for (int i = 0; i < runs; ++i) {
      vec.push_back(
          slowest(run(ranks, "", "vectorized_update", "--n " + std::to_string(2'000'000LL * ranks)),
                  R"(time = ([0-9.]+) ms)"));
      cg.push_back(
          slowest(run(ranks, "", "cg",
                      "--operator stencil -m 40 -w 5 --threshold 0 -n " + std::to_string(N)),
                  R"(\(([0-9.]+) ms per iteration\))"));
    }
    const std::string r = "_r" + std::to_string(ranks);
    const double v = median(vec), c = median(cg);
    if (ranks == 1) vec1 = v, cg1 = c;
    result("weak_vectorized_ms" + r, v, "ms");
    result("weak_vectorized_efficiency" + r, vec1 / v, "x");
    result("weak_cg_ms_per_iter" + r, c, "ms");
    result("weak_cg_efficiency" + r, cg1 / c, "x");
  }
}

struct Traffic {
  double bytes = 0;       // over network channels, all ranks
  double allreduces = 0;  // on all ranks
};

Traffic traffic(int ranks, const std::string& args) {
  run(ranks, "--profile --profile-report 0", "cg", args);
  const analysis::Profile p = load::load_profile(traces(ranks));
  Traffic t;
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind != analysis::LaneKind::Channel) continue;
    const bool reduce = lane.name.rfind("all-reduce", 0) == 0;
    const bool network = lane.name.find(" sysmem to node ") != std::string::npos;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (reduce) t.allreduces += 1;
      if (network) t.bytes += static_cast<double>(p.copy_of(p.items[i])->bytes);
    }
  }
  return t;
}

void cg_traffic() {
  for (const int ranks : {2, 4}) {
    const std::string r = "_r" + std::to_string(ranks);
    struct Form {
      const char* name;
      int64_t N;
      double min_bytes;  // per iteration, all ranks
    };
    constexpr int64_t kDenseN = 16, kStencilN = 64;
    const Form forms[] = {
        {"dense", kDenseN, 8.0 * (ranks - 1) * kDenseN * kDenseN},
        {"stencil", kStencilN, 8.0 * 2 * (ranks - 1) * kStencilN},
    };
    for (const Form& f : forms) {
      const std::string args = std::string("--operator ") + f.name + " -w 0 --threshold 0 -n " +
                               std::to_string(f.N) + " -m ";
      const Traffic ten = traffic(ranks, args + "10"), twenty = traffic(ranks, args + "20");
      const double per_iter = (twenty.bytes - ten.bytes) / 10;
      result(std::string("cg_") + f.name + "_bytes_per_iter" + r, per_iter, "B");
      result(std::string("cg_") + f.name + "_bytes_over_min" + r, per_iter / f.min_bytes, "x");
      if (std::string(f.name) == "dense")
        result("cg_allreduces_per_iter" + r, (twenty.allreduces - ten.allreduces) / 10 / ranks, "");
    }
  }
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
  clock_alignment(runs);
  weak_scaling(std::max(1, runs / 2));
  cg_traffic();
  std::filesystem::remove_all(kDir);
  return 0;
}
