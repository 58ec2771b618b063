// Utilization ("avg" lines): for a kind of lane on one node or on all nodes,
// the fraction in use over time. Processors: busy processors / processors of
// the kind, blocked or ready-to-resume time not counted as busy. Memories:
// live instance bytes / capacity (memories whose capacity no descriptor gave
// are left out; with none left the utilization is unknown). Channels: busy
// channels / channels.
#pragma once

#include <limits>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::analysis {

// A step function of how much is in use, with its running integral so the
// average over any interval costs two binary searches.
class UtilizationCurve {
 public:
  UtilizationCurve() = default;
  // (time, change) pairs in any order; capacity: what 100% means. A
  // capacity of 0 or less is unknown: known() is false and every value 0.
  UtilizationCurve(std::vector<std::pair<Time, int64_t>> changes, double capacity);

  // Average fraction in use over [t0, t1) (0 when t1 <= t0).
  double average(Time t0, Time t1) const;
  // n averages over equal buckets of [t0, t1): one per pixel column.
  std::vector<float> sample(Time t0, Time t1, int n) const;
  double capacity() const { return capacity_; }
  bool known() const { return known_; }
  bool empty() const { return steps_.empty(); }

 private:
  struct Step {
    Time time;      // where the level changes, increasing
    int64_t level;  // the level from time on
    double area;    // integral up to time
  };
  double integral(Time t) const;  // in-use amount integrated over (-inf, t)
  std::vector<Step> steps_;
  // A uniform grid over the steps' span: grid_[g] is the first step at or
  // after grid time g, so a lookup searches one cell's steps, not all.
  std::vector<uint32_t> grid_;
  std::vector<double> grid_area_;  // the integral at each grid time
  Time grid_start_ = 0;
  double grid_cells_per_ns_ = 0;
  double capacity_ = 1;
  bool known_ = true;
};

// [from, to): a window of time; by default all of it.
struct TimeWindow {
  Time from = std::numeric_limits<Time>::min(), to = std::numeric_limits<Time>::max();
};
// rank: a node's lanes, or kAllNodes for every node. With a window: the
// curve of the items that overlap it only, exact over it.
inline constexpr uint32_t kAllNodes = 0xffffffff;
UtilizationCurve utilization(const Profile& p, LaneKind kind, uint32_t rank = kAllNodes,
                             const TimeWindow& w = {});

// How much was in use over n equal slices of [t0, t1) (edge k at t0 +
// floor((t1 - t0) k / n)), gathered straight from the changes: per slice the
// sum of changes and of change x time, in exact integers, so no curve is
// built or sorted and the bins of several groups add up (merge).
class UtilizationBins {
 public:
  UtilizationBins(Time t0, Time t1, int n);
  void add(Time t, int64_t change);
  void merge(const UtilizationBins& other);  // same t0, t1 and n; capacities add
  // Average fraction in use over each slice, and over [t0, t1); 0 when unknown.
  std::vector<double> slice_averages() const;
  double average() const;
  // The in-use amount integrated from t0 to each edge (n + 1 of them), in O(n).
  std::vector<double> integrals() const;
  double capacity = 0;  // what 100% means; 0 or less: unknown

 private:
  Time edge(int k) const { return edges_[static_cast<size_t>(k)]; }
  Time t0_, t1_;
  int n_;
  std::vector<Time> edges_;
  double per_ns_;                // slices per ns
  std::vector<__int128> d_, m_;  // per bin: changes, and changes x (time - t0)
};
UtilizationBins utilization_bins(const Profile& p, LaneKind kind, uint32_t rank, Time t0, Time t1,
                                 int n);

// The time a lane was busy: its items minus their waits, overlapping items
// counted once (what utilization counts for it).
Time busy_time(const Profile& p, const Lane& lane);

// The most bytes a memory lane's instances held at once, and when it first
// held them.
struct MemoryPeak {
  uint64_t bytes = 0;
  Time at = 0;
};
MemoryPeak memory_peak(const Profile& p, const Lane& lane);
uint64_t peak_bytes(const Profile& p, const Lane& lane);

// Whether a kind has any lane on the node (kAllNodes: anywhere).
bool has_lanes(const Profile& p, LaneKind kind, uint32_t rank = kAllNodes);

// Whether a memory kind's line on the node is drawn, for some of its
// memories, against the bytes of all their instances: the trace gives
// their capacity as none (Lane::capacity_given).
bool sized_by_instances(const Profile& p, LaneKind kind, uint32_t rank = kAllNodes);

}  // namespace legato::analysis
