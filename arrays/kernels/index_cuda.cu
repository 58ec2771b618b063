// GPU variant of nonzero (index_cpu.cpp): the positions of an array's
// non-zero elements, in row-major order, as CUDA kernels on the task's stream.
//
// The elements are cut into one run per block. A first kernel counts each
// run's non-zeros into the GPU's scratch; a second finds where its run's
// positions start (the counts of the runs before it) and writes them tile by
// tile, each thread's place within the tile taken from the warps' ballots,
// so the order is the CPU variant's whatever the schedule.
#include <cstdint>
#include <string>

#include "arrays/kernels/cuda_support.cuh"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {
namespace {

using namespace cuda;

// The array read by position: `rows` rows of `cols`, row starts `stride`
// apart (one long row when they lie end to end).
template <class T>
struct Elements {
  const T* data;
  int64_t count, cols, stride;
  __device__ bool nonzero(int64_t e) const {
    const T x = stride == cols ? data[e] : data[(e / cols) * stride + e % cols];
    return x != T(0);
  }
};

// Run b of the elements: [b * per, min(count, (b + 1) * per)).
struct Run {
  int64_t lo, hi;
};
__device__ __forceinline__ Run run_of(int64_t per, int64_t count) {
  const int64_t lo = static_cast<int64_t>(blockIdx.x) * per;
  return {lo, lo + per < count ? lo + per : count};
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    count_kernel(Elements<T> a, int64_t per, int64_t* counts) {
  const Run run = run_of(per, a.count);
  int64_t n = 0;
  for (int64_t e = run.lo + threadIdx.x; e < run.hi; e += blockDim.x) n += a.nonzero(e) ? 1 : 0;
  n = block_reduce(n, Plus{}, int64_t{0});
  if (threadIdx.x == 0) counts[blockIdx.x] = n;
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    write_kernel(Elements<T> a, int64_t per, const int64_t* counts, int64_t* out,
                 int64_t out_size) {
  __shared__ int64_t run_start;
  __shared__ int warp_counts[kWarps];
  int64_t before = 0;
  for (int64_t b = threadIdx.x; b < static_cast<int64_t>(blockIdx.x); b += blockDim.x)
    before += counts[b];
  before = block_reduce(before, Plus{}, int64_t{0});
  if (threadIdx.x == 0) run_start = before;
  __syncthreads();
  int64_t next = run_start;  // where the tile's first position goes
  const Run run = run_of(per, a.count);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int64_t tile = run.lo; tile < run.hi; tile += kThreads) {  // the same tiles block-wide
    const int64_t e = tile + threadIdx.x;
    const bool hit = e < run.hi && a.nonzero(e);
    const unsigned ballot = __ballot_sync(0xffffffffu, hit);
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int64_t ahead = 0, total = 0;  // hits of the warps before this one, of the tile
    for (unsigned w = 0; w < unsigned{kWarps}; ++w) {
      if (w < warp) ahead += warp_counts[w];
      total += warp_counts[w];
    }
    const int64_t at = next + ahead + __popc(ballot & ((1u << lane) - 1u));
    if (hit && at < out_size) out[at] = e;
    next += total;
    __syncthreads();  // warp_counts is written again for the next tile
  }
}

// A point's elements as one run of positions: rows end to end, or rows
// `stride` apart.
template <class T>
Elements<T> elements_of(const Rows& g) {
  const int64_t stride = g.rows <= 1 ? g.cols : g.stride(0);
  return {g.ctx.data<T>(0), g.rows * g.cols, g.cols, stride};
}

}  // namespace

// out gets as many positions as a has non-zeros.
void nonzero_gpu(TaskContext& ctx) {
  const Gpu d = gpu_of(ctx, "NonzeroTask");
  const Rows g(ctx);
  int64_t* out = ctx.data<int64_t>(1);
  const int64_t out_size = ctx.range(1).size();
  with_type(unpack<NonzeroArgs>(ctx).type, [&](auto t) {
    using T = decltype(t);
    const Elements<T> a = elements_of<T>(g);
    if (a.count == 0 || out_size == 0) return;
    const int64_t slots = static_cast<int64_t>(d.res->scratch_bytes / sizeof(int64_t));
    if (d.res->scratch == nullptr || slots < 1) {
      throw std::logic_error("NonzeroTask: the GPU's scratch is missing or too small (" +
                             std::to_string(d.res->scratch_bytes) + " bytes)");
    }
    int64_t* counts = reinterpret_cast<int64_t*>(d.res->scratch);
    const int64_t wanted = blocks_for(a.count, std::min(d.sms * kReduceBlocksPerSm, slots));
    const int64_t per = ((a.count + wanted - 1) / wanted + kThreads - 1) / kThreads * kThreads;
    const auto blocks = static_cast<unsigned>((a.count + per - 1) / per);
    count_kernel<T><<<blocks, kThreads, 0, d.stream>>>(a, per, counts);
    check(cudaGetLastError(), d.task, "kernel launch");
    write_kernel<T><<<blocks, kThreads, 0, d.stream>>>(a, per, counts, out, out_size);
    check(cudaGetLastError(), d.task, "kernel launch");
  });
}

}  // namespace legato::rt::kernels
