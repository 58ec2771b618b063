// What the array kernels share: element types, type dispatch, and how an
// elementwise task walks the rows of its arguments.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "arrays/kernels/task_args.hpp"

namespace legato::rt::kernels {

// The C++ type of each element type (bool is one byte).
template <DType T>
struct CType;
template <>
struct CType<DType::F32> {
  using type = float;
};
template <>
struct CType<DType::F64> {
  using type = double;
};
template <>
struct CType<DType::I64> {
  using type = int64_t;
};
template <>
struct CType<DType::Bool> {
  using type = uint8_t;
};

// Calls f(T{}) with the C++ type of t.
template <class F>
decltype(auto) with_type(DType t, F&& f) {
  switch (t) {
    case DType::F32:
      return f(float{});
    case DType::F64:
      return f(double{});
    case DType::I64:
      return f(int64_t{});
    case DType::Bool:
      return f(uint8_t{});
  }
  throw std::logic_error("unknown element type");
}

#ifdef __CUDACC__
#define LEGATO_HOST_DEVICE __host__ __device__
#else
#define LEGATO_HOST_DEVICE
#endif

// --- element arithmetic, the same in the CPU and the CUDA variants ---

// int64 arithmetic wraps, as NumPy's does (a plain signed overflow is
// undefined); other types compute as written.
template <class T>
LEGATO_HOST_DEVICE inline T add_wrap(T x, T y) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<T>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
  } else {
    return static_cast<T>(x + y);
  }
}
template <class T>
LEGATO_HOST_DEVICE inline T sub_wrap(T x, T y) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<T>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
  } else {
    return static_cast<T>(x - y);
  }
}
template <class T>
LEGATO_HOST_DEVICE inline T mul_wrap(T x, T y) {
  if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<T>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  } else {
    return static_cast<T>(x * y);
  }
}
template <class T>
LEGATO_HOST_DEVICE inline T neg_wrap(T x) {
  return sub_wrap(T(0), x);
}

// Minimum and maximum as NumPy's: a NaN on either side wins (std::min and
// std::max keep the first argument when the second is NaN).
template <class T>
LEGATO_HOST_DEVICE inline T min_nan(T acc, T x) {
  return x < acc || x != x ? x : acc;  // NOLINT(misc-redundant-expression): NaN
}
template <class T>
LEGATO_HOST_DEVICE inline T max_nan(T acc, T x) {
  return acc < x || x != x ? x : acc;  // NOLINT(misc-redundant-expression): NaN
}

// An element converted to another type as NumPy's astype converts it: to
// bool, whether it is non-zero (NaN is); a float to int64 truncated toward
// zero, with NaN, infinities and values out of range giving INT64_MIN (what
// NumPy gives on x86; a plain cast is undefined there, and GPUs saturate).
template <class To, class From>
LEGATO_HOST_DEVICE inline To convert_element(From x) {
  if constexpr (std::is_same_v<To, uint8_t>) {
    return x != From(0) ? To(1) : To(0);
  } else if constexpr (std::is_same_v<To, int64_t> && std::is_floating_point_v<From>) {
    const double d = static_cast<double>(x);
    return d >= -0x1p63 && d < 0x1p63 ? static_cast<int64_t>(d) : INT64_MIN;
  } else {
    return static_cast<To>(x);
  }
}

// A scalar argument or future (an int64 or a double) as an element of T.
template <class T>
inline T element_of(const Scalar& s) {
  return s.type == DType::I64 ? convert_element<T>(s.i) : convert_element<T>(s.f);
}

// What reductions, dot products and matrix-vector products accumulate in,
// on CPUs and GPUs alike: int64 for integers and bools, double for floats.
template <class T>
using Accumulator = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

// The rows a point of an elementwise task covers: in element mode one row of
// the point's elements, in row mode the point's rows of `width` elements.
struct Rows {
  const TaskContext& ctx;
  GeometryArgs geometry;
  int64_t rows, cols;

  explicit Rows(const TaskContext& c)
      : ctx(c),
        geometry(unpack<GeometryArgs>(c, 0)),
        rows(geometry.row_mode ? c.domain().size() : 1),
        cols(geometry.row_mode ? geometry.width : c.domain().size()) {}
  int64_t stride(size_t arg) const { return row_stride(ctx, arg); }
  template <class T>
  T* row(size_t arg, int64_t r) const {
    return ctx.data<T>(arg) + r * stride(arg);
  }
};

// One operand of an elementwise task, read row by row: an array argument
// (its first element and row stride) or a value (a constant or a future,
// converted to T on the host). The CUDA variants read it in their kernels.
template <class T>
struct Operand {
  const T* base = nullptr;  // null: `value`
  int64_t stride = 0;
  T value{};
  const T* row(int64_t r) const { return base + r * stride; }
#ifdef __CUDACC__
  __device__ T at(int64_t r, int64_t c) const {
    return base != nullptr ? base[r * stride + c] : value;
  }
#endif
};

// The next operand of the given source: array arguments and futures are
// taken in order (next_arg, next_future advance).
template <class T>
Operand<T> operand(const Rows& g, Source source, size_t& next_arg, size_t& next_future,
                   const Scalar& constant) {
  Operand<T> in;
  if (source == Source::Array) {
    in.base = g.ctx.data<T>(next_arg);
    in.stride = g.stride(next_arg);
    ++next_arg;
  } else {
    in.value =
        element_of<T>(source == Source::Future ? g.ctx.future_value(next_future++) : constant);
  }
  return in;
}

}  // namespace legato::rt::kernels
