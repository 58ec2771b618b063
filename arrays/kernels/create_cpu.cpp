// Kernels that make data: arange, eye, diagonals, random numbers (arange and
// random numbers also in create_cuda.cu).
#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/random_bits.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

// stores: out; scalars: type, start, step
void arange_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const double start = ctx.scalar(s + 1), step = ctx.scalar(s + 2);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    T* o = ctx.data<T>(0);
    for (int64_t i = 0; i < g.cols; ++i)
      o[i] = static_cast<T>(start + static_cast<double>(ctx.domain().lo + i) * step);
  });
}

// stores: out (full rows); scalars: type
void eye_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(dtype_of(ctx.scalar_int(g.first_scalar())), [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) {
      T* o = g.row<T>(0, r);
      const int64_t row = ctx.domain().lo + r;
      for (int64_t c = 0; c < g.cols; ++c) o[c] = c == row ? T(1) : T(0);
    }
  });
}

// stores: out (full rows, read-write), v (one element per row); scalars: type, first column
void diag_set_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const int64_t c0 = ctx.scalar_int(s + 1);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) g.row<T>(0, r)[c0 + ctx.domain().lo + r] = *g.row<T>(1, r);
  });
}

// stores: a (rows), out (one element per row); scalars: type, first column
void diag_get_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const int64_t c0 = ctx.scalar_int(s + 1);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) *g.row<T>(1, r) = g.row<T>(0, r)[c0 + ctx.domain().lo + r];
  });
}

// stores: out; scalars: type, seed, stream
void random_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const auto seed = static_cast<uint64_t>(ctx.scalar_int(s + 1));
  const auto stream = static_cast<uint64_t>(ctx.scalar_int(s + 2));
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    T* o = ctx.data<T>(0);
    for (int64_t i = 0; i < g.cols; ++i)
      o[i] = random_value<T>(random_bits(seed, stream, static_cast<uint64_t>(ctx.domain().lo + i)));
  });
}

}  // namespace legato::rt::kernels
