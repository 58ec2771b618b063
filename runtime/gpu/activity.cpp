#include "runtime/gpu/activity.hpp"

#include <algorithm>

#include "recorder/recorder.hpp"

namespace legato::rt::gpu {

ActivityMatcher::ActivityMatcher(ClockFit fit, std::function<uint32_t(uint32_t)> device_lane)
    : fit_(fit), device_lane_(std::move(device_lane)) {}

void ActivityMatcher::add(const Correlation& c) {
  items_[c.correlation] = c.item;
  if (!kernels_waiting_.empty() || !copies_waiting_.empty()) retry();
}

void ActivityMatcher::add(KernelActivity k) {
  const auto it = items_.find(k.correlation);
  if (it == items_.end()) {
    kernels_waiting_.push_back(std::move(k));
  } else {
    emit(k, it->second);
  }
}

void ActivityMatcher::add(const CopyActivity& c) {
  const auto it = items_.find(c.correlation);
  if (it == items_.end()) {
    copies_waiting_.push_back(c);
  } else {
    emit(c, it->second);
  }
}

void ActivityMatcher::emit(const KernelActivity& k, trace::Uid item) {
  const uint64_t start = fit_.to_tick(k.start);
  const uint64_t stop = std::max(start, fit_.to_tick(k.end));
  kernels_.push_back(trace::GpuKernelRecord{item, device_lane_(k.device), rec::intern(k.name),
                                            k.stream, static_cast<trace::Time>(start),
                                            static_cast<trace::Time>(stop)});
  ++matched_;
}

void ActivityMatcher::emit(const CopyActivity& c, trace::Uid item) {
  const uint64_t start = fit_.to_tick(c.start);
  copies_.push_back(
      DeviceCopyTiming{item, start, std::max(start, fit_.to_tick(c.end)), c.bytes, c.direction});
  ++matched_;
}

void ActivityMatcher::retry() {
  const auto known = [&](uint32_t correlation) { return items_.count(correlation) != 0; };
  std::vector<KernelActivity> kernels;
  kernels.swap(kernels_waiting_);
  for (KernelActivity& k : kernels) {
    if (known(k.correlation)) {
      emit(k, items_[k.correlation]);
    } else {
      kernels_waiting_.push_back(std::move(k));
    }
  }
  std::vector<CopyActivity> copies;
  copies.swap(copies_waiting_);
  for (const CopyActivity& c : copies) {
    if (known(c.correlation)) {
      emit(c, items_[c.correlation]);
    } else {
      copies_waiting_.push_back(c);
    }
  }
}

std::vector<trace::GpuKernelRecord> ActivityMatcher::take_kernels() {
  std::vector<trace::GpuKernelRecord> out;
  out.swap(kernels_);
  return out;
}

std::vector<DeviceCopyTiming> ActivityMatcher::take_copies() {
  std::vector<DeviceCopyTiming> out;
  out.swap(copies_);
  return out;
}

void ActivityMatcher::finish() {
  unmatched_ += kernels_waiting_.size() + copies_waiting_.size();
  kernels_waiting_.clear();
  copies_waiting_.clear();
}

}  // namespace legato::rt::gpu
