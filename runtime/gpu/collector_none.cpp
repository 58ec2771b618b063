// Builds without the CUDA toolkit: no CUPTI, so no collector ever starts;
// the members exist for the runtime to link and never run.
#include "runtime/gpu/collector.hpp"

#include <utility>

namespace legato::rt::gpu {

struct Collector::State {};

std::unique_ptr<Collector> Collector::start(std::string* problem) {
  if (problem != nullptr) {
    *problem =
        "this build has no CUDA support, so no CUPTI; the GPU Device lane will be empty: build "
        "Legato with the CUDA toolkit to see kernels";
  }
  return nullptr;
}

Collector::Collector(std::unique_ptr<State> state) : state_(std::move(state)) {}

Collector::~Collector() = default;

void Collector::push(trace::Uid) {}

void Collector::pop() {}

void Collector::sample_clock() {}

Collector::Result Collector::finish(const std::function<uint32_t(uint32_t)>&) {
  return {};
}

}  // namespace legato::rt::gpu
