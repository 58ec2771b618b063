#include "runtime/gpu/activity.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>

#include "recorder/recorder.hpp"

namespace legato::rt::gpu {
namespace {

// CUPTI names kernels by their mangled C++ symbol: the trace shows what
// the source says ("void fill_kernel<double>(double*, double, long)").
std::string readable(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (d == nullptr) return name;
  std::string out = status == 0 ? d : name;
  std::free(d);
  return out;
}

}  // namespace

ActivityMatcher::ActivityMatcher(ClockFit fit, std::function<uint32_t(uint32_t)> device_lane)
    : fit_(fit), device_lane_(std::move(device_lane)) {}

void ActivityMatcher::add(const Correlation& c) {
  items_[c.correlation] = c.item;
  retry(kernels_waiting_);
  retry(copies_waiting_);
}

void ActivityMatcher::add(KernelActivity k) {
  offer(std::move(k), kernels_waiting_);
}

void ActivityMatcher::add(const CopyActivity& c) {
  offer(c, copies_waiting_);
}

template <class Activity>
void ActivityMatcher::offer(Activity a, std::vector<Activity>& waiting) {
  const auto it = items_.find(a.correlation);
  if (it == items_.end()) {
    waiting.push_back(std::move(a));
  } else {
    emit(a, it->second);
  }
}

template <class Activity>
void ActivityMatcher::retry(std::vector<Activity>& waiting) {
  std::vector<Activity> pending;
  pending.swap(waiting);
  for (Activity& a : pending) offer(std::move(a), waiting);
}

void ActivityMatcher::emit(const KernelActivity& k, trace::Uid item) {
  const uint64_t start = fit_.to_tick(k.start);
  const uint64_t stop = std::max(start, fit_.to_tick(k.end));
  kernels_.push_back(
      trace::GpuKernelRecord{item, device_lane_(k.device), rec::intern(readable(k.name)), k.stream,
                             rec::stamp(rec::Tick{start}), rec::stamp(rec::Tick{stop})});
  ++matched_;
}

void ActivityMatcher::emit(const CopyActivity& c, trace::Uid item) {
  const uint64_t start = fit_.to_tick(c.start);
  copies_.push_back(
      DeviceCopyTiming{item, start, std::max(start, fit_.to_tick(c.end)), c.bytes, c.direction});
  ++matched_;
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

void apply_device_times(std::vector<trace::CopyRecord>& copies,
                        const std::vector<DeviceCopyTiming>& device_copies,
                        const std::vector<trace::GpuKernelRecord>& kernels) {
  struct Span {
    uint64_t start, stop;
  };
  std::unordered_map<trace::Uid, Span> span;
  const auto widen = [&span](trace::Uid item, uint64_t start, uint64_t stop) {
    auto [it, added] = span.try_emplace(item, Span{start, stop});
    if (added) return;
    it->second.start = std::min(it->second.start, start);
    it->second.stop = std::max(it->second.stop, stop);
  };
  for (const DeviceCopyTiming& c : device_copies) widen(c.item, c.start_tick, c.stop_tick);
  for (const trace::GpuKernelRecord& k : kernels)
    widen(k.task, static_cast<uint64_t>(k.start), static_cast<uint64_t>(k.stop));
  for (trace::CopyRecord& r : copies) {
    const auto it = span.find(r.uid);
    if (it == span.end()) continue;
    r.start = std::max<trace::Time>(r.ready, rec::stamp(rec::Tick{it->second.start}));
    r.stop = std::max<trace::Time>(r.start, rec::stamp(rec::Tick{it->second.stop}));
  }
}

}  // namespace legato::rt::gpu
