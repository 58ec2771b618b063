// CUDA builds: NVTX v3 from the toolkit's headers.
#include <nvtx3/nvToolsExt.h>

#include "runtime/gpu/nvtx.hpp"

namespace legato::rt::gpu {

bool nvtx_available() {
  return true;
}

NvtxRange::NvtxRange(bool on, const char* name) : on_(on) {
  if (on_) nvtxRangePushA(name);
}

NvtxRange::~NvtxRange() {
  if (on_) nvtxRangePop();
}

}  // namespace legato::rt::gpu
