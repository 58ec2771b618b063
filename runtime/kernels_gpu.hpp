// The GPU variants of the array kernels (kernels_gpu_elementwise.cu, kernels_gpu_reduce.cu and
// kernels_gpu_index.cu, CUDA builds), which kernels_registry.cpp registers beside the CPU variants
// of kernels_impl.hpp. Each takes the same stores, scalars and futures as its CPU variant and gives
// the same results: bit for bit for the elementwise tasks, up to the order of the additions for
// sums, dot and matvec. Its stores are device pointers; its kernels run on
// TaskContext::gpu()->stream, and a scalar result comes back through the GPU's scratch before
// ctx.result(). CUDA errors are thrown as std::runtime_error, naming the task and the error.
#pragma once

#include "runtime/legato.hpp"

namespace legato::rt::kernels {

void binary_op_gpu(TaskContext& ctx);
void unary_op_gpu(TaskContext& ctx);
void convert_gpu(TaskContext& ctx);
void where_gpu(TaskContext& ctx);
void putmask_gpu(TaskContext& ctx);
void fill_gpu(TaskContext& ctx);
void reduce_gpu(TaskContext& ctx);
void dot_gpu(TaskContext& ctx);
void matvec_gpu(TaskContext& ctx);
void nonzero_gpu(TaskContext& ctx);

}  // namespace legato::rt::kernels
