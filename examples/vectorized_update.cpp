// The seeds' Example 1, efficient version: float32 draws, the sum written
// into a preallocated array, one masked overwrite, and two wide in-place
// masked updates. Prints the same checksum as chunked_update for the same
// --n and --seed.
//
//   legate --cpus 4 --profile vectorized_update [--n N] [--seed S]
#include <CLI/CLI.hpp>
#include <cstdio>

#include "arrays/array.hpp"
#include "examples/timer.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  CLI::App app{"Example 1, efficient: out= arithmetic, putmask and wide masked updates"};
  int64_t n = 10'000'000;
  uint64_t seed = 42;
  app.add_option("--n", n, "Array length")->check(CLI::Range(int64_t{1}, int64_t{1} << 31));
  app.add_option("--seed", seed, "Random seed (the same seed gives chunked_update's numbers)");
  CLI11_PARSE(app, argc, argv);

  start();
  examples::Timer timer;
  timer.start();
  Generator rng(seed);
  Array x = rng.random(n, DType::F32);
  Array y = rng.random(n, DType::F32);

  // In-place sum without a temporary
  Array z = empty_like(x);
  add(x, y, z);

  // Conditional overwrite with a boolean mask (faster than nonzero + scatter)
  Array cond = (x < 0.25) & (y > 0.5);
  putmask(z, cond, x * y + 1.0);

  // Wide masked updates, in-place
  Array gt1 = z > 1.0;
  z[gt1] += 2.0;
  z[~gt1] -= 2.0;

  const double checksum = z.sum().item();
  const double ms = timer.stop();
  std::printf("checksum = %.6f over %lld elements\n", checksum, static_cast<long long>(n));
  std::printf("time = %.1f ms\n", ms);
  finish();
  return 0;
}
