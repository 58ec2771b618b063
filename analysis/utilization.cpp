#include "analysis/utilization.hpp"

#include <algorithm>
#include <functional>

namespace legato::analysis {

namespace {

// Changes mostly come as one sorted run per lane: merging the runs pairwise
// costs O(n log runs) instead of sorting all n. Many runs: a plain sort.
void sort_changes(std::vector<std::pair<Time, int64_t>>& changes) {
  std::vector<size_t> runs{0};
  for (size_t i = 1; i < changes.size(); ++i) {
    if (changes[i] < changes[i - 1]) {
      runs.push_back(i);
      if (runs.size() > 64) {
        std::sort(changes.begin(), changes.end());
        return;
      }
    }
  }
  runs.push_back(changes.size());
  while (runs.size() > 2) {
    std::vector<size_t> merged{0};
    for (size_t r = 0; r + 2 < runs.size(); r += 2) {
      std::inplace_merge(changes.begin() + static_cast<ptrdiff_t>(runs[r]),
                         changes.begin() + static_cast<ptrdiff_t>(runs[r + 1]),
                         changes.begin() + static_cast<ptrdiff_t>(runs[r + 2]));
      merged.push_back(runs[r + 2]);
    }
    if ((runs.size() - 1) % 2 == 1) merged.push_back(runs.back());  // an odd run left over
    runs = std::move(merged);
  }
}

}  // namespace

UtilizationCurve::UtilizationCurve(std::vector<std::pair<Time, int64_t>> changes, double capacity)
    : capacity_(capacity > 0 ? capacity : 1), known_(capacity > 0) {
  if (!known_) return;
  sort_changes(changes);
  int64_t level = 0;
  double area = 0;
  for (const auto& [t, d] : changes) {
    if (!steps_.empty())
      area += static_cast<double>(level) * static_cast<double>(t - steps_.back().time);
    level += d;
    if (!steps_.empty() && steps_.back().time == t) {
      steps_.back().level = level;
      continue;
    }
    steps_.push_back(Step{t, level, area});
  }
  // About 16 steps per cell, at most 1 M cells (12 MB).
  const size_t cells = std::min<size_t>(size_t{1} << 20, steps_.size() / 16);
  if (cells < 2) return;
  grid_start_ = steps_.front().time;
  const double span = static_cast<double>(steps_.back().time - grid_start_) + 1;
  grid_cells_per_ns_ = static_cast<double>(cells) / span;
  grid_.resize(cells + 1);
  size_t s = 0;
  for (size_t g = 0; g <= cells; ++g) {
    const double at =
        static_cast<double>(grid_start_) + static_cast<double>(g) / grid_cells_per_ns_;
    while (s < steps_.size() && static_cast<double>(steps_[s].time) < at) ++s;
    grid_[g] = static_cast<uint32_t>(s);
  }
  grid_.back() = static_cast<uint32_t>(steps_.size());
  grid_area_.resize(cells + 1);
  for (size_t g = 0; g <= cells; ++g) {
    const double at =
        static_cast<double>(grid_start_) + static_cast<double>(g) / grid_cells_per_ns_;
    const uint32_t s = grid_[g];  // the steps before it started before at
    grid_area_[g] = s == 0
                        ? 0.0
                        : steps_[s - 1].area + static_cast<double>(steps_[s - 1].level) *
                                                   (at - static_cast<double>(steps_[s - 1].time));
  }
}

double UtilizationCurve::integral(Time t) const {
  auto lo = steps_.begin(), hi = steps_.end();
  if (!grid_.empty()) {
    const double cell = static_cast<double>(t - grid_start_) * grid_cells_per_ns_;
    const auto cells = static_cast<double>(grid_.size() - 1);
    // The step at or before t lies in [grid_[g] - 1, grid_[g + 1]).
    const auto g = static_cast<size_t>(std::clamp(std::floor(cell), 0.0, cells - 1));
    lo = steps_.begin() + (grid_[g] > 0 ? grid_[g] - 1 : 0);
    hi = steps_.begin() + std::min<size_t>(grid_[g + 1] + 1, steps_.size());
    if (cell < 0) lo = steps_.begin();
    if (cell >= cells) hi = steps_.end();
  }
  const auto after = [](Time v, const Step& s) { return v < s.time; };
  auto it = std::upper_bound(lo, hi, t, after);
  // Rounding at a cell's edge can put t one cell off: then search everything.
  if ((it == lo && lo != steps_.begin()) || (it == hi && hi != steps_.end()))
    it = std::upper_bound(steps_.begin(), steps_.end(), t, after);
  if (it == steps_.begin()) return 0;
  const Step& s = *(it - 1);
  return s.area + static_cast<double>(s.level) * static_cast<double>(t - s.time);
}

double UtilizationCurve::average(Time t0, Time t1) const {
  if (t1 <= t0) return 0;
  return (integral(t1) - integral(t0)) / static_cast<double>(t1 - t0) / capacity_;
}

std::vector<float> UtilizationCurve::sample(Time t0, Time t1, int n) const {
  std::vector<float> out(static_cast<size_t>(std::max(n, 0)), 0.f);
  if (n <= 0 || t1 <= t0 || steps_.empty()) return out;
  const double width = static_cast<double>(t1 - t0) / n;
  // Buckets of 8 grid cells or more take their edges from the grid (moved
  // by at most 1/16 of a bucket): exact averages over those edges, with no
  // search. Narrower buckets search forward from the previous edge.
  const bool snap = !grid_.empty() && width * grid_cells_per_ns_ >= 8;
  const auto cells = static_cast<double>(grid_.size()) - 1;
  size_t hint = 0;  // no step before it lies after the previous edge
  const auto edge = [&](double t, double* used) {
    if (snap) {
      const double cell = (t - static_cast<double>(grid_start_)) * grid_cells_per_ns_;
      if (cell > 0 && cell < cells) {
        const double g = std::round(cell);
        *used = static_cast<double>(grid_start_) + g / grid_cells_per_ns_;
        return grid_area_[static_cast<size_t>(g)];
      }
    }
    const auto time = static_cast<Time>(std::llround(t));
    *used = static_cast<double>(time);
    size_t lo = hint, hi = hint, stride = 1;
    while (hi < steps_.size() && steps_[hi].time <= time) {
      lo = hi + 1;
      hi += stride;
      stride *= 2;
    }
    hi = std::min(hi + 1, steps_.size());
    hint = static_cast<size_t>(std::upper_bound(steps_.begin() + static_cast<ptrdiff_t>(lo),
                                                steps_.begin() + static_cast<ptrdiff_t>(hi), time,
                                                [](Time v, const Step& s) { return v < s.time; }) -
                               steps_.begin());
    if (hint == 0) return 0.0;
    const Step& s = steps_[hint - 1];
    return s.area + static_cast<double>(s.level) * static_cast<double>(time - s.time);
  };
  double left_time = 0;
  double left = edge(static_cast<double>(t0), &left_time);
  for (int i = 0; i < n; ++i) {
    double right_time = 0;
    const double right = edge(static_cast<double>(t0) + width * (i + 1), &right_time);
    if (right_time > left_time)
      out[static_cast<size_t>(i)] =
          static_cast<float>((right - left) / (right_time - left_time) / capacity_);
    left = right;
    left_time = right_time;
  }
  return out;
}

namespace {

bool selected(const Lane& l, LaneKind kind, uint32_t rank) {
  return l.kind == kind && (rank == kAllNodes || l.rank == rank);
}

// The items of a row that overlap [w.from, w.to): stops are sorted like starts.
std::pair<uint32_t, uint32_t> row_window(const Profile& p, const Row& row, const TimeWindow& w) {
  const Item* items = p.items.data();
  const Item* first = std::partition_point(items + row.begin, items + row.end,
                                           [&](const Item& it) { return it.stop() <= w.from; });
  const Item* last =
      std::partition_point(first, items + row.end, [&](const Item& it) { return it.start < w.to; });
  return {static_cast<uint32_t>(first - items), static_cast<uint32_t>(last - items)};
}

// Calls f(from, to) for each busy period of items [begin, end) of a row,
// in order: each item minus its waits.
template <class F>
void row_periods(const Profile& p, uint32_t begin, uint32_t end, F&& f) {
  for (uint32_t i = begin; i < end; ++i) {
    const Item& it = p.items[i];
    Time from = it.start;
    const auto [w, wend] = p.waits_of(i);
    for (const Wait* x = w; x != wend; ++x) {
      const Time a = std::clamp(x->start, from, it.stop()), b = std::clamp(x->end, a, it.stop());
      if (a > from) f(from, a);
      from = b;
    }
    if (it.stop() > from) f(from, it.stop());
  }
}

// Adds a lane's busy periods as 0/1 steps: its items minus their waits,
// overlapping items counted once. A row's periods come in order and apart
// (its items do not overlap), so the rows' periods are merged by start, a
// heap of rows deep, instead of sorted: a Legion utility lane's millions of
// meta tasks and nested calls took a third of a second to sort. Periods
// that touch stay apart (an end and a start at one time).
// Only the items that overlap the window w.
template <class Sink>
void add_busy_lane(const Profile& p, const Lane& lane, const TimeWindow& w, Sink&& sink) {
  const auto add = [&](Time from, Time to) {
    sink(from, 1);
    sink(to, -1);
  };
  if (lane.rows.size() <= 1) {  // one row: no overlap to merge
    if (!lane.rows.empty()) {
      const auto [b, e] = row_window(p, lane.rows[0], w);
      row_periods(p, b, e, add);
    }
    return;
  }
  using Period = std::pair<Time, Time>;
  std::vector<Period> periods;    // row after row
  std::vector<size_t> next, end;  // per row: its next period, the end of its periods
  for (const Row& row : lane.rows) {
    next.push_back(periods.size());
    const auto [b, e] = row_window(p, row, w);
    row_periods(p, b, e, [&](Time from, Time to) { periods.emplace_back(from, to); });
    end.push_back(periods.size());
  }
  // A min-heap of the rows by their next period's start (then row).
  using Head = std::pair<Time, size_t>;
  std::vector<Head> heap;
  for (size_t r = 0; r < next.size(); ++r) {
    if (next[r] < end[r]) heap.emplace_back(periods[next[r]].first, r);
  }
  const auto later = std::greater<Head>();
  std::make_heap(heap.begin(), heap.end(), later);
  bool open = false;
  Period busy;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const size_t r = heap.back().second;
    const Period& period = periods[next[r]++];
    if (next[r] < end[r]) {
      heap.back().first = periods[next[r]].first;
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
    }
    if (open && period.first < busy.second) {
      busy.second = std::max(busy.second, period.second);
      continue;
    }
    if (open) add(busy.first, busy.second);
    busy = period;
    open = true;
  }
  if (open) add(busy.first, busy.second);
}

}  // namespace

Time busy_time(const Profile& p, const Lane& lane) {
  // Periods that do not overlap: +1 at a start, -1 at an end.
  Time busy = 0;
  add_busy_lane(p, lane, TimeWindow{}, [&](Time t, int64_t d) { busy -= t * d; });
  return busy;
}

MemoryPeak memory_peak(const Profile& p, const Lane& lane) {
  std::vector<std::pair<Time, int64_t>> changes;
  for (uint32_t i = lane.begin; i < lane.end; ++i) {
    const Item& it = p.items[i];
    const InstanceInfo* info = p.instance_of(it);
    if (!info) continue;
    const auto bytes = static_cast<int64_t>(info->bytes);
    changes.emplace_back(it.start, bytes);
    changes.emplace_back(it.stop(), -bytes);
  }
  std::sort(changes.begin(), changes.end());  // frees before allocations at one time
  int64_t held = 0;
  MemoryPeak peak;
  for (const auto& [t, d] : changes) {
    held += d;
    if (held > static_cast<int64_t>(peak.bytes)) peak = {static_cast<uint64_t>(held), t};
  }
  return peak;
}

uint64_t peak_bytes(const Profile& p, const Lane& lane) {
  return memory_peak(p, lane).bytes;
}

bool has_lanes(const Profile& p, LaneKind kind, uint32_t rank) {
  return std::any_of(p.lanes.begin(), p.lanes.end(),
                     [&](const Lane& l) { return selected(l, kind, rank); });
}

bool sized_by_instances(const Profile& p, LaneKind kind, uint32_t rank) {
  return is_memory(kind) && std::any_of(p.lanes.begin(), p.lanes.end(), [&](const Lane& l) {
           return selected(l, kind, rank) && !l.capacity_given && l.capacity > 0;
         });
}

namespace {

// Calls sink(time, change) for every change of the in-use amount of the
// kind's lanes on the node (kAllNodes: everywhere), in no particular order;
// returns what 100% means (0: unknown).
template <class Sink>
double for_each_change(const Profile& p, LaneKind kind, uint32_t rank, const TimeWindow& w,
                       Sink&& sink) {
  double capacity = 0;
  for (const Lane& lane : p.lanes) {
    if (!selected(lane, kind, rank)) continue;
    if (is_memory(kind)) {
      if (lane.capacity == 0) continue;  // size unknown: no descriptor gave it
      capacity += static_cast<double>(lane.capacity);
      for (const Row& row : lane.rows) {
        const auto [b, e] = row_window(p, row, w);
        for (uint32_t i = b; i < e; ++i) {
          const Item& it = p.items[i];
          const InstanceInfo* instance = p.instance_of(it);
          if (!instance) continue;
          const InstanceInfo& info = *instance;
          // Sizes past 4 PiB only come from damaged records; capped so sums stay exact.
          const auto bytes =
              static_cast<int64_t>(std::min<uint64_t>(info.bytes, uint64_t{1} << 52));
          const Time from = std::clamp<Time>(info.ready, it.start, it.stop());
          if (it.stop() <= from) continue;
          sink(from, bytes);
          sink(it.stop(), -bytes);
        }
      }
    } else {
      capacity += 1;
      add_busy_lane(p, lane, w, sink);
    }
  }
  return capacity;
}

}  // namespace

UtilizationCurve utilization(const Profile& p, LaneKind kind, uint32_t rank, const TimeWindow& w) {
  std::vector<std::pair<Time, int64_t>> changes;
  const double capacity =
      for_each_change(p, kind, rank, w, [&](Time t, int64_t d) { changes.emplace_back(t, d); });
  return UtilizationCurve(std::move(changes), capacity);
}

UtilizationBins::UtilizationBins(Time t0, Time t1, int n)
    : t0_(t0),
      t1_(std::max(t0, t1)),
      n_(std::max(n, 1)),
      d_(static_cast<size_t>(n_) + 2, 0),
      m_(static_cast<size_t>(n_) + 2, 0) {
  for (int k = 0; k <= n_; ++k)
    edges_.push_back(t0_ + static_cast<Time>(static_cast<__int128>(t1_ - t0_) * k / n_));
  per_ns_ = t1_ > t0_ ? n_ / static_cast<double>(t1_ - t0_) : 0;
}

void UtilizationBins::add(Time t, int64_t d) {
  // Bin 0: before t0; bin k + 1: [edge(k), edge(k + 1)); bin n + 1: from t1.
  size_t bin = 0;
  if (t >= t1_) {
    bin = static_cast<size_t>(n_) + 1;
  } else if (t >= t0_) {
    // A guess from the slice width, then set right by the exact edges.
    auto k = std::min(n_ - 1, static_cast<int>(static_cast<double>(t - t0_) * per_ns_));
    while (k + 1 < n_ && edge(k + 1) <= t) ++k;
    while (k > 0 && edge(k) > t) --k;
    bin = static_cast<size_t>(k) + 1;
  }
  d_[bin] += d;
  m_[bin] += static_cast<__int128>(d) * (t - t0_);
}

void UtilizationBins::merge(const UtilizationBins& other) {
  for (size_t b = 0; b < d_.size(); ++b) {
    d_[b] += other.d_[b];
    m_[b] += other.m_[b];
  }
  capacity += other.capacity;
}

std::vector<double> UtilizationBins::integrals() const {
  // Every change before edge(k) (bins 0..k) held its level from its time on.
  std::vector<double> out(static_cast<size_t>(n_) + 1);
  __int128 d = d_[0], m = m_[0];  // changes before each edge
  for (int k = 0; k <= n_; ++k) {
    out[static_cast<size_t>(k)] = static_cast<double>(d * (edge(k) - t0_) - m);
    d += d_[static_cast<size_t>(k) + 1];
    m += m_[static_cast<size_t>(k) + 1];
  }
  return out;
}

std::vector<double> UtilizationBins::slice_averages() const {
  std::vector<double> out(static_cast<size_t>(n_), 0.0);
  if (capacity <= 0) return out;
  const std::vector<double> at = integrals();
  for (int k = 0; k < n_; ++k) {
    const Time width = edge(k + 1) - edge(k);
    if (width > 0)
      out[static_cast<size_t>(k)] = (at[static_cast<size_t>(k) + 1] - at[static_cast<size_t>(k)]) /
                                    static_cast<double>(width) / capacity;
  }
  return out;
}

double UtilizationBins::average() const {
  if (capacity <= 0 || t1_ <= t0_) return 0;
  return integrals().back() / static_cast<double>(t1_ - t0_) / capacity;
}

UtilizationBins utilization_bins(const Profile& p, LaneKind kind, uint32_t rank, Time t0, Time t1,
                                 int n) {
  UtilizationBins bins(t0, t1, n);
  bins.capacity =
      for_each_change(p, kind, rank, TimeWindow{}, [&](Time t, int64_t d) { bins.add(t, d); });
  return bins;
}

}  // namespace legato::analysis
