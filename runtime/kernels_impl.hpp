// The kernel bodies (kernels_*.cpp), registered by kernels_registry.cpp.
#pragma once

#include "runtime/kernel_support.hpp"

namespace legato::rt::kernels {

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
void scalar_op_task(TaskContext& ctx);
void arange_task(TaskContext& ctx);
void eye_task(TaskContext& ctx);
void diag_set_task(TaskContext& ctx);
void diag_get_task(TaskContext& ctx);
void random_task(TaskContext& ctx);
void nonzero_task(TaskContext& ctx);

// The random number the Generator gives element i of draw `stream` with `seed`.
uint64_t random_bits(uint64_t seed, uint64_t stream, uint64_t i);

}  // namespace legato::rt::kernels
