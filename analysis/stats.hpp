// Per-kind statistics (count, total, mean, min, max per task kind, runtime
// work, copies...), the utilization summary per kind and node, and search by
// name or provenance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::analysis {

struct KindStats {
  ItemKind kind = ItemKind::Task;
  std::string name;  // task kind, meta-task kind, "copy"...
  uint64_t count = 0;
  Time total = 0, min = 0, max = 0;
  uint64_t bytes = 0;  // copies, fills and instances
  double mean() const {
    return count ? static_cast<double>(total) / static_cast<double>(count) : 0;
  }
};
// Sorted by total time, largest first.
std::vector<KindStats> kind_stats(const Profile& p);

struct UtilizationSummary {
  uint32_t rank = 0;  // kAllNodes for the whole run
  LaneKind kind = LaneKind::Cpu;
  uint32_t lanes = 0;
  double average = 0;  // over the run's span
  double peak = 0;     // the busiest of 100 equal slices of the run
  bool known = true;   // false: memories whose size no descriptor gave (average, peak 0)
};
// Every kind on every node, then every kind over all nodes when there are several.
std::vector<UtilizationSummary> utilization_summary(const Profile& p);

// Items whose name, operation name or provenance contains the query (case
// insensitive), in item order, at most limit.
std::vector<uint32_t> search(const Profile& p, std::string_view query, size_t limit = 1000);

}  // namespace legato::analysis
