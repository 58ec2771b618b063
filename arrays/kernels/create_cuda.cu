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

// stores: out; scalars: type, start, step
void arange_gpu(TaskContext& ctx) {
  const cuda::Gpu d = cuda::gpu_of(ctx, "ArangeTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const double start = ctx.scalar(s + 1), step = ctx.scalar(s + 2);
  const Shape shape{1, g.cols, false};
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    cuda::launch(d, shape, arange_kernel<T>, shape, ctx.data<T>(0), ctx.domain().lo, start, step);
  });
}

// stores: out; scalars: type, seed, stream
void random_gpu(TaskContext& ctx) {
  const cuda::Gpu d = cuda::gpu_of(ctx, "RandTask");
  const Rows g(ctx);
  const size_t s = g.first_scalar();
  const auto seed = static_cast<uint64_t>(ctx.scalar_int(s + 1));
  const auto stream = static_cast<uint64_t>(ctx.scalar_int(s + 2));
  const Shape shape{1, g.cols, false};
  with_type(dtype_of(ctx.scalar_int(s)), [&](auto t) {
    using T = decltype(t);
    cuda::launch(d, shape, random_kernel<T>, shape, ctx.data<T>(0),
                 static_cast<uint64_t>(ctx.domain().lo), seed, stream);
  });
}

}  // namespace legato::rt::kernels
