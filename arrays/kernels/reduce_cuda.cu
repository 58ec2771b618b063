// GPU variants of the reductions, dot and matrix-vector product
// (reduce_cpu.cpp) as CUDA kernels on the task's stream.
//
// Reductions run in two passes: each block folds its share into a partial in
// the GPU's scratch, then one block folds the partials into the first scratch
// slot, which comes back through the pinned host scratch. They accumulate as
// the CPU variants do (int64 for integers and bools, wrapping; double for
// floats) and return the same result types.
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

// Integer products wrap, as sums do (add).
template <class Acc>
__device__ __forceinline__ Acc mul(Acc x, Acc y) {
  if constexpr (std::is_integral_v<Acc>) {
    return static_cast<Acc>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  } else {
    return x * y;
  }
}

// The folds, as the CPU variants write them (cpu_support.hpp): a NaN on
// either side wins, as in NumPy, so the order of the fold does not matter.
struct Smaller {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return min_nan(acc, x);
  }
};
struct Larger {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return max_nan(acc, x);
  }
};

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

}  // namespace

// The point's result: int64 for count_nonzero and for integer and bool
// arrays, else double.
void reduce_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "ScalarUnaryRedTask");
  const Rows g(ctx);
  const auto args = unpack<ReduceArgs>(ctx);
  const Reduction red = args.reduction;
  const Shape shape = shape_of(g);
  with_type(args.type, [&](auto t) {
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
    using Acc = Accumulator<T>;
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

// The result: int64 for integers and bools, else double.
void dot_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "DotTask");
  const Rows g(ctx);
  const Shape shape = shape_of(g);
  with_type(unpack<DotArgs>(ctx).type, [&](auto t) {
    using T = decltype(t);
    using Acc = Accumulator<T>;
    const T* a = ctx.data<T>(0);
    const T* b = ctx.data<T>(1);
    const int64_t as = g.stride(0), bs = g.stride(1);
    ctx.result(
        reduce_on_gpu<Acc>(d, shape.size(), Plus{}, Acc(0), [&](unsigned blocks, Acc* partials) {
          dot_kernel<Acc, T><<<blocks, kThreads, 0, d.stream>>>(shape, a, as, b, bs, partials);
        }));
  });
}

void matvec_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "MatVecMulTask");
  const Rows g(ctx);
  const int64_t rows = g.rows, cols = g.cols;
  if (rows == 0) return;
  with_type(unpack<MatVecArgs>(ctx).type, [&](auto t) {
    using T = decltype(t);
    using Acc = Accumulator<T>;
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
