// What the CUDA variants of the array kernels share (*_cuda.cu):
// launch sizes, CUDA error checks, the task's GPU, the walk of a point's
// elements (rows of an elementwise task's arguments) by a grid-stride loop,
// and folds of a value over a warp or a block.
//
// Elementwise kernels are grid-stride loops of 256-thread blocks, at most 32
// blocks per SM (four waves of full occupancy; larger arrays loop). Rows that
// lie end to end in every argument are walked as one long row; otherwise a
// thread walks (row, column) pairs, stepping both without dividing.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "arrays/kernels/cpu_support.hpp"

namespace legato::rt::kernels::cuda {

constexpr int kThreads = 256;              // threads per block
constexpr int kWarps = kThreads / 32;      // warps per block
constexpr int64_t kBlocksPerSm = 32;       // elementwise grids: at most four full waves
constexpr int64_t kReduceBlocksPerSm = 8;  // first reduction pass: one full wave
constexpr int64_t kWarpRowCols = 2048;     // matvec: a warp per row below this width

// --- errors, the GPU of the task, launches ---

[[noreturn]] inline void fail(const char* task, const char* what, cudaError_t e) {
  throw std::runtime_error(std::string(task) + " (GPU variant): " + what +
                           " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

inline void check(cudaError_t e, const char* task, const char* what) {
  if (e != cudaSuccess) fail(task, what, e);
}

// The number of SMs of each device, asked of CUDA once.
inline int sm_count(int device, const char* task) {
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

inline Gpu gpu_of(const TaskContext& ctx, const char* task) {
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
inline Shape shape_of(const Rows& g) {
  if (g.rows <= 1) return {g.rows, g.cols, false};
  for (size_t a = 0; a < g.ctx.arguments(); ++a) {
    if (g.stride(a) != g.cols) return {g.rows, g.cols, true};
  }
  return {1, g.rows * g.cols, false};
}

inline unsigned blocks_for(int64_t n, int64_t cap) {
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

// The fold of sums.
struct Plus {
  template <class Acc>
  __device__ Acc operator()(Acc acc, Acc x) const {
    return add(acc, x);
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

}  // namespace legato::rt::kernels::cuda
