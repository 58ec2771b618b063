// Device activity as CUPTI reports it (decoded from its activity records),
// matched to the Legato items that launched it and put on the recorder's
// clock: kernels become GPU Device lane records of their launching task,
// device copies become the device times of the copy items that issued them.
// CUPTI delivers activity in buffers some time after the work, and the
// record tying a CUPTI correlation id to a Legato uid (an external
// correlation) may come in a later buffer than the kernel it names: what
// cannot be matched yet waits, and counts as unmatched only at finish().
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/gpu/clock_fit.hpp"
#include "trace_format/records.hpp"

namespace legato::rt::gpu {

struct KernelActivity {
  uint32_t correlation = 0;
  uint64_t start = 0, end = 0;  // GPU clock, ns
  uint32_t device = 0, stream = 0;
  std::string name;
};

enum class CopyDirection : uint8_t {
  HostToDevice,
  DeviceToHost,
  DeviceToDevice,
  PeerToPeer,
  Other
};

struct CopyActivity {
  uint32_t correlation = 0;
  uint64_t start = 0, end = 0;  // GPU clock, ns
  uint64_t bytes = 0;
  CopyDirection direction = CopyDirection::Other;
  uint32_t device = 0, stream = 0;
};

// CUPTI's correlation id of an API call, and the uid Legato pushed as the
// external correlation around it (the launching task or copy item).
struct Correlation {
  uint32_t correlation = 0;
  trace::Uid item = 0;
};

// A device copy's times on the recorder's clock, for the copy item `item`.
struct DeviceCopyTiming {
  trace::Uid item = 0;
  uint64_t start_tick = 0, stop_tick = 0;
  uint64_t bytes = 0;
  CopyDirection direction = CopyDirection::Other;
};

class ActivityMatcher {
 public:
  // device_lane(device): the GPU Device processor lane of a CUDA device.
  ActivityMatcher(ClockFit fit, std::function<uint32_t(uint32_t)> device_lane);

  void add(const Correlation& c);
  void add(KernelActivity k);
  void add(const CopyActivity& c);

  // What matched since the last call, in arrival order.
  std::vector<trace::GpuKernelRecord> take_kernels();
  std::vector<DeviceCopyTiming> take_copies();
  // Gives up on activity whose correlation never came.
  void finish();

  uint64_t matched() const { return matched_; }
  uint64_t unmatched() const { return unmatched_; }
  uint64_t waiting() const { return kernels_waiting_.size() + copies_waiting_.size(); }
  const ClockFit& fit() const { return fit_; }

 private:
  void emit(const KernelActivity& k, trace::Uid item);
  void emit(const CopyActivity& c, trace::Uid item);
  // Emits `a` if its item is known, else keeps it waiting.
  template <class Activity>
  void offer(Activity a, std::vector<Activity>& waiting);
  // Offers again everything waiting (a correlation came).
  template <class Activity>
  void retry(std::vector<Activity>& waiting);

  ClockFit fit_;
  std::function<uint32_t(uint32_t)> device_lane_;
  std::unordered_map<uint32_t, trace::Uid> items_;  // correlation -> launching item
  std::vector<KernelActivity> kernels_waiting_;
  std::vector<CopyActivity> copies_waiting_;
  std::vector<trace::GpuKernelRecord> kernels_;
  std::vector<DeviceCopyTiming> copies_;
  uint64_t matched_ = 0, unmatched_ = 0;
};

// Gives the copy records of items that ran on a GPU the device's times of
// what they ran there (DMA copies, or the kernels of fills, gathers and
// scatters): from the first start to the last stop, never before the copy
// became ready (causal order). Records of items CUPTI saw nothing of keep
// their host times.
void apply_device_times(std::vector<trace::CopyRecord>& copies,
                        const std::vector<DeviceCopyTiming>& device_copies,
                        const std::vector<trace::GpuKernelRecord>& kernels);

}  // namespace legato::rt::gpu
