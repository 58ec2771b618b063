// Builds without the CUDA toolkit: no NVTX; the configuration refuses --nsys.
#include "runtime/gpu/nvtx.hpp"

namespace legato::rt::gpu {

bool nvtx_available() {
  return false;
}

NvtxRange::NvtxRange(bool, const char*) : on_(false) {}

NvtxRange::~NvtxRange() = default;

}  // namespace legato::rt::gpu
