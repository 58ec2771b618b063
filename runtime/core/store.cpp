#include "runtime/core/store.hpp"

#include <algorithm>

#include "runtime/core/provenance.hpp"

namespace legato::rt {

StoreImpl::StoreImpl(uint64_t i, int64_t n, DType t, std::string nm, const Provenance& w)
    : id(i),
      size(n),
      type(t),
      elem_size(dtype_size(t)),
      name(std::move(nm)),
      where(w),
      provenance(w.text) {}

StoreInstance* StoreImpl::smallest_covering(Range r, const MemoryPool* memory) const {
  StoreInstance* best = nullptr;
  for (auto it = by_lo_.upper_bound(r.lo); it != by_lo_.begin();) {
    --it;
    if (it->first < r.hi - longest_) break;
    const StoreInstance* inst = it->second;
    if (inst->memory == memory && inst->covered.contains(r) &&
        (best == nullptr || inst->bytes < best->bytes)) {
      best = it->second;
    }
  }
  return best;
}

Range StoreImpl::overlapping_span(Range r, const MemoryPool* memory) const {
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [lo, inst] : by_lo_) {
      if (inst->memory != memory || !inst->covered.overlaps(r)) continue;
      const Range wider{std::min(r.lo, inst->covered.lo), std::max(r.hi, inst->covered.hi)};
      grew = grew || wider != r;
      r = wider;
    }
  }
  return r;
}

void StoreImpl::retire_overlapping(Range r, const MemoryPool* memory,
                                   std::vector<StoreInstance*>& retired) {
  for (auto it = by_lo_.begin(); it != by_lo_.end();) {
    StoreInstance* inst = it->second;
    if (inst->memory != memory || !inst->covered.overlaps(r)) {
      ++it;
      continue;
    }
    inst->retired = true;
    retired.push_back(inst);
    it = by_lo_.erase(it);
  }
}

bool StoreImpl::take_instance(StoreInstance* inst, std::unique_ptr<StoreInstance>& out) {
  auto it = std::find_if(instances.begin(), instances.end(),
                         [&](const std::unique_ptr<StoreInstance>& i) { return i.get() == inst; });
  if (it == instances.end()) return false;
  out = std::move(*it);
  instances.erase(it);
  return true;
}

StoreInstance* StoreImpl::add_instance(std::unique_ptr<StoreInstance> inst) {
  StoreInstance* raw = inst.get();
  by_lo_.emplace(raw->covered.lo, raw);
  longest_ = std::max(longest_, raw->covered.size());
  instances.push_back(std::move(inst));
  return raw;
}

void StoreImpl::clear_instances(std::vector<std::unique_ptr<StoreInstance>>& out) {
  out.swap(instances);
  by_lo_.clear();
  longest_ = 0;
}

}  // namespace legato::rt
