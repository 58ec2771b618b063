// The avg lines' curves for every (node, kind) and (all nodes, kind) group,
// computed on background threads as soon as a profile is loaded so the
// first frames need not wait for all of them; a group not ready yet draws
// as "computing".
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "analysis/utilization_line.hpp"

namespace legato::viewer {

class UtilizationCache {
 public:
  UtilizationCache() = default;
  UtilizationCache(const UtilizationCache&) = delete;
  UtilizationCache& operator=(const UtilizationCache&) = delete;
  ~UtilizationCache();

  // Starts computing every group of p (which must outlive the cache or the
  // next start/clear).
  void start(const analysis::Profile& p);
  void clear();
  // nullptr while the group is being computed (or does not exist).
  const analysis::UtilizationLine* get(uint32_t rank, analysis::LaneKind kind) const;
  bool all_ready() const;
  void wait();

 private:
  struct Group {
    uint32_t rank;
    analysis::LaneKind kind;
    analysis::UtilizationLine curve;
    std::atomic<bool> ready{false};
  };
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<std::thread> workers_;
  std::atomic<size_t> next_{0};
};

}  // namespace legato::viewer
