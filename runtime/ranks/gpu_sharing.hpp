// GPUs that several ranks of a run use at once (more ranks on a node than
// GPUs), and whether CUDA's Multi-Process Service (MPS) lets their work run
// side by side. Without MPS the GPU runs one process's context at a time, so
// every rank's kernels wait for the other ranks' turns: on an H100, four
// ranks of cg sharing one GPU took 7x longer per iteration without MPS than
// with it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace legato::rt {

class Gpus;

// A GPU as every rank names it: "host 0000:3b:00.0" (host name and PCI bus
// id), the same whatever CUDA_VISIBLE_DEVICES numbers it.
std::string gpu_identity(int device);

// One of a rank's GPUs: its identity and whether its contexts go through
// MPS (unknown when the driver could not say).
struct RankGpu {
  std::string gpu;
  std::optional<bool> mps;
};

// A GPU that two or more ranks use.
struct SharedGpu {
  std::string gpu;
  std::vector<int> ranks;  // ascending
  // true: every one of those ranks' contexts goes through MPS; false: at
  // least one does not; unknown: some rank could not say, none said no.
  std::optional<bool> mps;
  nlohmann::json to_json() const;  // {"gpu", "ranks", "mps" (null: unknown)}
  // "ranks 0, 1, 2 and 3 share one GPU (host 0000:3b:00.0) without CUDA MPS: ..."
  std::string warning() const;
};

// One rank's GPUs as text, for comm::all_gather, and back.
std::string gpus_to_wire(const std::vector<RankGpu>& gpus);
std::vector<RankGpu> gpus_from_wire(const std::string& wire);

// The GPUs two or more ranks use, in order of first use, from every rank's
// GPUs (index: rank).
std::vector<SharedGpu> shared_gpus(const std::vector<std::vector<RankGpu>>& ranks);

// Collective: every rank of a run with GPUs calls it. Each rank records the
// shared GPUs it uses in its trace's metadata ("gpu_sharing", when
// profiling; an empty list when it shares none, so tools can tell "none"
// from "not recorded"); the lowest rank of each GPU shared without MPS
// warns on stderr with what to do.
void check_gpu_sharing(Gpus& gpus);

}  // namespace legato::rt
