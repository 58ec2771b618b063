// A small array program on the Legato runtime: fill an array, transform it
// twice, and sum it. Run it with profiling to get a trace of the runtime at
// work (tasks, dependence analysis and mapping, fills, instances):
//
//   legate --cpus 4 --profile parallel_sum [--n N]
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>

#include "runtime/legato.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  CLI::App app{"Fills, transforms and sums an array on the Legato runtime"};
  int64_t n = 20'000'000;
  int steps = 8;
  app.add_option("--n", n, "Array length")->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  app.add_option("--steps", steps, "Transform steps")->check(CLI::Range(1, 10000));
  CLI11_PARSE(app, argc, argv);

  start();
  const TaskId sqrt_plus_one = register_task("sqrt_plus_one", [](TaskContext& ctx) {
    double* a = ctx.data<double>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] = std::sqrt(a[i]) + 1.0;
  });
  const TaskId sum = register_task("sum", [](TaskContext& ctx) {
    const double* a = ctx.data<double>(0);
    double s = 0;
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) s += a[i];
    ctx.result(s);
  });
  Store a = create_store(n, DType::F64, "a");
  fill(a, {0, n}, Scalar(16.0));
  for (int k = 0; k < steps; ++k) {
    TaskLauncher(sqrt_plus_one, n).add_aligned(a, 0, Privilege::ReadWrite).execute();
  }
  const double total = TaskLauncher(sum, n)
                           .add_aligned(a, 0, Privilege::Read)
                           .reduce_result(ReduceOp::Sum)
                           .execute()
                           .get();
  double expected = 16.0;
  for (int k = 0; k < steps; ++k) expected = std::sqrt(expected) + 1.0;
  std::printf("sum = %.6e over %lld elements (expected %.6e)\n", total, static_cast<long long>(n),
              expected * static_cast<double>(n));
  finish();
  return std::fabs(total - expected * static_cast<double>(n)) <= 1e-9 * std::fabs(total) ? 0 : 1;
}
