#include "runtime/ranks/gpu_sharing.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include <unistd.h>

#include "recorder/recorder.hpp"
#include "runtime/core/gpus.hpp"
#include "runtime/gpu/device.hpp"
#include "runtime/ranks/comm.hpp"

namespace legato::rt {
namespace {

// "0", "0 and 1", "0, 1, 2 and 3".
std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) out += i + 1 == ranks.size() ? " and " : ", ";
    out += std::to_string(ranks[i]);
  }
  return out;
}

}  // namespace

std::string gpu_identity(int device) {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  return std::string(host) + " " + gpu::pci_bus_id(device);
}

nlohmann::json SharedGpu::to_json() const {
  return {{"gpu", gpu}, {"ranks", ranks}, {"mps", mps ? nlohmann::json(*mps) : nullptr}};
}

std::string SharedGpu::warning() const {
  return "ranks " + rank_list(ranks) + " share one GPU (" + gpu +
         ") without CUDA MPS, so the GPU runs one rank's work at a time and each rank's kernels "
         "wait for the others' turns; start MPS before the run (nvidia-cuda-mps-control -d; "
         "stop it afterwards with: echo quit | nvidia-cuda-mps-control), or run no more ranks "
         "on a node than it has GPUs";
}

std::string gpus_to_wire(const std::vector<RankGpu>& gpus) {
  std::string wire;
  for (const RankGpu& g : gpus) wire += (g.mps ? (*g.mps ? 'M' : '-') : '?') + g.gpu + '\n';
  return wire;
}

std::vector<RankGpu> gpus_from_wire(const std::string& wire) {
  std::vector<RankGpu> gpus;
  std::istringstream in(wire);
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 2) continue;
    RankGpu g{line.substr(1), std::nullopt};
    if (line[0] == 'M') g.mps = true;
    if (line[0] == '-') g.mps = false;
    gpus.push_back(std::move(g));
  }
  return gpus;
}

std::vector<SharedGpu> shared_gpus(const std::vector<std::vector<RankGpu>>& ranks) {
  std::vector<SharedGpu> all;
  std::map<std::string, size_t> index;  // identity -> entry of `all`
  for (size_t r = 0; r < ranks.size(); ++r) {
    for (const RankGpu& g : ranks[r]) {
      const auto [it, fresh] = index.emplace(g.gpu, all.size());
      if (fresh) all.push_back({g.gpu, {}, true});
      SharedGpu& s = all[it->second];
      if (s.ranks.empty() || s.ranks.back() != static_cast<int>(r))
        s.ranks.push_back(static_cast<int>(r));
      if (!g.mps.has_value() && s.mps != false) s.mps.reset();
      if (g.mps == false) s.mps = false;
    }
  }
  std::vector<SharedGpu> shared;
  for (SharedGpu& s : all)
    if (s.ranks.size() > 1) shared.push_back(std::move(s));
  return shared;
}

void check_gpu_sharing(Gpus& gpus) {
  // Nothing here may throw before the exchange: the other ranks wait in it.
  std::vector<RankGpu> mine;
  for (size_t i = 0; i < gpus.count(); ++i) {
    const int device = gpus.at(i).device;
    RankGpu g;
    try {
      g.gpu = gpu_identity(device);
    } catch (const gpu::DeviceError&) {
      continue;  // a GPU CUDA cannot name cannot be matched with other ranks'
    }
    try {
      g.mps = gpu::mps_enabled(device);
    } catch (const gpu::DeviceError&) {
      // A driver older than the attribute: unknown, and no warning.
    }
    mine.push_back(std::move(g));
  }
  std::vector<std::vector<RankGpu>> ranks;
  for (const std::string& wire : comm::all_gather(gpus_to_wire(mine)))
    ranks.push_back(gpus_from_wire(wire));
  const int me = comm::rank();
  nlohmann::json recorded = nlohmann::json::array();
  for (const SharedGpu& s : shared_gpus(ranks)) {
    if (std::find(s.ranks.begin(), s.ranks.end(), me) == s.ranks.end()) continue;
    recorded.push_back(s.to_json());
    if (s.mps == false && s.ranks.front() == me)
      std::fprintf(stderr, "legato: warning: %s\n", s.warning().c_str());
  }
  if (rec::active()) rec::set_metadata("gpu_sharing", recorded);
}

}  // namespace legato::rt
