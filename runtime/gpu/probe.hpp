// What this machine offers for GPU processors, asked only when a run wants
// GPUs (starting CUDA takes time): how many CUDA devices are usable, or why
// none are, in words for the --gpus error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace legato::rt::gpu {

struct Probe {
  int64_t devices = 0;             // CUDA devices the runtime can see
  std::vector<std::string> names;  // "NVIDIA H100 80GB HBM3", ...
  std::vector<uint64_t> memory;    // each device's memory, bytes
  std::string problem;             // why none can be used, when none can
};

Probe probe();

}  // namespace legato::rt::gpu
