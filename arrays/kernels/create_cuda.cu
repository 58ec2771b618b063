// CUDA variants of the kernels that make data: arange and random numbers,
// the same bits as their CPU variants (create_cpu.cpp), so a GPU run makes
// its inputs on the GPU instead of on the CPUs and copying them over.
#include "arrays/kernels/cuda_support.cuh"
#include "arrays/kernels/random_bits.hpp"
#include "arrays/kernels/variants.hpp"

namespace legato::rt::kernels {
namespace {

using cuda::for_each;
using cuda::Shape;

template <class T>
__global__ void __launch_bounds__(cuda::kThreads)
    arange_kernel(Shape s, T* out, int64_t lo, double start, double step) {
  // Rounded as the CPU rounds: a multiply, then an add, never fused.
  for_each(s, [&](int64_t, int64_t i) {
    out[i] = static_cast<T>(__dadd_rn(start, __dmul_rn(static_cast<double>(lo + i), step)));
  });
}

template <class T>
__global__ void __launch_bounds__(cuda::kThreads)
    random_kernel(Shape s, T* out, uint64_t lo, uint64_t seed, uint64_t stream) {
  for_each(s, [&](int64_t, int64_t i) {
    out[i] = random_value<T>(random_bits(seed, stream, lo + static_cast<uint64_t>(i)));
  });
}

}  // namespace

void arange_gpu(TaskContext& ctx) {
  const cuda::Gpu d = cuda::gpu_of(ctx, "ArangeTask");
  const Rows g(ctx);
  const auto args = unpack<ArangeArgs>(ctx);
  const double start = args.start, step = args.step;
  const Shape shape{1, g.cols, false};
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    cuda::launch(d, shape, arange_kernel<T>, shape, ctx.data<T>(0), ctx.domain().lo, start, step);
  });
}

void random_gpu(TaskContext& ctx) {
  const cuda::Gpu d = cuda::gpu_of(ctx, "RandTask");
  const Rows g(ctx);
  const auto args = unpack<RandomArgs>(ctx);
  const uint64_t seed = args.seed, stream = args.stream;
  const Shape shape{1, g.cols, false};
  with_type(args.type, [&](auto t) {
    using T = decltype(t);
    cuda::launch(d, shape, random_kernel<T>, shape, ctx.data<T>(0),
                 static_cast<uint64_t>(ctx.domain().lo), seed, stream);
  });
}

}  // namespace legato::rt::kernels
