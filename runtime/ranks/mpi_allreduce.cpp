#include "runtime/ranks/mpi_allreduce.hpp"

namespace legato::rt {
namespace {

// MPI_MIN and MPI_MAX leave a NaN to the implementation's comparison (Open
// MPI keeps it on one side only); these let a NaN win, as the runtime's own
// folds do (types.cpp) and NumPy's minimum and maximum.
void nan_min(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = reduce_scalars(ReduceOp::Min, Scalar(b[i]), Scalar(a[i])).f;
}
void nan_max(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = reduce_scalars(ReduceOp::Max, Scalar(b[i]), Scalar(a[i])).f;
}

MPI_Op mpi_op(ReduceOp op, bool exact) {
  switch (op) {
    case ReduceOp::Prod:
      return MPI_PROD;
    case ReduceOp::Min:
      if (!exact) {
        static const MPI_Op min = [] {
          MPI_Op o = MPI_OP_NULL;
          MPI_Op_create(nan_min, 1, &o);
          return o;
        }();
        return min;
      }
      return MPI_MIN;
    case ReduceOp::Max:
      if (!exact) {
        static const MPI_Op max = [] {
          MPI_Op o = MPI_OP_NULL;
          MPI_Op_create(nan_max, 1, &o);
          return o;
        }();
        return max;
      }
      return MPI_MAX;
    default:
      return MPI_SUM;
  }
}

}  // namespace

int post_mpi_allreduce(Scalar& in, Scalar& out, ReduceOp op, MPI_Request* request) {
  out = in;
  const bool exact = in.type == DType::I64;
  return MPI_Iallreduce(
      exact ? static_cast<void*>(&in.i) : &in.f, exact ? static_cast<void*>(&out.i) : &out.f, 1,
      exact ? MPI_INT64_T : MPI_DOUBLE, mpi_op(op, exact), MPI_COMM_WORLD, request);
}

}  // namespace legato::rt
