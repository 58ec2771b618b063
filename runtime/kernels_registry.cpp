#include <mutex>

#include "runtime/kernels_impl.hpp"

namespace legato::rt::kernels {

const Tasks& tasks() {
  static std::mutex mu;
  static Tasks t;
  static uint64_t registered_for = 0;
  std::lock_guard lock(mu);
  if (registered_for != epoch()) {
    t.binary = register_task("BinaryOpTask", binary_op_task);
    t.unary = register_task("UnaryOpTask", unary_op_task);
    t.convert = register_task("ConvertTask", convert_task);
    t.where = register_task("WhereTask", where_task);
    t.putmask = register_task("PutmaskTask", putmask_task);
    t.fill = register_task("FillTask", fill_task);
    t.reduce = register_task("ScalarUnaryRedTask", reduce_task);
    t.dot = register_task("DotTask", dot_task);
    t.matvec = register_task("MatVecMulTask", matvec_task);
    t.arange = register_task("ArangeTask", arange_task);
    t.eye = register_task("EyeTask", eye_task);
    t.diag_set = register_task("DiagTask", diag_set_task);
    t.diag_get = register_task("DiagExtractTask", diag_get_task);
    t.random = register_task("RandTask", random_task);
    t.readback = register_task("ReadbackTask", readback_task);
    t.scalar = register_task("ScalarBinaryOpTask", scalar_op_task);
    t.nonzero = register_task("NonzeroTask", nonzero_task);
    registered_for = epoch();
  }
  return t;
}

}  // namespace legato::rt::kernels
