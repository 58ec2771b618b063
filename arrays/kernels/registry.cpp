#include <mutex>

#include "arrays/kernels/tasks.hpp"
#include "arrays/kernels/variants.hpp"

// A task's CUDA variant (*_cuda.cu) in CUDA builds; elsewhere none, so
// the task is CPU-only.
#ifdef LEGATO_HAVE_CUDA
#define LEGATO_GPU_VARIANT(f) f
#else
#define LEGATO_GPU_VARIANT(f) nullptr
#endif

namespace legato::rt::kernels {

const Tasks& tasks() {
  static std::mutex mu;
  static Tasks t;
  static uint64_t registered_for = 0;
  std::lock_guard lock(mu);
  if (registered_for != epoch()) {
    t.binary = register_task("BinaryOpTask", binary_op_task, LEGATO_GPU_VARIANT(binary_op_gpu));
    t.unary = register_task("UnaryOpTask", unary_op_task, LEGATO_GPU_VARIANT(unary_op_gpu));
    t.convert = register_task("ConvertTask", convert_task, LEGATO_GPU_VARIANT(convert_gpu));
    t.where = register_task("WhereTask", where_task, LEGATO_GPU_VARIANT(where_gpu));
    t.putmask = register_task("PutmaskTask", putmask_task, LEGATO_GPU_VARIANT(putmask_gpu));
    t.fill = register_task("FillTask", fill_task, LEGATO_GPU_VARIANT(fill_gpu));
    t.reduce = register_task("ScalarUnaryRedTask", reduce_task, LEGATO_GPU_VARIANT(reduce_gpu));
    t.dot = register_task("DotTask", dot_task, LEGATO_GPU_VARIANT(dot_gpu));
    t.matvec = register_task("MatVecMulTask", matvec_task, LEGATO_GPU_VARIANT(matvec_gpu));
    t.arange = register_task("ArangeTask", arange_task, LEGATO_GPU_VARIANT(arange_gpu));
    t.eye = register_task("EyeTask", eye_task);
    t.diag_set = register_task("DiagTask", diag_set_task);
    t.diag_get = register_task("DiagExtractTask", diag_get_task);
    t.random = register_task("RandTask", random_task, LEGATO_GPU_VARIANT(random_gpu));
    t.readback = register_task("ReadbackTask", readback_task);
    t.upload = register_task("UploadTask", upload_task);
    t.scalar = register_task("ScalarBinaryOpTask", scalar_op_task);
    t.nonzero = register_task("NonzeroTask", nonzero_task, LEGATO_GPU_VARIANT(nonzero_gpu));
    registered_for = epoch();
  }
  return t;
}

}  // namespace legato::rt::kernels

#undef LEGATO_GPU_VARIANT
