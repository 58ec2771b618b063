// Arrays and a task of the user's own, on an installed Legato.
#include <cstdio>

#include "arrays/array.hpp"

using namespace legato::rt;

int main() {
  start();
  Array x = arange(1000, DType::F64);
  Array y = sqrt(x) * 2.0;
  y[y > 40.0] -= 1.0;
  const TaskId count_big = register_task("count_big", [](TaskContext& ctx) {
    const double* a = ctx.data<double>(0);
    int64_t n = 0;
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) n += a[i] > 50.0;
    ctx.result(n);
  });
  const int64_t big = TaskLauncher(count_big, y.size())
                          .add_aligned(y.store(), y.offset(), Privilege::Read)
                          .reduce_result(ReduceOp::Sum, DType::I64)
                          .execute()
                          .get_int();
  std::printf("sum %.3f max %.3f big %lld\n", y.sum().item(), y.max().item(),
              static_cast<long long>(big));
  finish();
  return 0;
}
