// The MPI all-reduce of one result across the ranks (the network thread's,
// for runs without NCCL): exact for int64 values, in double otherwise.
#pragma once

#include <mpi.h>

#include "runtime/types.hpp"

namespace legato::rt {

// Posts a non-blocking all-reduce of `in` into `out` (out takes in's type)
// over every rank; returns MPI's code, and the request to test in *request.
int post_mpi_allreduce(Scalar& in, Scalar& out, ReduceOp op, MPI_Request* request);

}  // namespace legato::rt
