// GPU variants of the array kernels: the loops of kernels_elementwise.cpp and
// kernels_reduce.cpp as CUDA kernels on the task's stream.
//
// Elementwise kernels are grid-stride loops of 256-thread blocks, at most 32
// blocks per SM (four waves of full occupancy; larger arrays loop). Rows that
// lie end to end in every argument are walked as one long row; otherwise a
// thread walks (row, column) pairs, stepping both without dividing.
//
// Reductions run in two passes: each block folds its share into a partial in
// the GPU's scratch, then one block folds the partials into the first scratch
// slot, which comes back through the pinned host scratch. They accumulate as
// the CPU variants do (int64 for integers and bools, wrapping; double for
// floats) and return the same result types.
#include "runtime/kernels_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "runtime/kernel_support.hpp"

namespace legato::rt::kernels {
namespace {

constexpr int kThreads = 256;              // threads per block
constexpr int kWarps = kThreads / 32;      // warps per block
constexpr int64_t kBlocksPerSm = 32;       // elementwise grids: at most four full waves
constexpr int64_t kReduceBlocksPerSm = 8;  // first reduction pass: one full wave
constexpr int64_t kWarpRowCols = 2048;     // matvec: a warp per row below this width

// --- errors, the GPU of the task, launches ---

[[noreturn]] void fail(const char* task, const char* what, cudaError_t e) {
  throw std::runtime_error(std::string(task) + " (GPU variant): " + what +
                           " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

void check(cudaError_t e, const char* task, const char* what) {
  if (e != cudaSuccess) fail(task, what, e);
}

// The number of SMs of each device, asked of CUDA once.
int sm_count(int device, const char* task) {
  static std::array<std::atomic<int>, 64> known{};
  const bool cached = device >= 0 && device < static_cast<int>(known.size());
  if (cached) {
    const int n = known[static_cast<size_t>(device)].load(std::memory_order_relaxed);
    if (n > 0) return n;
  }
  int n = 0;
  check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device), task,
        "cudaDeviceGetAttribute(MultiProcessorCount)");
  n = std::max(n, 1);
  if (cached) known[static_cast<size_t>(device)].store(n, std::memory_order_relaxed);
  return n;
}

struct Gpu {
  const char* task;
  const GpuResources* res;
  cudaStream_t stream;
  int64_t sms;
};

Gpu gpu_of(const TaskContext& ctx, const char* task) {
  const GpuResources* res = ctx.gpu();
  if (res == nullptr) {
    throw std::logic_error(std::string(task) +
                           ": the GPU variant ran without a GPU (TaskContext::gpu() is null)");
  }
  return {task, res, static_cast<cudaStream_t>(res->stream), sm_count(res->device, task)};
}

// The elements of a point: `rows` rows of `cols` elements. In row mode the
// rows of argument a start stride(a) elements apart; otherwise there is one
// row (rows == 1) and strides do not matter.
struct Shape {
  int64_t rows = 0, cols = 0;
  bool row_mode = false;
  int64_t size() const { return rows * cols; }
};

// The shape of an elementwise task's point, one long row when every
// argument's rows lie end to end.
Shape shape_of(const Rows& g) {
  if (g.rows <= 1) return {g.rows, g.cols, false};
  for (size_t a = 0; a < g.ctx.arguments(); ++a) {
    if (g.stride(a) != g.cols) return {g.rows, g.cols, true};
  }
  return {1, g.rows * g.cols, false};
}

unsigned blocks_for(int64_t n, int64_t cap) {
  return static_cast<unsigned>(std::clamp<int64_t>((n + kThreads - 1) / kThreads, 1, cap));
}

// Runs kernel over the shape's elements (nothing for an empty shape).
template <class... P, class... A>
void launch(const Gpu& d, const Shape& s, void (*kernel)(P...), A&&... args) {
  if (s.size() == 0) return;
  kernel<<<blocks_for(s.size(), d.sms * kBlocksPerSm), kThreads, 0, d.stream>>>(
      std::forward<A>(args)...);
  check(cudaGetLastError(), d.task, "kernel launch");
}

// --- device helpers ---

// f(row, column) for every element of the shape this thread covers.
template <class F>
__device__ __forceinline__ void for_each(const Shape& s, const F& f) {
  const int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  if (!s.row_mode) {
    for (int64_t i = first; i < s.cols; i += step) f(int64_t{0}, i);
    return;
  }
  const int64_t n = s.rows * s.cols;
  if (first >= n) return;
  int64_t r = first / s.cols, c = first % s.cols;
  const int64_t dr = step / s.cols, dc = step % s.cols;
  for (int64_t i = first; i < n; i += step) {
    f(r, c);
    r += dr;
    c += dc;
    if (c >= s.cols) {
      c -= s.cols;
      ++r;
    }
  }
}

// Integer accumulation wraps (as the CPU variants' int64 arithmetic does).
template <class Acc>
__device__ __forceinline__ Acc add(Acc x, Acc y) {
  if constexpr (std::is_integral_v<Acc>) {
    return static_cast<Acc>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
  } else {
    return x + y;
  }
}
template <class Acc>
__device__ __forceinline__ Acc mul(Acc x, Acc y) {
  if constexpr (std::is_integral_v<Acc>) {
    return static_cast<Acc>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  } else {
    return x * y;
  }
}

// The folds, as the CPU variants write them: std::min(acc, x) keeps acc
// unless x < acc (so NaN never wins), std::max(acc, x) unless acc < x.
struct Plus {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return add(acc, x);
  }
};
struct Smaller {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return x < acc ? x : acc;
  }
};
struct Larger {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return acc < x ? x : acc;
  }
};

// Folds v over the warp into lane 0.
template <class Acc, class C>
__device__ __forceinline__ Acc warp_reduce(Acc v, C combine) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// Folds v over the block into thread 0; every thread of the block calls it.
template <class Acc, class C>
__device__ Acc block_reduce(Acc v, C combine, Acc identity) {
  __shared__ Acc warp_values[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_reduce(v, combine);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_reduce(lane < unsigned{kWarps} ? warp_values[lane] : identity, combine);
  __syncthreads();  // warp_values may be written again by the next call
  return v;
}

// --- elementwise kernels ---

struct AddOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return static_cast<T>(x + y);
  }
};
struct SubOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return static_cast<T>(x - y);
  }
};
struct MulOp {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return static_cast<T>(x * y);
  }
};
struct DivOp {
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
    return static_cast<T>(-x);
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
      return x < T(0) ? static_cast<T>(-x) : x;  // keeps -0.0 and NaN as they are
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
    const From x = a[r * a_stride + c];
    if constexpr (std::is_same_v<To, uint8_t>) {
      out[r * out_stride + c] = x != From(0);
    } else {
      out[r * out_stride + c] = static_cast<To>(x);
    }
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

// --- reduction kernels ---

// What a reduction folds for each element.
template <class Acc>
struct ValueOf {  // sum, min, max
  template <class T>
  __device__ Acc operator()(T x) const {
    return static_cast<Acc>(x);
  }
};
struct NonzeroOf {  // count_nonzero
  template <class T>
  __device__ int64_t operator()(T x) const {
    return x != T(0) ? 1 : 0;
  }
};

// Pass one: this block's fold of its share into partials[blockIdx.x].
template <class Acc, class T, class M, class C>
__global__ void __launch_bounds__(kThreads)
    reduce_kernel(Shape s, const T* a, int64_t a_stride, M map, C combine, Acc identity,
                  Acc* partials) {
  Acc acc = identity;
  for_each(s, [&](int64_t r, int64_t c) { acc = combine(acc, map(a[r * a_stride + c])); });
  acc = block_reduce(acc, combine, identity);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <class Acc, class T>
__global__ void __launch_bounds__(kThreads)
    dot_kernel(Shape s, const T* a, int64_t a_stride, const T* b, int64_t b_stride, Acc* partials) {
  Acc acc = 0;
  for_each(s, [&](int64_t r, int64_t c) {
    acc =
        add(acc, mul(static_cast<Acc>(a[r * a_stride + c]), static_cast<Acc>(b[r * b_stride + c])));
  });
  acc = block_reduce(acc, Plus{}, Acc(0));
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// Pass two (one block): the partials folded into *out.
template <class Acc, class C>
__global__ void __launch_bounds__(kThreads)
    finish_kernel(const Acc* partials, int64_t n, C combine, Acc identity, Acc* out) {
  Acc acc = identity;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) acc = combine(acc, partials[i]);
  acc = block_reduce(acc, combine, identity);
  if (threadIdx.x == 0) *out = acc;
}

// A warp per row: y[r] = A[r, :] . x, for narrow rows.
template <class Acc, class T>
__global__ void __launch_bounds__(kThreads)
    matvec_warp_kernel(int64_t rows, int64_t cols, const T* a, int64_t a_stride, const T* x, T* y,
                       int64_t y_stride) {
  const int64_t first = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (int64_t r = first; r < rows; r += step) {  // the same rows for the whole warp
    const T* row = a + r * a_stride;
    Acc acc = 0;
    for (int64_t c = lane; c < cols; c += 32)
      acc = add(acc, mul(static_cast<Acc>(row[c]), static_cast<Acc>(x[c])));
    acc = warp_reduce(acc, Plus{});
    if (lane == 0) y[r * y_stride] = static_cast<T>(acc);
  }
}

// A block per (row, chunk of columns), for wide rows: with one chunk per row
// the block writes y[r], otherwise its partial partials[r * chunks + chunk].
template <class Acc, class T>
__global__ void __launch_bounds__(kThreads)
    matvec_block_kernel(int64_t rows, int64_t cols, const T* a, int64_t a_stride, const T* x, T* y,
                        int64_t y_stride, Acc* partials) {
  const int64_t chunks = gridDim.x;
  const int64_t per_chunk = (cols + chunks - 1) / chunks;
  const int64_t lo = blockIdx.x * per_chunk, hi = lo + per_chunk < cols ? lo + per_chunk : cols;
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {  // the same rows for the whole block
    const T* row = a + r * a_stride;
    Acc acc = 0;
    for (int64_t c = lo + threadIdx.x; c < hi; c += blockDim.x)
      acc = add(acc, mul(static_cast<Acc>(row[c]), static_cast<Acc>(x[c])));
    acc = block_reduce(acc, Plus{}, Acc(0));
    if (threadIdx.x == 0) {
      if (chunks == 1) {
        y[r * y_stride] = static_cast<T>(acc);
      } else {
        partials[r * chunks + blockIdx.x] = acc;
      }
    }
  }
}

// A warp per row: y[r] = the sum of the row's chunk partials.
template <class Acc, class T>
__global__ void __launch_bounds__(kThreads)
    matvec_finish_kernel(int64_t rows, int64_t chunks, const Acc* partials, T* y,
                         int64_t y_stride) {
  const int64_t first = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (int64_t r = first; r < rows; r += step) {
    Acc acc = 0;
    for (int64_t k = lane; k < chunks; k += 32) acc = add(acc, partials[r * chunks + k]);
    acc = warp_reduce(acc, Plus{});
    if (lane == 0) y[r * y_stride] = static_cast<T>(acc);
  }
}

// --- host side ---

// The scratch of the task's GPU as `slots` values of Acc.
template <class Acc>
Acc* scratch_slots(const Gpu& d, int64_t& slots) {
  slots = static_cast<int64_t>(d.res->scratch_bytes / sizeof(Acc));
  if (d.res->scratch == nullptr || d.res->host_scratch == nullptr || slots < 2) {
    throw std::logic_error(std::string(d.task) + ": the GPU's scratch is missing or too small (" +
                           std::to_string(d.res->scratch_bytes) + " bytes)");
  }
  return reinterpret_cast<Acc*>(d.res->scratch);
}

// Waits for the value the kernels left in the first scratch slot.
template <class Acc>
Acc read_back(const Gpu& d) {
  check(cudaMemcpyAsync(d.res->host_scratch, d.res->scratch, sizeof(Acc), cudaMemcpyDeviceToHost,
                        d.stream),
        d.task, "cudaMemcpyAsync of the result");
  check(cudaStreamSynchronize(d.stream), d.task, "cudaStreamSynchronize");
  Acc v;
  std::memcpy(&v, d.res->host_scratch, sizeof v);
  return v;
}

// A two-pass reduction of n elements: first_pass(blocks, partials) launches
// the first pass, which leaves `blocks` partials there.
template <class Acc, class C, class F>
Acc reduce_on_gpu(const Gpu& d, int64_t n, C combine, Acc identity, F first_pass) {
  if (n == 0) return identity;
  int64_t slots = 0;
  Acc* result = scratch_slots<Acc>(d, slots);
  const unsigned blocks = blocks_for(n, std::min(d.sms * kReduceBlocksPerSm, slots - 1));
  first_pass(blocks, blocks == 1 ? result : result + 1);
  check(cudaGetLastError(), d.task, "kernel launch");
  if (blocks > 1) {
    finish_kernel<<<1, kThreads, 0, d.stream>>>(static_cast<const Acc*>(result + 1),
                                                static_cast<int64_t>(blocks), combine, identity,
                                                result);
    check(cudaGetLastError(), d.task, "kernel launch");
  }
  return read_back<Acc>(d);
}

template <class T>
void binary_typed(const Gpu& d, const Rows& g, Op op, Source left, Source right, double lc,
                  double rc) {
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

// scalars after the geometry: op, type, left source, right source, left value, right value
void binary_op_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "BinaryOpTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const Op op = static_cast<Op>(ctx.scalar_int(s));
  with_type(dtype_of(ctx.scalar_int(s + 1)), [&](auto t) {
    binary_typed<decltype(t)>(d, g, op, static_cast<Source>(ctx.scalar_int(s + 2)),
                              static_cast<Source>(ctx.scalar_int(s + 3)), ctx.scalar(s + 4),
                              ctx.scalar(s + 5));
  });
}

// scalars: op, type
void unary_op_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "UnaryOpTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  with_type(dtype_of(ctx.scalar_int(s + 1)),
            [&](auto t) { unary_typed<decltype(t)>(d, g, static_cast<Op>(ctx.scalar_int(s))); });
}

// scalars: from type, to type
void convert_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "ConvertTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto from) {
    with_type(dtype_of(ctx.scalar_int(s + 1)), [&](auto to) {
      using F = decltype(from);
      using T = decltype(to);
      launch(d, shape, convert_kernel<F, T>, shape, static_cast<const F*>(ctx.data<F>(0)),
             g.stride(0), ctx.data<T>(1), g.stride(1));
    });
  });
}

// stores: cond, [x], [y], out; scalars: type, x source, y source, x value, y value
void where_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "WhereTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    size_t arg = 1, future = 0;
    const Operand<T> x =
        operand<T>(g, static_cast<Source>(ctx.scalar_int(s + 1)), arg, future, ctx.scalar(s + 3));
    const Operand<T> y =
        operand<T>(g, static_cast<Source>(ctx.scalar_int(s + 2)), arg, future, ctx.scalar(s + 4));
    launch(d, shape, where_kernel<T>, shape, static_cast<const uint8_t*>(ctx.data<uint8_t>(0)),
           g.stride(0), x, y, ctx.data<T>(arg), g.stride(arg));
  });
}

// stores: a (read-write), mask, [values]; scalars: type, op, value source, value
void putmask_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "PutmaskTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const Op op = static_cast<Op>(ctx.scalar_int(s + 1));
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    size_t arg = 2, future = 0;
    const Operand<T> v =
        operand<T>(g, static_cast<Source>(ctx.scalar_int(s + 2)), arg, future, ctx.scalar(s + 3));
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
      case Op::Div:
        return run(DivOp{});
      default:
        break;
    }
    throw std::logic_error("PutmaskTask: unknown operator");
  });
}

// stores: out; scalars: type, value source, value
void fill_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "FillTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const bool future = static_cast<Source>(ctx.scalar_int(s + 1)) == Source::Future;
  const double v = future ? ctx.future(0) : ctx.scalar(s + 2);
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    launch(d, shape, fill_kernel<T>, shape, ctx.data<T>(0), g.stride(0), static_cast<T>(v));
  });
}

// stores: a; scalars: reduction, type. The point's result goes to the future:
// int64 for count_nonzero and for integer and bool arrays, else double.
void reduce_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "ScalarUnaryRedTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const auto red = static_cast<Reduction>(ctx.scalar_int(s));
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(s + 1)), [&](auto t) {
    using T = decltype(t);
    const T* a = ctx.data<T>(0);
    const int64_t as = g.stride(0);
    const auto run = [&](auto map, auto combine, auto identity) {
      using Acc = decltype(identity);
      return reduce_on_gpu<Acc>(
          d, shape.size(), combine, identity, [&](unsigned blocks, Acc* partials) {
            reduce_kernel<Acc>
                <<<blocks, kThreads, 0, d.stream>>>(shape, a, as, map, combine, identity, partials);
          });
    };
    if (red == Reduction::CountNonzero) return ctx.result(run(NonzeroOf{}, Plus{}, int64_t{0}));
    using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    constexpr Acc most = std::is_integral_v<T> ? std::numeric_limits<Acc>::max()
                                               : std::numeric_limits<Acc>::infinity();
    constexpr Acc least = std::is_integral_v<T> ? std::numeric_limits<Acc>::lowest()
                                                : -std::numeric_limits<Acc>::infinity();
    switch (red) {
      case Reduction::Sum:
        return ctx.result(run(ValueOf<Acc>{}, Plus{}, Acc(0)));
      case Reduction::Min:
        return ctx.result(run(ValueOf<Acc>{}, Smaller{}, most));
      case Reduction::Max:
        return ctx.result(run(ValueOf<Acc>{}, Larger{}, least));
      default:
        break;
    }
    throw std::logic_error("ScalarUnaryRedTask: unknown reduction");
  });
}

// stores: a, b; scalars: type. The result: int64 for integers and bools, else double.
void dot_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "DotTask");
  const Rows g(ctx);
  const Shape shape = shape_of(g);
  with_type(dtype_of(ctx.scalar_int(g.first_scalar())), [&](auto t) {
    using T = decltype(t);
    using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    const T* a = ctx.data<T>(0);
    const T* b = ctx.data<T>(1);
    const int64_t as = g.stride(0), bs = g.stride(1);
    ctx.result(
        reduce_on_gpu<Acc>(d, shape.size(), Plus{}, Acc(0), [&](unsigned blocks, Acc* partials) {
          dot_kernel<Acc, T><<<blocks, kThreads, 0, d.stream>>>(shape, a, as, b, bs, partials);
        }));
  });
}

// stores: A (rows), x (whole), y (one element per row); scalars: type
void matvec_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "MatVecMulTask");
  const Rows g(ctx);
  const int64_t rows = g.rows, cols = g.cols;
  if (rows == 0) return;
  with_type(dtype_of(ctx.scalar_int(g.first_scalar())), [&](auto t) {
    using T = decltype(t);
    using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
    const T* a = ctx.data<T>(0);
    const T* x = ctx.data<T>(1);
    T* y = ctx.data<T>(2);
    const int64_t as = g.stride(0), ys = g.stride(2);
    if (cols < kWarpRowCols) {
      const unsigned blocks = blocks_for(rows * 32, d.sms * kBlocksPerSm);
      matvec_warp_kernel<Acc><<<blocks, kThreads, 0, d.stream>>>(rows, cols, a, as, x, y, ys);
      return check(cudaGetLastError(), d.task, "kernel launch");
    }
    // Wide rows: a block per row, and when the rows are too few to fill the
    // GPU, several blocks per row whose partials a second kernel adds up.
    int64_t slots = 0;
    Acc* partials = scratch_slots<Acc>(d, slots);
    const int64_t wanted = d.sms * kReduceBlocksPerSm;
    int64_t chunks = 1;
    if (rows < wanted) {
      chunks = std::min(
          {(wanted + rows - 1) / rows, (cols + 4 * kThreads - 1) / (4 * kThreads), slots / rows});
      chunks = std::max<int64_t>(chunks, 1);
    }
    const dim3 grid(static_cast<unsigned>(chunks),
                    static_cast<unsigned>(std::min<int64_t>(rows, 65535)));
    matvec_block_kernel<Acc>
        <<<grid, kThreads, 0, d.stream>>>(rows, cols, a, as, x, y, ys, partials);
    check(cudaGetLastError(), d.task, "kernel launch");
    if (chunks > 1) {
      const unsigned blocks = blocks_for(rows * 32, d.sms * kBlocksPerSm);
      matvec_finish_kernel<<<blocks, kThreads, 0, d.stream>>>(
          rows, chunks, static_cast<const Acc*>(partials), y, ys);
      check(cudaGetLastError(), d.task, "kernel launch");
    }
  });
}

}  // namespace legato::rt::kernels
