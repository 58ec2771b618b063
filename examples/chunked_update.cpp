// The seeds' Example 1, inefficient version: float64 draws converted to
// float32, nonzero index arrays with a scatter, temporaries, and an update
// in 4,096-element slices (thousands of tiny tasks and waits).
//
//   legate --cpus 4 --profile chunked_update [--n N] [--chunk C] [--seed S]
#include <CLI/CLI.hpp>
#include <cstdio>

#include "arrays/array.hpp"
#include "examples/timer.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  CLI::App app{"Example 1, inefficient: nonzero + scatter and a chunked update loop"};
  int64_t n = 10'000'000, chunk = 4096;
  uint64_t seed = 42;
  app.add_option("--n", n, "Array length")->check(CLI::Range(int64_t{1}, int64_t{1} << 31));
  app.add_option("--chunk", chunk, "Elements per slice of the update loop")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 31));
  app.add_option("--seed", seed, "Random seed (the same seed gives vectorized_update's numbers)");
  CLI11_PARSE(app, argc, argv);

  start();
  examples::Timer timer;
  timer.start();
  Generator rng(seed);
  Array x = rng.random(n).astype(DType::F32);
  Array y = rng.random(n).astype(DType::F32);

  // advanced indexing, extra comms/overhead
  Array cond_idx = nonzero((x < 0.25) & (y > 0.5));

  // extra temporaries
  Array z = x + y;
  Array z_alt = x * y + 1.0;

  // scatter writeback through indices (slower than boolean mask)
  z[cond_idx] = z_alt[cond_idx];

  // tiny chunked updates, lots of tiny tasks
  for (int64_t s = 0; s < n; s += chunk) {
    Array sub = z.slice(s, std::min(s + chunk, n));
    Array gt1 = sub > 1.0;
    sub[gt1] = sub[gt1] + 2.0;
    sub[~gt1] = sub[~gt1] - 2.0;
  }
  const double checksum = z.sum().item();
  const double ms = timer.stop();
  std::printf("checksum = %.6f over %lld elements\n", checksum, static_cast<long long>(n));
  std::printf("time = %.1f ms\n", ms);
  finish();
  return 0;
}
