// GPU variants of the elementwise kernels (elementwise_cpu.cpp and
// fill_task): the same operators, casts and NumPy semantics, as CUDA kernels
// on the task's stream.
#include "arrays/kernels/variants.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "arrays/kernels/cuda_support.cuh"

namespace legato::rt::kernels {
namespace {

using namespace cuda;

// --- elementwise kernels ---

// int64 wraps, as on the CPU (cpu_support.hpp).
struct AddOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return add_wrap(x, y);
  }
};
struct SubOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return sub_wrap(x, y);
  }
};
struct MulOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return mul_wrap(x, y);
  }
};
struct DivOp {  // float arrays (int64 divides with TrueDivOp; in place it is refused)
  template <class T>
  __device__ T operator()(T x, T y) const {
    return static_cast<T>(x / y);
  }
};
struct TrueDivOp {  // int64 / int64 gives float64, as in NumPy
  template <class T>
  __device__ double operator()(T x, T y) const {
    return static_cast<double>(x) / static_cast<double>(y);
  }
};
struct SecondOp {  // putmask's plain assignment
  template <class T>
  __device__ T operator()(T, T y) const {
    return y;
  }
};
struct LtOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x < y;
  }
};
struct LeOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x <= y;
  }
};
struct GtOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x > y;
  }
};
struct GeOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x >= y;
  }
};
struct EqOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x == y;
  }
};
struct NeOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x != y;
  }
};
struct AndOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x && y;
  }
};
struct OrOp {
  template <class T>
  __device__ uint8_t operator()(T x, T y) const {
    return x || y;
  }
};

struct NegOp {
  template <class T>
  __device__ T operator()(T x) const {
    return neg_wrap(x);
  }
};
struct SqrtOp {  // std::sqrt: float for float, double for the rest
  template <class T>
  __device__ T operator()(T x) const {
    if constexpr (std::is_same_v<T, float>) {
      return sqrtf(x);
    } else {
      return static_cast<T>(sqrt(static_cast<double>(x)));
    }
  }
};
struct AbsOp {
  template <class T>
  __device__ T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else {
      return x < T(0) ? neg_wrap(x) : x;  // keeps -0.0 and NaN as they are; INT64_MIN wraps
    }
  }
};
struct NotOp {
  template <class T>
  __device__ T operator()(T x) const {
    return static_cast<T>(!x);
  }
};
struct IdentityOp {
  template <class T>
  __device__ T operator()(T x) const {
    return x;
  }
};

template <class T, class R, class F>
__global__ void __launch_bounds__(kThreads)
    binary_kernel(Shape s, Operand<T> a, Operand<T> b, R* out, int64_t out_stride, F f) {
  for_each(s, [&](int64_t r, int64_t c) { out[r * out_stride + c] = f(a.at(r, c), b.at(r, c)); });
}

template <class T, class F>
__global__ void __launch_bounds__(kThreads)
    unary_kernel(Shape s, const T* a, int64_t a_stride, T* out, int64_t out_stride, F f) {
  for_each(s, [&](int64_t r, int64_t c) { out[r * out_stride + c] = f(a[r * a_stride + c]); });
}

template <class From, class To>
__global__ void __launch_bounds__(kThreads)
    convert_kernel(Shape s, const From* a, int64_t a_stride, To* out, int64_t out_stride) {
  for_each(s, [&](int64_t r, int64_t c) {
    out[r * out_stride + c] = convert_element<To>(a[r * a_stride + c]);
  });
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    where_kernel(Shape s, const uint8_t* mask, int64_t mask_stride, Operand<T> x, Operand<T> y,
                 T* out, int64_t out_stride) {
  for_each(s, [&](int64_t r, int64_t c) {
    out[r * out_stride + c] = mask[r * mask_stride + c] ? x.at(r, c) : y.at(r, c);
  });
}

template <class T, class F>
__global__ void __launch_bounds__(kThreads)
    putmask_kernel(Shape s, T* a, int64_t a_stride, const uint8_t* mask, int64_t mask_stride,
                   Operand<T> v, F f) {
  for_each(s, [&](int64_t r, int64_t c) {
    if (mask[r * mask_stride + c]) {
      T& x = a[r * a_stride + c];
      x = f(x, v.at(r, c));
    }
  });
}

template <class T>
__global__ void __launch_bounds__(kThreads) fill_kernel(Shape s, T* out, int64_t out_stride, T v) {
  for_each(s, [&](int64_t r, int64_t c) { out[r * out_stride + c] = v; });
}

template <class T>
void binary_typed(const Gpu& d, const Rows& g, Op op, Source left, Source right, const Scalar& lc,
                  const Scalar& rc) {
  size_t arg = 0, future = 0;
  const Operand<T> a = operand<T>(g, left, arg, future, lc);
  const Operand<T> b = operand<T>(g, right, arg, future, rc);
  const size_t out_arg = arg;
  const int64_t os = g.stride(out_arg);
  const Shape s = shape_of(g);
  const auto run = [&](auto* out, auto f) {
    using R = std::remove_pointer_t<decltype(out)>;
    launch(d, s, binary_kernel<T, R, decltype(f)>, s, a, b, out, os, f);
  };
  if (is_comparison(op) || is_logical(op)) {
    uint8_t* out = g.ctx.data<uint8_t>(out_arg);
    switch (op) {
      case Op::Lt:
        return run(out, LtOp{});
      case Op::Le:
        return run(out, LeOp{});
      case Op::Gt:
        return run(out, GtOp{});
      case Op::Ge:
        return run(out, GeOp{});
      case Op::Eq:
        return run(out, EqOp{});
      case Op::Ne:
        return run(out, NeOp{});
      case Op::And:
        return run(out, AndOp{});
      case Op::Or:
        return run(out, OrOp{});
      default:
        break;
    }
    throw std::logic_error("BinaryOpTask: not a comparison");
  }
  if constexpr (std::is_same_v<T, int64_t>) {
    if (op == Op::Div) return run(g.ctx.data<double>(out_arg), TrueDivOp{});
  }
  T* out = g.ctx.data<T>(out_arg);
  switch (op) {
    case Op::Add:
      return run(out, AddOp{});
    case Op::Sub:
      return run(out, SubOp{});
    case Op::Mul:
      return run(out, MulOp{});
    case Op::Div:
      return run(out, DivOp{});
    default:
      break;
  }
  throw std::logic_error("BinaryOpTask: unknown operator");
}

template <class T>
void unary_typed(const Gpu& d, const Rows& g, Op op) {
  const Shape s = shape_of(g);
  const T* a = g.ctx.data<T>(0);
  T* out = g.ctx.data<T>(1);
  const int64_t as = g.stride(0), os = g.stride(1);
  const auto run = [&](auto f) {
    launch(d, s, unary_kernel<T, decltype(f)>, s, a, as, out, os, f);
  };
  switch (op) {
    case Op::Neg:
      return run(NegOp{});
    case Op::Sqrt:
      return run(SqrtOp{});
    case Op::Abs:
      return run(AbsOp{});
    case Op::Not:
      return run(NotOp{});
    case Op::Identity:
      return run(IdentityOp{});
    default:
      break;
  }
  throw std::logic_error("UnaryOpTask: unknown operator");
}

}  // namespace

void binary_op_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "BinaryOpTask");
  const Rows g(ctx);
  const auto args = unpack<BinaryOpArgs>(ctx);
  with_type(args.type, [&](auto t) {
    binary_typed<decltype(t)>(d, g, args.op, args.left, args.right, args.left_value,
                              args.right_value);
  });
}

void unary_op_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "UnaryOpTask");
  const Rows g(ctx);
  const auto args = unpack<UnaryOpArgs>(ctx);
  with_type(args.type, [&](auto t) { unary_typed<decltype(t)>(d, g, args.op); });
}

void convert_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "ConvertTask");
  const Rows g(ctx);
  const auto args = unpack<ConvertArgs>(ctx);
  const Shape shape = shape_of(g);
  with_type(args.from, [&](auto from) {
    with_type(args.to, [&](auto to) {
      using F = decltype(from);
      using T = decltype(to);
      launch(d, shape, convert_kernel<F, T>, shape, static_cast<const F*>(ctx.data<F>(0)),
             g.stride(0), ctx.data<T>(1), g.stride(1));
    });
  });
}

void where_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "WhereTask");
  const Rows g(ctx);
  const auto args = unpack<WhereArgs>(ctx);
  const Shape shape = shape_of(g);
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    size_t arg = 1, future = 0;
    const Operand<T> x = operand<T>(g, args.x, arg, future, args.x_value);
    const Operand<T> y = operand<T>(g, args.y, arg, future, args.y_value);
    launch(d, shape, where_kernel<T>, shape, static_cast<const uint8_t*>(ctx.data<uint8_t>(0)),
           g.stride(0), x, y, ctx.data<T>(arg), g.stride(arg));
  });
}

void putmask_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "PutmaskTask");
  const Rows g(ctx);
  const auto args = unpack<PutmaskArgs>(ctx);
  const Op op = args.op;
  const Shape shape = shape_of(g);
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    size_t arg = 2, future = 0;
    const Operand<T> v = operand<T>(g, args.source, arg, future, args.value);
    const auto run = [&](auto f) {
      launch(d, shape, putmask_kernel<T, decltype(f)>, shape, ctx.data<T>(0), g.stride(0),
             static_cast<const uint8_t*>(ctx.data<uint8_t>(1)), g.stride(1), v, f);
    };
    switch (op) {
      case Op::Identity:
        return run(SecondOp{});
      case Op::Add:
        return run(AddOp{});
      case Op::Sub:
        return run(SubOp{});
      case Op::Mul:
        return run(MulOp{});
      case Op::Div:  // float arrays only (masked_update refuses int64)
        if constexpr (std::is_floating_point_v<T>) return run(DivOp{});
        break;
      default:
        break;
    }
    throw std::logic_error("PutmaskTask: unknown operator");
  });
}

void fill_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "FillTask");
  const Rows g(ctx);
  const auto args = unpack<FillArgs>(ctx);
  const Scalar v = args.source == Source::Future ? ctx.future_value(0) : args.value;
  const Shape shape = shape_of(g);
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    launch(d, shape, fill_kernel<T>, shape, ctx.data<T>(0), g.stride(0), element_of<T>(v));
  });
}

}  // namespace legato::rt::kernels
