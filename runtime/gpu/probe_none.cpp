// Builds without the CUDA toolkit.
#include "runtime/gpu/probe.hpp"

namespace legato::rt::gpu {

Probe probe() {
  Probe p;
  p.problem =
      "this build of Legato has no CUDA support (no CUDA toolkit was found when it was built; "
      "rebuild with the toolkit under /usr/local/cuda or -DCUDAToolkit_ROOT=<dir>)";
  return p;
}

}  // namespace legato::rt::gpu
