// CUPTI activity collection for a profiled GPU run. libcupti is loaded at
// run time (dlopen), never linked: binaries start on machines without it or
// without a driver, and then run with an empty GPU Device lane. While the
// collector runs, CUPTI records each kernel and memory copy with the
// correlation id of the API call that issued it, and (external correlation)
// ties that id to the Legato uid pushed around the call. Records come in
// buffers some time later; they are decoded as they come and kept until
// finish(), when the GPU clock samples give the fit that puts them on the
// recorder's clock and they are matched to their items.
//
// CUPTI has one activity client per process: one collector at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/gpu/activity.hpp"
#include "runtime/gpu/clock_fit.hpp"
#include "trace_format/records.hpp"

namespace legato::rt::gpu {

class Collector {
 public:
  // Loads CUPTI and enables kernel (concurrent kernel), memcpy and external-correlation
  // activity. Returns null and sets *problem (what failed, in words, with what to do) when
  // CUPTI cannot be loaded or enabled.
  static std::unique_ptr<Collector> start(std::string* problem);
  ~Collector();
  // Around the CUDA calls one item makes on this thread (a GPU task body, a device copy):
  // CUPTI tags what they launch with the item's uid.
  void push(trace::Uid item);
  void pop();
  // One GPU clock reading (cuptiGetTimestamp) between two recorder ticks. The collector takes
  // one at start and at finish; the runtime calls it now and then (cheap, thread-safe).
  void sample_clock();
  struct Result {
    std::vector<trace::GpuKernelRecord> kernels;
    std::vector<DeviceCopyTiming> copies;
    ClockFit fit;
    uint64_t matched = 0, unmatched = 0, dropped = 0;  // dropped: records CUPTI lost
  };
  // Flushes CUPTI's buffers, fits the clock, matches everything and stops collecting.
  // The devices' work must be complete (streams synchronized): CUPTI's flush
  // does not wait for it. Kernels and copies CUPTI delivered without times
  // count as dropped. Call once; later calls return an empty result.
  Result finish(const std::function<uint32_t(uint32_t)>& device_lane);

  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

 private:
  struct State;  // per build: CUPTI's entry points, the log, the samples
  explicit Collector(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  friend struct CollectorAccess;  // collector_cuda.cpp: starting with given entry points
};

}  // namespace legato::rt::gpu
