// The index kernels' CPU variant: nonzero (gathers and scatters are the
// runtime's indirect copies, runtime/core/copy_items.cpp).
#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

// One point on the dependent-partitioning processor; out gets as many
// positions as a has non-zeros.
void nonzero_task(TaskContext& ctx) {
  const Rows g(ctx);
  int64_t* out = ctx.data<int64_t>(1);
  int64_t n = 0;
  with_type(unpack<NonzeroArgs>(ctx).type, [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) {
      const T* a = g.row<T>(0, r);
      for (int64_t c = 0; c < g.cols; ++c) {
        if (a[c] != T(0)) out[n++] = r * g.cols + c;
      }
    }
  });
}

}  // namespace legato::rt::kernels
