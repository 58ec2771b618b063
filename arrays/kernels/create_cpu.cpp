// Kernels that make data: arange, eye, diagonals, random numbers (arange and
// random numbers also in create_cuda.cu).
#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/random_bits.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

void arange_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<ArangeArgs>(ctx);
  const double start = args.start, step = args.step;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    T* o = ctx.data<T>(0);
    for (int64_t i = 0; i < g.cols; ++i)
      o[i] = static_cast<T>(start + static_cast<double>(ctx.domain().lo + i) * step);
  });
}

void eye_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(unpack<EyeArgs>(ctx).type, [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) {
      T* o = g.row<T>(0, r);
      const int64_t row = ctx.domain().lo + r;
      for (int64_t c = 0; c < g.cols; ++c) o[c] = c == row ? T(1) : T(0);
    }
  });
}

void diag_set_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<DiagArgs>(ctx);
  const int64_t c0 = args.first_column;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) g.row<T>(0, r)[c0 + ctx.domain().lo + r] = *g.row<T>(1, r);
  });
}

void diag_get_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<DiagArgs>(ctx);
  const int64_t c0 = args.first_column;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) *g.row<T>(1, r) = g.row<T>(0, r)[c0 + ctx.domain().lo + r];
  });
}

void random_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<RandomArgs>(ctx);
  const uint64_t seed = args.seed, stream = args.stream;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    T* o = ctx.data<T>(0);
    for (int64_t i = 0; i < g.cols; ++i)
      o[i] = random_value<T>(random_bits(seed, stream, static_cast<uint64_t>(ctx.domain().lo + i)));
  });
}

}  // namespace legato::rt::kernels
