// What the array kernels share: element types, type dispatch, and how an
// elementwise task walks the rows of its arguments.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "arrays/kernels/tasks.hpp"

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

// What reductions, dot products and matrix-vector products accumulate in,
// on CPUs and GPUs alike: int64 for integers and bools, double for floats.
template <class T>
using Accumulator = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

inline DType dtype_of(int64_t code) {
  return static_cast<DType>(code);
}

// The rows a point of an elementwise task covers: in element mode one row of
// the point's elements, in row mode the point's rows of `width` elements.
struct Rows {
  const TaskContext& ctx;
  int64_t rows, cols;

  explicit Rows(const TaskContext& c)
      : ctx(c),
        rows(c.scalar_int(0) != 0 ? c.domain().size() : 1),
        cols(c.scalar_int(0) != 0 ? c.scalar_int(1) : c.domain().size()) {}
  int64_t stride(size_t arg) const { return ctx.scalar_int(kGeometryScalars + arg); }
  template <class T>
  T* row(size_t arg, int64_t r) const {
    return ctx.data<T>(arg) + r * stride(arg);
  }
  // Where the task's own scalars start.
  size_t first_scalar() const { return kGeometryScalars + ctx.arguments(); }
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
                   double constant) {
  Operand<T> in;
  if (source == Source::Array) {
    in.base = g.ctx.data<T>(next_arg);
    in.stride = g.stride(next_arg);
    ++next_arg;
  } else {
    in.value = static_cast<T>(source == Source::Future ? g.ctx.future(next_future++) : constant);
  }
  return in;
}

}  // namespace legato::rt::kernels
