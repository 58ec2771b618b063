// Reductions, products and reading data back: sum/min/max, dot,
// matrix-vector, readback, arithmetic on future values.
#include <algorithm>
#include <cmath>
#include <limits>

#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {

void reduce_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<ReduceArgs>(ctx);
  const Reduction red = args.reduction;
  with_type(args.type, [&](auto t) {
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

void dot_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(unpack<DotArgs>(ctx).type, [&](auto t) {
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

void matvec_task(TaskContext& ctx) {
  const Rows g(ctx);
  with_type(unpack<MatVecArgs>(ctx).type, [&](auto t) {
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

void readback_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<ReadbackArgs>(ctx);
  void* dst = reinterpret_cast<void*>(args.address);
  const int64_t first = ctx.domain().lo * (g.geometry.row_mode ? g.cols : 1);
  with_type(args.type, [&](auto t) {
    with_type(args.host, [&](auto h) {
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

void upload_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<UploadArgs>(ctx);
  const void* src = reinterpret_cast<const void*>(args.address);
  const int64_t first = ctx.domain().lo * (g.geometry.row_mode ? g.cols : 1);
  with_type(args.type, [&](auto t) {
    with_type(args.host, [&](auto h) {
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

void scalar_op_task(TaskContext& ctx) {
  const auto args = unpack<ScalarOpArgs>(ctx);
  size_t future = 0;
  const auto value = [&](Source src, const Scalar& constant) {
    return src == Source::Future ? ctx.future_value(future++) : constant;
  };
  const Op op = args.op;
  const Scalar x = value(args.left, args.left_value);
  const Scalar y = value(args.right, args.right_value);
  if (args.type == DType::I64) {
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
