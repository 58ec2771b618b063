// Elementwise kernels: binary and unary operators, conversion, where, putmask.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {
namespace {

// out = f(a, b) over the rows, with the array/scalar combinations as
// separate loops so each one vectorizes.
template <class T, class R, class F>
void apply(const Rows& g, const Operand<T>& a, const Operand<T>& b, R* out, int64_t out_stride,
           F f) {
  for (int64_t r = 0; r < g.rows; ++r) {
    R* o = out + r * out_stride;
    if (a.base != nullptr && b.base != nullptr) {
      const T* x = a.row(r);
      const T* y = b.row(r);
      for (int64_t c = 0; c < g.cols; ++c) o[c] = f(x[c], y[c]);
    } else if (a.base != nullptr) {
      const T* x = a.row(r);
      const T y = b.value;
      for (int64_t c = 0; c < g.cols; ++c) o[c] = f(x[c], y);
    } else {
      const T x = a.value;
      const T* y = b.row(r);
      for (int64_t c = 0; c < g.cols; ++c) o[c] = f(x, y[c]);
    }
  }
}

template <class T>
void binary_typed(const Rows& g, Op op, Source left, Source right, const Scalar& lc,
                  const Scalar& rc) {
  size_t arg = 0, future = 0;
  const Operand<T> a = operand<T>(g, left, arg, future, lc);
  const Operand<T> b = operand<T>(g, right, arg, future, rc);
  const size_t out_arg = arg;
  const int64_t os = g.stride(out_arg);
  if (is_comparison(op) || is_logical(op)) {
    uint8_t* out = g.ctx.data<uint8_t>(out_arg);
    switch (op) {
      case Op::Lt:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x < y; });
      case Op::Le:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x <= y; });
      case Op::Gt:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x > y; });
      case Op::Ge:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x >= y; });
      case Op::Eq:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x == y; });
      case Op::Ne:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x != y; });
      case Op::And:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x && y; });
      case Op::Or:
        return apply(g, a, b, out, os, [](T x, T y) -> uint8_t { return x || y; });
      default:
        break;
    }
    throw std::logic_error("BinaryOpTask: not a comparison");
  }
  if constexpr (std::is_same_v<T, int64_t>) {
    if (op == Op::Div) {  // true division of integers gives float64, as in NumPy
      double* out = g.ctx.data<double>(out_arg);
      return apply(g, a, b, out, os,
                   [](T x, T y) { return static_cast<double>(x) / static_cast<double>(y); });
    }
  }
  T* out = g.ctx.data<T>(out_arg);
  switch (op) {
    case Op::Add:
      return apply(g, a, b, out, os, [](T x, T y) { return add_wrap(x, y); });
    case Op::Sub:
      return apply(g, a, b, out, os, [](T x, T y) { return sub_wrap(x, y); });
    case Op::Mul:
      return apply(g, a, b, out, os, [](T x, T y) { return mul_wrap(x, y); });
    case Op::Div:
      return apply(g, a, b, out, os, [](T x, T y) { return static_cast<T>(x / y); });
    default:
      break;
  }
  throw std::logic_error("BinaryOpTask: unknown operator");
}

template <class T>
void unary_typed(const Rows& g, Op op) {
  for (int64_t r = 0; r < g.rows; ++r) {
    const T* a = g.row<T>(0, r);
    T* o = g.row<T>(1, r);
    switch (op) {
      case Op::Neg:
        for (int64_t c = 0; c < g.cols; ++c) o[c] = neg_wrap(a[c]);
        break;
      case Op::Sqrt:
        for (int64_t c = 0; c < g.cols; ++c) o[c] = static_cast<T>(std::sqrt(a[c]));
        break;
      case Op::Abs:  // abs(INT64_MIN) wraps to itself, as in NumPy
        for (int64_t c = 0; c < g.cols; ++c) o[c] = a[c] < T(0) ? neg_wrap(a[c]) : a[c];
        break;
      case Op::Not:
        for (int64_t c = 0; c < g.cols; ++c) o[c] = static_cast<T>(!a[c]);
        break;
      case Op::Identity:
        std::memmove(o, a, static_cast<size_t>(g.cols) * sizeof(T));
        break;
      default:
        throw std::logic_error("UnaryOpTask: unknown operator");
    }
  }
}

}  // namespace

void binary_op_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<BinaryOpArgs>(ctx);
  with_type(args.type, [&](auto t) {
    binary_typed<decltype(t)>(g, args.op, args.left, args.right, args.left_value, args.right_value);
  });
}

void unary_op_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<UnaryOpArgs>(ctx);
  with_type(args.type, [&](auto t) { unary_typed<decltype(t)>(g, args.op); });
}

void convert_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<ConvertArgs>(ctx);
  with_type(args.from, [&](auto from) {
    with_type(args.to, [&](auto to) {
      using F = decltype(from);
      using T = decltype(to);
      for (int64_t r = 0; r < g.rows; ++r) {
        const F* a = g.row<F>(0, r);
        T* o = g.row<T>(1, r);
        for (int64_t c = 0; c < g.cols; ++c) o[c] = convert_element<T>(a[c]);
      }
    });
  });
}

void where_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<WhereArgs>(ctx);
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    size_t arg = 1, future = 0;
    const Operand<T> x = operand<T>(g, args.x, arg, future, args.x_value);
    const Operand<T> y = operand<T>(g, args.y, arg, future, args.y_value);
    for (int64_t r = 0; r < g.rows; ++r) {
      const uint8_t* m = g.row<uint8_t>(0, r);
      T* o = g.row<T>(arg, r);
      for (int64_t c = 0; c < g.cols; ++c) {
        o[c] = m[c] ? (x.base ? x.row(r)[c] : x.value) : (y.base ? y.row(r)[c] : y.value);
      }
    }
  });
}

void putmask_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<PutmaskArgs>(ctx);
  const Op op = args.op;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    size_t arg = 2, future = 0;
    const Operand<T> v = operand<T>(g, args.source, arg, future, args.value);
    const auto update = [&](auto f) {
      for (int64_t r = 0; r < g.rows; ++r) {
        T* a = g.row<T>(0, r);
        const uint8_t* m = g.row<uint8_t>(1, r);
        if (v.base != nullptr) {
          const T* vals = v.row(r);
          for (int64_t c = 0; c < g.cols; ++c) a[c] = m[c] ? f(a[c], vals[c]) : a[c];
        } else {
          const T x = v.value;
          for (int64_t c = 0; c < g.cols; ++c) a[c] = m[c] ? f(a[c], x) : a[c];
        }
      }
    };
    switch (op) {
      case Op::Identity:
        return update([](T, T y) { return y; });
      case Op::Add:
        return update([](T x, T y) { return add_wrap(x, y); });
      case Op::Sub:
        return update([](T x, T y) { return sub_wrap(x, y); });
      case Op::Mul:
        return update([](T x, T y) { return mul_wrap(x, y); });
      case Op::Div:  // float arrays only (masked_update refuses int64)
        if constexpr (std::is_floating_point_v<T>) {
          return update([](T x, T y) { return static_cast<T>(x / y); });
        }
        break;
      default:
        break;
    }
    throw std::logic_error("PutmaskTask: unknown operator");
  });
}

}  // namespace legato::rt::kernels

namespace legato::rt::kernels {

void fill_task(TaskContext& ctx) {
  const Rows g(ctx);
  const auto args = unpack<FillArgs>(ctx);
  const Scalar v = args.source == Source::Future ? ctx.future_value(0) : args.value;
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    for (int64_t r = 0; r < g.rows; ++r) std::fill_n(g.row<T>(0, r), g.cols, element_of<T>(v));
  });
}

}  // namespace legato::rt::kernels
