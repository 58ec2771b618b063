// The seeds' out-of-memory example written against the task API:
//   a = ones(n - 2); b = zeros(n); b[1:-1] = a; c = b + 2; d = c + 3
// With --sysmem 40 the instance for d does not fit.
#include <cstdio>

#include "runtime/legato.hpp"

using namespace legato::rt;

int main() {
  start();
  const TaskId add_scalar = register_task("add_scalar", [](TaskContext& ctx) {
    const double* in = ctx.data<double>(0);
    double* out = ctx.data<double>(1);
    for (int64_t i = 0; i < ctx.range(1).size(); ++i) out[i] = in[i] + ctx.scalar(0);
  });
  const int64_t n = 1024 * 1024;
  // The tags name the lines the test expects in the report.
  Store a = create_store(n - 2, DType::F64, "a");  // [a]
  fill(a, {0, n - 2}, Scalar(1.0));
  Store b = create_store(n, DType::F64, "b");  // [b]
  fill(b, {0, n}, Scalar(0.0));
  copy(a, 0, b, 1, n - 2);                     // [b[1:-1] = a]
  Store c = create_store(n, DType::F64, "c");  // [c]
  TaskLauncher(add_scalar, n)                  // [c = b + 2]
      .add_aligned(b, 0, Privilege::Read)
      .add_aligned(c, 0, Privilege::Write)
      .add_scalar(2.0)
      .execute();
  Store d = create_store(n, DType::F64, "d");  // [d]
  TaskLauncher(add_scalar, n)                  // [d = c + 3]
      .add_aligned(c, 0, Privilege::Read)
      .add_aligned(d, 0, Privilege::Write)
      .add_scalar(3.0)
      .execute();
  fence();
  std::printf("no out-of-memory error\n");
  finish();
  return 0;
}
