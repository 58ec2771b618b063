// CUDA builds: asks the CUDA runtime (statically linked; it loads the driver
// itself, so binaries still start where there is none).
#include <cuda_runtime_api.h>

#include "runtime/gpu/device.hpp"
#include "runtime/gpu/probe.hpp"

namespace legato::rt::gpu {

Probe probe() {
  Probe p;
  prefer_eager_module_loading();  // this is often the first CUDA call
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    p.problem = std::string("CUDA: cudaGetDeviceCount failed with ") + cudaGetErrorName(e) + ": " +
                cudaGetErrorString(e) +
                "; on a machine with an NVIDIA GPU, install or load its driver (nvidia-smi "
                "should list the GPU)";
    return p;
  }
  if (count == 0) {
    p.problem = "CUDA finds no GPU on this machine";
    return p;
  }
  p.devices = count;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    const bool known = cudaGetDeviceProperties(&prop, d) == cudaSuccess;
    p.names.push_back(known ? prop.name : "?");
    p.memory.push_back(known ? prop.totalGlobalMem : 0);
  }
  return p;
}

}  // namespace legato::rt::gpu
