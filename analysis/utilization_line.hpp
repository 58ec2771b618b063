// An avg line at any size: the utilization of a kind on a node (or on all
// nodes) drawn at any zoom with a few bytes per item. It keeps the in-use
// amount integrated up to the edges of a grid of about one cell per four
// items (at most 4 M cells), read between edges as if the level were even
// across a cell; a question finer than the grid (a pixel narrower than a
// cell, an average over fewer than 8 cells) is answered exactly from the
// items in its window, which are then few. UtilizationCurve, which keeps
// every step, costs some 96 bytes per item for a node's line and the line
// over all nodes together.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "analysis/utilization.hpp"

namespace legato::analysis {

class UtilizationLine {
 public:
  UtilizationLine() = default;
  // p must outlive the line.
  UtilizationLine(const Profile& p, LaneKind kind, uint32_t rank);

  bool known() const { return capacity_ > 0; }
  double capacity() const { return capacity_; }
  // Average fraction in use over [t0, t1) (0 when t1 <= t0 or unknown).
  double average(Time t0, Time t1) const;
  // n averages over equal buckets of [t0, t1): one per pixel column.
  std::vector<float> sample(Time t0, Time t1, int n) const;
  // The grid's cells (for tests) and the bytes the line holds.
  size_t cells() const { return at_edge_.empty() ? 0 : at_edge_.size() - 1; }
  size_t memory_bytes() const { return sizeof(*this) + at_edge_.capacity() * sizeof(double); }

 private:
  double integral(double t) const;  // from t0_, read from the grid
  double cell_ns() const;
  // Exact over [t0, t1): the curve of the items overlapping a window three
  // times as wide around it, kept for the next questions (a view that pans
  // or zooms a little asks about nearly the same window again) and rebuilt
  // when one leaves it. Such windows span fewer than a sample's count of
  // cells, so their curves are small.
  std::shared_ptr<const UtilizationCurve> exact(Time t0, Time t1) const;
  struct Near {
    std::mutex mutex;
    Time from = 0, to = 0;
    std::shared_ptr<const UtilizationCurve> curve;
  };
  std::unique_ptr<Near> near_ = std::make_unique<Near>();
  const Profile* p_ = nullptr;
  LaneKind kind_ = LaneKind::Cpu;
  uint32_t rank_ = kAllNodes;
  Time t0_ = 0, t1_ = 0, cell_ = 1;
  std::vector<double> at_edge_;  // edge k at t0_ + k cell_
  double capacity_ = 0;
};

}  // namespace legato::analysis
