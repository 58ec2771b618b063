// Builds without CUDA have no NCCL: GPU processors are refused at start.
#include "runtime/gpu/nccl.hpp"

namespace legato::rt::gpu {

std::unique_ptr<Nccl> Nccl::load(std::string* problem) {
  if (problem != nullptr) *problem = "this build of Legato has no CUDA support";
  return nullptr;
}

}  // namespace legato::rt::gpu
