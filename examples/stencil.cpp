// 2-D Jacobi iterations through slices of one grid, as cuPyNumeric's
// stencil.py: the center is replaced by the average of itself and its four
// neighbours, each a shifted view of the same array (the halo pattern).
//
//   legate --cpus 4 --profile stencil -n 1000 -i 100 -t --check
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "arrays/array.hpp"
#include "examples/timer.hpp"

using namespace legato::rt;

namespace {

constexpr double kCold = -273.15, kHot = 40.0;

Array initialize(int64_t N) {
  std::printf("Initializing stencil grid...\n");
  Array grid = zeros(N + 2, N + 2);
  grid.view(0, N + 2, 0, 1).assign(Value(kCold));          // grid[:, 0]
  grid.view(0, N + 2, N + 1, N + 2).assign(Value(kCold));  // grid[:, -1]
  grid.slice(N + 1, N + 2).assign(Value(kCold));           // grid[-1, :]
  grid.slice(0, 1).assign(Value(kHot));                    // grid[0, :]
  return grid;
}

// The same iterations in plain C++, for --check.
std::vector<double> reference(int64_t N, int iterations) {
  const int64_t w = N + 2;
  std::vector<double> g(static_cast<size_t>(w * w), 0.0), next;
  for (int64_t r = 0; r < w; ++r) g[r * w] = g[r * w + w - 1] = kCold;
  for (int64_t c = 0; c < w; ++c) {
    g[(w - 1) * w + c] = kCold;
    g[c] = kHot;
  }
  for (int i = 0; i < iterations; ++i) {
    next = g;
    for (int64_t r = 1; r <= N; ++r) {
      for (int64_t c = 1; c <= N; ++c) {
        const double sum = g[r * w + c] + g[(r - 1) * w + c] + g[r * w + c + 1] + g[r * w + c - 1] +
                           g[(r + 1) * w + c];
        next[r * w + c] = 0.2 * sum;
      }
    }
    g.swap(next);
  }
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"2-D Jacobi stencil through shifted views of one grid (cuPyNumeric's stencil.py)"};
  int64_t N = 100;
  int iterations = 100, warmup = 5;
  bool timing = false, check = false;
  app.add_option("-i,--iter", iterations, "Number of iterations to run")
      ->check(CLI::Range(0, 1 << 30))
      ->capture_default_str();
  app.add_option("-w,--warmup", warmup, "Warm-up iterations")
      ->check(CLI::Range(0, 1 << 30))
      ->capture_default_str();
  app.add_option("-n,--num", N, "Number of elements in one dimension")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  app.add_flag("-t,--time", timing, "Perform timing");
  app.add_flag("--check", check,
               "Compare the grid with a plain C++ Jacobi (all iterations, warm-up included)");
  CLI11_PARSE(app, argc, argv);

  start();
  Array grid = initialize(N);
  std::printf("Running Jacobi stencil...\n");
  Array center = grid.view(1, N + 1, 1, N + 1);
  const Array north = grid.view(0, N, 1, N + 1);
  const Array east = grid.view(1, N + 1, 2, N + 2);
  const Array west = grid.view(1, N + 1, 0, N);
  const Array south = grid.view(2, N + 2, 1, N + 1);
  examples::Timer timer;
  timer.start();
  for (int i = 0; i < iterations + warmup; ++i) {
    if (i == warmup) timer.start();
    const Array average = center + north + east + west + south;
    const Array work = average * 0.2;
    center.assign(work);  // center[:] = work
  }
  const double ms = timer.stop();
  const double mean = center.sum().item() / static_cast<double>(N * N);
  std::printf("Mean interior temperature: %.6f\n", mean);
  if (timing) std::printf("Elapsed Time: %.3f ms\n", ms);
  bool ok = true;
  if (check) {
    const std::vector<double> want = reference(N, iterations + warmup), got = grid.to_vector();
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
    ok = worst <= 1e-9;
    std::printf("%s (largest difference from the C++ reference: %.3g)\n", ok ? "PASS!" : "FAIL!",
                worst);
  }
  finish();
  return ok ? 0 : 1;
}
