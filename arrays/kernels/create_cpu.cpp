// Kernels that make data: arange, eye, diagonals, random numbers.
#include <cmath>

#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

uint64_t random_bits(uint64_t seed, uint64_t stream, uint64_t i) {
  // splitmix64 of (seed, stream, index): independent of how the work is split.
  uint64_t z =
      seed * 0x9e3779b97f4a7c15ULL + stream * 0xbf58476d1ce4e5b9ULL + i * 0x94d049bb133111ebULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

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
    for (int64_t i = 0; i < g.cols; ++i) {
      const uint64_t bits = random_bits(seed, stream, static_cast<uint64_t>(ctx.domain().lo + i));
      if constexpr (std::is_floating_point_v<T>) {
        // The float64 draw rounded to T (so a float32 draw equals the
        // float64 draw converted with astype), kept below 1.
        const T v = static_cast<T>(static_cast<double>(bits >> 11) * 0x1.0p-53);
        o[i] = v < T(1) ? v : std::nextafter(T(1), T(0));
      } else if constexpr (std::is_same_v<T, uint8_t>) {
        o[i] = static_cast<T>(bits >> 63);
      } else {
        o[i] = static_cast<T>(bits >> 33);
      }
    }
  });
}

}  // namespace legato::rt::kernels
