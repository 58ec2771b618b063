#include "analysis/utilization.hpp"

#include <algorithm>

namespace legato::analysis {

UtilizationCurve::UtilizationCurve(std::vector<std::pair<Time, int64_t>> changes, double capacity)
    : capacity_(capacity > 0 ? capacity : 1) {
  std::sort(changes.begin(), changes.end());
  int64_t level = 0;
  double area = 0;
  for (const auto& [t, d] : changes) {
    if (!times_.empty())
      area += static_cast<double>(level) * static_cast<double>(t - times_.back());
    level += d;
    if (!times_.empty() && times_.back() == t) {
      level_.back() = level;
      continue;
    }
    times_.push_back(t);
    level_.push_back(level);
    area_.push_back(area);
  }
}

double UtilizationCurve::integral(Time t) const {
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  if (it == times_.begin()) return 0;
  const size_t i = static_cast<size_t>(it - times_.begin()) - 1;
  return area_[i] + static_cast<double>(level_[i]) * static_cast<double>(t - times_[i]);
}

double UtilizationCurve::average(Time t0, Time t1) const {
  if (t1 <= t0) return 0;
  return (integral(t1) - integral(t0)) / static_cast<double>(t1 - t0) / capacity_;
}

std::vector<float> UtilizationCurve::sample(Time t0, Time t1, int n) const {
  std::vector<float> out(static_cast<size_t>(std::max(n, 0)), 0.f);
  if (n <= 0 || t1 <= t0) return out;
  const double width = static_cast<double>(t1 - t0) / n;
  double left = integral(t0);
  for (int i = 0; i < n; ++i) {
    const Time a = t0 + static_cast<Time>(width * i);
    const Time b = i + 1 == n ? t1 : t0 + static_cast<Time>(width * (i + 1));
    const double right = integral(b);
    out[static_cast<size_t>(i)] =
        b > a ? static_cast<float>((right - left) / static_cast<double>(b - a) / capacity_) : 0.f;
    left = right;
  }
  return out;
}

namespace {

bool selected(const Lane& l, LaneKind kind, uint32_t rank) {
  return l.kind == kind && (rank == kAllNodes || l.rank == rank);
}

// Adds a lane's busy periods as 0/1 steps: its items minus their waits,
// overlapping items counted once.
void add_busy_lane(const Profile& p, const Lane& lane, std::vector<std::pair<Time, int64_t>>& out) {
  std::vector<std::pair<Time, int64_t>> edges;
  for (uint32_t i = lane.begin; i < lane.end; ++i) {
    const Item& it = p.items[i];
    Time from = it.start;
    const auto [w, wend] = p.waits_of(i);
    for (const Wait* x = w; x != wend; ++x) {
      const Time a = std::clamp(x->start, from, it.stop), b = std::clamp(x->end, a, it.stop);
      if (a > from) {
        edges.emplace_back(from, 1);
        edges.emplace_back(a, -1);
      }
      from = b;
    }
    if (it.stop > from) {
      edges.emplace_back(from, 1);
      edges.emplace_back(it.stop, -1);
    }
  }
  if (lane.rows.size() <= 1) {  // one row: no overlap to merge
    out.insert(out.end(), edges.begin(), edges.end());
    return;
  }
  std::sort(edges.begin(), edges.end());
  int64_t depth = 0;
  for (const auto& [t, d] : edges) {
    const int64_t before = depth;
    depth += d;
    if (before == 0 && depth > 0) out.emplace_back(t, 1);
    if (before > 0 && depth == 0) out.emplace_back(t, -1);
  }
}

}  // namespace

bool has_lanes(const Profile& p, LaneKind kind, uint32_t rank) {
  return std::any_of(p.lanes.begin(), p.lanes.end(),
                     [&](const Lane& l) { return selected(l, kind, rank); });
}

UtilizationCurve utilization(const Profile& p, LaneKind kind, uint32_t rank) {
  std::vector<std::pair<Time, int64_t>> changes;
  double capacity = 0;
  for (const Lane& lane : p.lanes) {
    if (!selected(lane, kind, rank)) continue;
    if (is_memory(kind)) {
      capacity += static_cast<double>(lane.capacity);
      for (uint32_t i = lane.begin; i < lane.end; ++i) {
        const Item& it = p.items[i];
        if (it.kind != ItemKind::Instance) continue;
        const InstanceInfo& info = p.instances[it.extra];
        // Sizes past 4 PiB only come from damaged records; capped so sums stay exact.
        const auto bytes = static_cast<int64_t>(std::min<uint64_t>(info.bytes, uint64_t{1} << 52));
        const Time from = std::clamp(info.ready, it.start, it.stop);
        if (it.stop <= from) continue;
        changes.emplace_back(from, bytes);
        changes.emplace_back(it.stop, -bytes);
      }
    } else {
      capacity += 1;
      add_busy_lane(p, lane, changes);
    }
  }
  return UtilizationCurve(std::move(changes), capacity);
}

}  // namespace legato::analysis
