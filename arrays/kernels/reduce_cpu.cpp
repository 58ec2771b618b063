// Reductions, products and reading data back: sum/min/max, dot,
// matrix-vector, readback, arithmetic on future values.
#include <algorithm>
#include <cmath>
#include <limits>

#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

// stores: a; scalars: reduction, type. The point's result goes to the future.
void reduce_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const auto red = static_cast<Reduction>(ctx.scalar_int(s));
  with_type(dtype_of(ctx.scalar_int(s + 1)), [&](auto t) {
    using T = decltype(t);
    constexpr bool integral = std::is_integral_v<T>;
    if (red == Reduction::CountNonzero) {
      int64_t n = 0;
      for (int64_t r = 0; r < g.rows; ++r) {
        const T* a = g.row<T>(0, r);
        for (int64_t c = 0; c < g.cols; ++c) n += a[c] != T(0);
      }
      return ctx.result(n);
    }
    using Acc = Accumulator<T>;
    Acc acc = red == Reduction::Sum   ? Acc(0)
              : red == Reduction::Min ? std::numeric_limits<Acc>::max()
                                      : std::numeric_limits<Acc>::lowest();
    if constexpr (!integral) {
      if (red == Reduction::Min) acc = std::numeric_limits<double>::infinity();
      if (red == Reduction::Max) acc = -std::numeric_limits<double>::infinity();
    }
    for (int64_t r = 0; r < g.rows; ++r) {
      const T* a = g.row<T>(0, r);
      switch (red) {
        case Reduction::Sum:
          for (int64_t c = 0; c < g.cols; ++c) acc = add_wrap(acc, static_cast<Acc>(a[c]));
          break;
        case Reduction::Min:  // a NaN wins, as in NumPy
          for (int64_t c = 0; c < g.cols; ++c) acc = min_nan(acc, static_cast<Acc>(a[c]));
          break;
        case Reduction::Max:
          for (int64_t c = 0; c < g.cols; ++c) acc = max_nan(acc, static_cast<Acc>(a[c]));
          break;
        default:
          break;
      }
    }
    ctx.result(acc);
  });
}

// stores: a, b; scalars: type
void dot_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(dtype_of(ctx.scalar_int(g.first_scalar())), [&](auto t) {
    using T = decltype(t);
    using Acc = Accumulator<T>;
    Acc acc = 0;
    for (int64_t r = 0; r < g.rows; ++r) {
      const T* a = g.row<T>(0, r);
      const T* b = g.row<T>(1, r);
      for (int64_t c = 0; c < g.cols; ++c)
        acc = add_wrap(acc, mul_wrap(static_cast<Acc>(a[c]), static_cast<Acc>(b[c])));
    }
    ctx.result(acc);
  });
}

// stores: A (rows), x (whole), y (one element per row); scalars: type
void matvec_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(dtype_of(ctx.scalar_int(g.first_scalar())), [&](auto t) {
    using T = decltype(t);
    using Acc = Accumulator<T>;
    const T* x = ctx.data<T>(1);
    for (int64_t r = 0; r < g.rows; ++r) {
      const T* a = g.row<T>(0, r);
      Acc acc = 0;
      for (int64_t c = 0; c < g.cols; ++c)
        acc = add_wrap(acc, mul_wrap(static_cast<Acc>(a[c]), static_cast<Acc>(x[c])));
      *g.row<T>(2, r) = static_cast<T>(acc);
    }
  });
}

// stores: a; scalars: type, address of the destination, the destination's
// element type (the array's own: exact; or double). Row-major over the array.
void readback_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  void* dst = reinterpret_cast<void*>(static_cast<uintptr_t>(ctx.scalar_int(s + 1)));
  const int64_t first = ctx.domain().lo * (ctx.scalar_int(0) != 0 ? g.cols : 1);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    with_type(dtype_of(ctx.scalar_int(s + 2)), [&](auto h) {
      using T = decltype(t);
      using H = decltype(h);
      H* out = static_cast<H*>(dst) + first;
      for (int64_t r = 0; r < g.rows; ++r) {
        const T* a = g.row<T>(0, r);
        for (int64_t c = 0; c < g.cols; ++c) out[r * g.cols + c] = convert_element<H>(a[c]);
      }
    });
  });
}

// stores: out (rows); scalars: type, address of the program's values, their
// element type (the array's own: exact; or double). Row-major over the array.
void upload_task(TaskContext& ctx) {
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const void* src = reinterpret_cast<const void*>(static_cast<uintptr_t>(ctx.scalar_int(s + 1)));
  const int64_t first = ctx.domain().lo * (ctx.scalar_int(0) != 0 ? g.cols : 1);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    with_type(dtype_of(ctx.scalar_int(s + 2)), [&](auto h) {
      using T = decltype(t);
      using H = decltype(h);
      const H* in = static_cast<const H*>(src) + first;
      for (int64_t r = 0; r < g.rows; ++r) {
        T* o = g.row<T>(0, r);
        for (int64_t c = 0; c < g.cols; ++c) o[c] = convert_element<T>(in[r * g.cols + c]);
      }
    });
  });
}

// no stores; scalars: op, left source, right source, left value, right
// value, result type. An int64 result (+, - and * of two int64 values)
// is computed in int64, exactly; anything else in double.
void scalar_op_task(TaskContext& ctx) {
  const size_t s = kGeometryScalars;
  size_t future = 0;
  const auto value = [&](Source src, const Scalar& constant) {
    return src == Source::Future ? ctx.future_value(future++) : constant;
  };
  const Op op = static_cast<Op>(ctx.scalar_int(s));
  const Scalar x = value(static_cast<Source>(ctx.scalar_int(s + 1)), ctx.scalar_value(s + 3));
  const Scalar y = value(static_cast<Source>(ctx.scalar_int(s + 2)), ctx.scalar_value(s + 4));
  if (dtype_of(ctx.scalar_int(s + 5)) == DType::I64) {
    const int64_t a = x.as_int(), b = y.as_int();
    switch (op) {
      case Op::Add:
        return ctx.result(add_wrap(a, b));
      case Op::Sub:
        return ctx.result(sub_wrap(a, b));
      case Op::Mul:
        return ctx.result(mul_wrap(a, b));
      default:
        throw std::logic_error("ScalarBinaryOpTask: no int64 result for this operator");
    }
  }
  const double a = x.as_double(), b = y.as_double();
  switch (op) {
    case Op::Add:
      return ctx.result(a + b);
    case Op::Sub:
      return ctx.result(a - b);
    case Op::Mul:
      return ctx.result(a * b);
    case Op::Div:
      return ctx.result(a / b);
    case Op::Sqrt:
      return ctx.result(std::sqrt(a));
    default:
      throw std::logic_error("ScalarBinaryOpTask: unknown operator");
  }
}

}  // namespace legato::rt::kernels
