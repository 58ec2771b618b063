// Results of GPU runs of several ranks (sums, minima, dot products)
// combined across the ranks with NCCL, bootstrapped through MPI, on each
// rank's first GPU. Every rank must be able to: NCCL loads everywhere and
// no two ranks share a GPU (NCCL takes one rank per GPU). Otherwise the
// run combines them over MPI, and rank 0 says why.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/gpu/nccl.hpp"
#include "runtime/types.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class Gpus;
struct GpuProcessor;

// One rank's answer to "can you combine results with NCCL?": yes, with its
// GPU's identity (host and PCI bus id), or no, with why not. Ranks exchange
// them as text (to_wire, from_wire; a rank that sent nothing said no).
struct NcclAnswer {
  bool can = false;
  std::string detail;  // the GPU's identity, or why not
  std::string to_wire() const;
  static NcclAnswer from_wire(const std::string& wire);
};

class GpuCollectives {
 public:
  // Collective: every rank of a run with GPUs calls it.
  static std::unique_ptr<GpuCollectives> start(Gpus& gpus);
  ~GpuCollectives();

  // Why the ranks cannot use NCCL ("" when they can), from every rank's answer.
  static std::string refusal(const std::vector<NcclAnswer>& answers);

  // The network thread's side, one all-reduce at a time: post() queues the
  // value's way in, the all-reduce and the way out on the GPU's stream
  // (tagged with `item` for CUPTI); done() says whether it is over, and
  // result() is then the combined value. Both throw gpu::DeviceError.
  void post(const Scalar& in, ReduceOp op, trace::Uid item);
  bool done();
  Scalar result() const;

  // "NCCL 2.28.3 on fbmem0", for the channel's name.
  std::string description() const;
  // The memory the values are combined in (the GPU's framebuffer).
  uint32_t memory_id() const;

 private:
  GpuCollectives(Gpus& gpus, GpuProcessor& gpu, std::unique_ptr<gpu::Nccl> nccl);

  Gpus& gpus_;
  GpuProcessor& gpu_;
  std::unique_ptr<gpu::Nccl> nccl_;
  gpu::Stream stream_ = nullptr;
  std::byte* device_ = nullptr;  // the value in, then the combined value
  std::byte* host_ = nullptr;    // pinned: the same two
  DType type_ = DType::F64;
};

}  // namespace legato::rt
