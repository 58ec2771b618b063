#include "runtime/ranks/mpi_allreduce.hpp"

namespace legato::rt {
namespace {

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::Prod:
      return MPI_PROD;
    case ReduceOp::Min:
      return MPI_MIN;
    case ReduceOp::Max:
      return MPI_MAX;
    default:
      return MPI_SUM;
  }
}

}  // namespace

int post_mpi_allreduce(Scalar& in, Scalar& out, ReduceOp op, MPI_Request* request) {
  out = in;
  const bool exact = in.type == DType::I64;
  return MPI_Iallreduce(exact ? static_cast<void*>(&in.i) : &in.f,
                        exact ? static_cast<void*>(&out.i) : &out.f, 1,
                        exact ? MPI_INT64_T : MPI_DOUBLE, mpi_op(op), MPI_COMM_WORLD, request);
}

}  // namespace legato::rt
