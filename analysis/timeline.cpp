#include "analysis/timeline.hpp"

#include <algorithm>
#include <cmath>

namespace legato::analysis {

namespace {

// First index in [begin, end) whose item satisfies !pred (items sorted so
// pred holds on a prefix).
template <class Pred>
uint32_t first_not(const Profile& p, uint32_t begin, uint32_t end, Pred pred) {
  const auto* base = p.items.data();
  return static_cast<uint32_t>(std::partition_point(base + begin, base + end, pred) - base);
}

void row_boxes(const Profile& p, const Row& row, uint32_t row_index, const Window& w,
               std::vector<DrawBox>& out) {
  const Time min_ns = std::max<Time>(1, static_cast<Time>(std::ceil(w.min_px * w.ns_per_px)));
  // Items of a row do not overlap, so stops are sorted like starts.
  uint32_t i = first_not(p, row.begin, row.end, [&](const Item& it) { return it.stop <= w.t0; });
  while (i < row.end && p.items[i].start < w.t1) {
    const Item& first = p.items[i];
    if (first.duration() >= min_ns) {
      out.push_back(DrawBox{first.start, first.stop, i, 1, first.duration(), row_index, i});
      ++i;
      continue;
    }
    // A run of tiny items, each starting within min_ns of the previous one's
    // end: jump over those ending before the limit with a binary search.
    Time stop = first.stop;
    uint32_t j = i + 1;
    while (j < row.end && p.items[j].start < w.t1) {
      const Time limit = stop + min_ns;
      const uint32_t k = first_not(p, j, row.end, [&](const Item& it) { return it.stop < limit; });
      if (k > j) {
        stop = p.items[k - 1].stop;
        j = k;
        continue;
      }
      const Item& next = p.items[j];
      if (next.duration() >= min_ns || next.start >= limit) break;
      stop = next.stop;
      ++j;
    }
    if (j == i + 1) {
      out.push_back(DrawBox{first.start, first.stop, i, 1, first.duration(), row_index, i});
    } else {
      out.push_back(DrawBox{first.start, stop, kNone, j - i, p.busy_between(i, j), row_index, i});
    }
    i = j;
  }
}

}  // namespace

void visible_boxes(const Profile& p, uint32_t lane, const Window& w, std::vector<DrawBox>& out) {
  const auto& rows = p.lanes[lane].rows;
  for (uint32_t r = 0; r < rows.size(); ++r) row_boxes(p, rows[r], r, w, out);
}

std::vector<Segment> states(const Profile& p, uint32_t item) {
  const Item& it = p.items[item];
  std::vector<Segment> out;
  Time at = it.start;
  const auto push = [&](Time a, Time b, State s) {
    a = std::clamp(a, it.start, it.stop);
    b = std::clamp(b, a, it.stop);
    if (b > a) out.push_back(Segment{a, b, s});
  };
  const auto [w, wend] = p.waits_of(item);
  for (const Wait* x = w; x != wend; ++x) {
    const Time start = std::max(x->start, at);
    const Time ready = std::max(x->ready, start);
    const Time end = std::max(x->end, ready);
    push(at, start, State::Running);
    push(start, ready, State::Blocked);
    push(ready, end, State::Ready);
    at = std::max(at, end);
  }
  push(at, it.stop, State::Running);
  return out;
}

}  // namespace legato::analysis
