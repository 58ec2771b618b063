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

// The first index in [from, end) whose fold key reaches min_ns, or end:
// items are read one by one only inside the blocks at either end and in a
// block whose maximum says it holds one.
uint32_t next_unfolded(const Profile& p, uint32_t from, uint32_t end, Time min_ns) {
  const auto threshold = static_cast<double>(min_ns);
  uint32_t j = from;
  while (j < end) {
    if (j % kFoldBlock == 0 && j + kFoldBlock <= end &&
        static_cast<double>(p.fold_blocks[j / kFoldBlock]) < threshold) {
      j += kFoldBlock;
      continue;
    }
    if (p.fold_key(j) >= min_ns) return j;
    ++j;
  }
  return end;
}

void row_boxes(const Profile& p, const Row& row, uint32_t row_index, const Window& w,
               std::vector<DrawBox>& out) {
  const Time min_ns = std::max<Time>(1, static_cast<Time>(std::ceil(w.min_px * w.ns_per_px)));
  // Items of a row do not overlap, so stops are sorted like starts.
  uint32_t i = first_not(p, row.begin, row.end, [&](const Item& it) { return it.stop() <= w.t0; });
  const uint32_t end = first_not(p, i, row.end, [&](const Item& it) { return it.start < w.t1; });
  while (i < end) {
    const Item& first = p.items[i];
    // A tiny item folds with the tiny items after it that each start within
    // min_ns of the previous one's end.
    const uint32_t j = first.duration() >= min_ns ? i + 1 : next_unfolded(p, i + 1, end, min_ns);
    if (j == i + 1) {
      out.push_back(DrawBox{first.start, first.stop(), i, 1, first.duration(), row_index, i});
    } else {
      out.push_back(DrawBox{first.start, p.items[j - 1].stop(), kNone, j - i, p.busy_between(i, j),
                            row_index, i});
    }
    i = j;
  }
}

}  // namespace

void visible_boxes(const Profile& p, uint32_t lane, const Window& w, std::vector<DrawBox>& out) {
  const auto& rows = p.lanes[lane].rows;
  for (uint32_t r = 0; r < rows.size(); ++r) row_boxes(p, rows[r], r, w, out);
}

std::vector<Segment> states(const Profile& p, uint32_t item, Time from, Time to) {
  const Item& it = p.items[item];
  std::vector<Segment> out;
  Time at = it.start;
  const auto push = [&](Time a, Time b, State s) {
    a = std::clamp<Time>(a, it.start, it.stop());
    b = std::clamp(b, a, it.stop());
    if (b > a && b > from && a < to) out.push_back(Segment{a, b, s});
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
    if (at >= to) break;  // what follows starts past the window
  }
  push(at, it.stop(), State::Running);
  return out;
}

}  // namespace legato::analysis
