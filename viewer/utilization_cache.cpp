#include "viewer/utilization_cache.hpp"

#include <algorithm>

namespace legato::viewer {

UtilizationCache::~UtilizationCache() {
  clear();
}

void UtilizationCache::clear() {
  for (auto& w : workers_) w.join();
  workers_.clear();
  groups_.clear();
  next_ = 0;
}

void UtilizationCache::start(const analysis::Profile& p) {
  clear();
  for (int k = 0; k < analysis::kLaneKinds; ++k) {
    const auto kind = static_cast<analysis::LaneKind>(k);
    if (p.nodes.size() > 1 && analysis::has_lanes(p, kind)) {
      groups_.push_back(std::make_unique<Group>());
      groups_.back()->rank = analysis::kAllNodes;
      groups_.back()->kind = kind;
    }
    for (const auto& n : p.nodes) {
      if (!analysis::has_lanes(p, kind, n.rank)) continue;
      groups_.push_back(std::make_unique<Group>());
      groups_.back()->rank = n.rank;
      groups_.back()->kind = kind;
    }
  }
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                           static_cast<unsigned>(groups_.size())));
  for (unsigned t = 0; t < threads; ++t) {
    workers_.emplace_back([this, &p] {
      for (size_t i; (i = next_.fetch_add(1)) < groups_.size();) {
        Group& g = *groups_[i];
        g.curve = analysis::UtilizationLine(p, g.kind, g.rank);
        g.ready.store(true, std::memory_order_release);
      }
    });
  }
}

const analysis::UtilizationLine* UtilizationCache::get(uint32_t rank,
                                                       analysis::LaneKind kind) const {
  for (const auto& g : groups_) {
    if (g->rank == rank && g->kind == kind)
      return g->ready.load(std::memory_order_acquire) ? &g->curve : nullptr;
  }
  return nullptr;
}

bool UtilizationCache::all_ready() const {
  return std::all_of(groups_.begin(), groups_.end(),
                     [](const auto& g) { return g->ready.load(std::memory_order_acquire); });
}

void UtilizationCache::wait() {
  for (auto& w : workers_) w.join();
  workers_.clear();
}

}  // namespace legato::viewer
