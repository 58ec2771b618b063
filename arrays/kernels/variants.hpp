// The task bodies of the array library, as CPU/CUDA pairs per concept:
// elementwise_{cpu.cpp,cuda.cu}, reduce_*, index_* (nonzero), create_*
// (arange and random numbers on both; eye and diagonals CPU only).
// registry.cpp registers them with the runtime.
//
// A CUDA variant (CUDA builds only) takes the same stores, scalars and futures
// as its CPU variant and gives the same results: bit for bit for the
// elementwise tasks, up to the order of the additions for sums, dot and
// matvec. Its stores are device pointers; its kernels run on
// TaskContext::gpu()->stream, and a scalar result comes back through the
// GPU's scratch before ctx.result(). CUDA errors are thrown as
// std::runtime_error, naming the task and the error.
#pragma once

#include <cstdint>

#include "runtime/legato.hpp"

namespace legato::rt::kernels {

// CPU variants.
void binary_op_task(TaskContext& ctx);
void unary_op_task(TaskContext& ctx);
void convert_task(TaskContext& ctx);
void where_task(TaskContext& ctx);
void putmask_task(TaskContext& ctx);
void fill_task(TaskContext& ctx);
void reduce_task(TaskContext& ctx);
void dot_task(TaskContext& ctx);
void matvec_task(TaskContext& ctx);
void readback_task(TaskContext& ctx);
void upload_task(TaskContext& ctx);
void scalar_op_task(TaskContext& ctx);
void arange_task(TaskContext& ctx);
void eye_task(TaskContext& ctx);
void diag_set_task(TaskContext& ctx);
void diag_get_task(TaskContext& ctx);
void random_task(TaskContext& ctx);
void nonzero_task(TaskContext& ctx);

// CUDA variants (defined in CUDA builds only).
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
void arange_gpu(TaskContext& ctx);
void random_gpu(TaskContext& ctx);

}  // namespace legato::rt::kernels
