#include "analysis/utilization_line.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace legato::analysis {

namespace {
constexpr uint64_t kItemsPerCell = 4;
constexpr uint64_t kMaxCells = uint64_t{1} << 22;
}  // namespace

UtilizationLine::UtilizationLine(const Profile& p, LaneKind kind, uint32_t rank)
    : p_(&p), kind_(kind), rank_(rank), t0_(p.start), t1_(std::max(p.stop, p.start + 1)) {
  uint64_t items = 0;
  for (const Lane& l : p.lanes)
    if (l.kind == kind && (rank == kAllNodes || l.rank == rank)) items += l.end - l.begin;
  const auto cells = static_cast<int>(std::clamp<uint64_t>(items / kItemsPerCell, 1, kMaxCells));
  // Cells of a whole number of ns, so that edge k is t0_ + k cell_: the grid
  // may reach a little past the run's end, where nothing is in use.
  cell_ = std::max<Time>(1, (t1_ - t0_ + cells - 1) / cells);
  t1_ = t0_ + cell_ * cells;
  const UtilizationBins bins = utilization_bins(p, kind, rank, t0_, t1_, cells);
  capacity_ = bins.capacity;
  if (known()) at_edge_ = bins.integrals();
}

double UtilizationLine::cell_ns() const {
  return static_cast<double>(cell_);
}

double UtilizationLine::integral(double t) const {
  const size_t n = cells();
  const double from_start = t - static_cast<double>(t0_);
  if (from_start <= 0) return 0;
  const double cells_in = from_start / static_cast<double>(cell_);
  if (cells_in >= static_cast<double>(n)) return at_edge_[n];
  const auto k = static_cast<size_t>(cells_in);
  const double f = cells_in - static_cast<double>(k);
  return at_edge_[k] + f * (at_edge_[k + 1] - at_edge_[k]);
}

std::shared_ptr<const UtilizationCurve> UtilizationLine::exact(Time t0, Time t1) const {
  const std::lock_guard lock(near_->mutex);
  const Time span = t1 - t0;
  if (!near_->curve || t0 < near_->from || t1 > near_->to) {
    // Three times the window, centred on it.
    near_->from = t0 - std::min(span, t0 - std::numeric_limits<Time>::min() / 2);
    near_->to = t1 + std::min(span, std::numeric_limits<Time>::max() / 2 - t1);
    near_->curve = std::make_shared<const UtilizationCurve>(
        utilization(*p_, kind_, rank_, TimeWindow{near_->from, near_->to}));
  }
  return near_->curve;
}

double UtilizationLine::average(Time t0, Time t1) const {
  if (t1 <= t0 || !known()) return 0;
  if (static_cast<double>(t1 - t0) < 8 * cell_ns()) return exact(t0, t1)->average(t0, t1);
  return (integral(static_cast<double>(t1)) - integral(static_cast<double>(t0))) /
         static_cast<double>(t1 - t0) / capacity_;
}

std::vector<float> UtilizationLine::sample(Time t0, Time t1, int n) const {
  std::vector<float> out(static_cast<size_t>(std::max(n, 0)), 0.f);
  if (n <= 0 || t1 <= t0 || !known()) return out;
  const double width = static_cast<double>(t1 - t0) / n;
  if (width < cell_ns()) return exact(t0, t1)->sample(t0, t1, n);
  double left = integral(static_cast<double>(t0));
  for (int i = 0; i < n; ++i) {
    const double right = integral(static_cast<double>(t0) + width * (i + 1));
    out[static_cast<size_t>(i)] = static_cast<float>((right - left) / width / capacity_);
    left = right;
  }
  return out;
}

}  // namespace legato::analysis
