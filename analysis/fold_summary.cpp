#include "analysis/fold_summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace legato::analysis {

namespace {

// Weights per key, for up to 32 keys (no more are ever weighed at once):
// the first item seen of each key stands for it.
class Tally {
 public:
  void add(uint32_t key, Time weight, uint32_t item) {
    // Alike items come in runs: the last key first.
    if (n_ > 0 && entries_[last_].key == key) {
      entries_[last_].weight += weight;
    } else {
      size_t k = 0;
      while (k < n_ && entries_[k].key != key) ++k;
      if (k == n_) {
        if (n_ == entries_.size()) return;
        entries_[n_++] = Entry{key, 0, item};
      }
      entries_[k].weight += weight;
      last_ = k;
    }
    total_ += weight;
  }
  // The item of the heaviest key (the first seen among equals); kNone when empty.
  uint32_t top() const {
    const Entry* best = nullptr;
    for (size_t k = 0; k < n_; ++k)
      if (!best || entries_[k].weight > best->weight) best = &entries_[k];
    return best ? best->item : kNone;
  }
  std::vector<Share> shares(size_t most) {
    std::stable_sort(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(n_),
                     [](const Entry& a, const Entry& b) { return a.weight > b.weight; });
    std::vector<Share> out;
    for (size_t k = 0; k < std::min(n_, most); ++k) {
      out.push_back(Share{entries_[k].item,
                          static_cast<double>(entries_[k].weight) / static_cast<double>(total_)});
    }
    return out;
  }

 private:
  struct Entry {  // no initializers: only the first n_ are read
    uint32_t key;
    Time weight;
    uint32_t item;
  };
  std::array<Entry, 32> entries_;  // the first n_ are in use
  size_t n_ = 0, last_ = 0;
  Time total_ = 0;
};

Time weight_between(const Profile& p, uint32_t begin, uint32_t end) {
  return p.busy_between(begin, end) + (end - begin);
}

// The first index in [from, end) where before(index) is false, or end
// (before holds on a prefix): galloping from `from`, then halving.
template <class Before>
uint32_t first_at_or_after(uint32_t from, uint32_t end, Before before) {
  uint32_t lo = from, hi = from, step = 1;  // before holds on [from, lo)
  while (hi < end && before(hi)) {
    lo = hi + 1;
    hi = static_cast<uint32_t>(std::min<uint64_t>(end, uint64_t{hi} + step));
    step *= 2;
  }
  while (lo < hi) {
    const uint32_t m = lo + (hi - lo) / 2;
    if (before(m)) {
      lo = m + 1;
    } else {
      hi = m;
    }
  }
  return lo;
}

// The lead of unit u: an item (size 1), a fold block or a lead group.
uint32_t unit_lead(const Profile& p, uint32_t u, uint32_t size) {
  if (size == 1) return u;
  return u * size + (size == kFoldBlock ? uint32_t{p.lead_blocks[u]} : uint32_t{p.lead_groups[u]});
}

// The tally of items [begin, end) as leading() describes it.
Tally tally(const Profile& p, uint32_t begin, uint32_t end) {
  Tally t;
  const uint32_t n = end - begin;
  // Units: items, fold blocks or lead groups, the largest of which at
  // least two lie wholly inside.
  const uint32_t size = n >= 2 * kLeadGroup ? kLeadGroup : n >= 2 * kFoldBlock ? kFoldBlock : 1;
  const uint32_t first = (begin + size - 1) / size, last = end / size;
  const uint32_t stride = (last - first + kLeadSamples - 1) / kLeadSamples;
  for (uint32_t u = first; u < last; u += stride) {
    const uint32_t lead = unit_lead(p, u, size);
    const Time weight =
        size == 1 ? lead_weight(p.items[u]) : weight_between(p, u * size, (u + 1) * size);
    t.add(lead_key(p.items[lead]), weight, lead);
  }
  return t;
}

// An item of what ran longest among items [begin, end), in O(1): up to
// four weighed one by one; else the lead of the fold block (from 2048
// items: lead group) holding the middle item when it lies inside, or the
// middle item.
uint32_t column_lead(const Profile& p, uint32_t begin, uint32_t end) {
  if (end - begin <= 4) return tally(p, begin, end).top();
  const uint32_t middle = begin + (end - begin) / 2;
  const uint32_t size = end - begin >= 2 * kLeadGroup ? kLeadGroup : kFoldBlock;
  const uint32_t lead = unit_lead(p, middle / size, size);
  return lead >= begin && lead < end ? lead : middle;
}

}  // namespace

void fill_lead_tables(Profile& p, size_t begin, size_t end) {
  const Item* items = p.items.data();
  for (size_t g = begin / kLeadGroup; g * kLeadGroup < end; ++g) {
    Tally blocks;
    const size_t group_end = std::min(g * kLeadGroup + kLeadGroup, end);
    for (size_t lo = g * kLeadGroup; lo < group_end; lo += kFoldBlock) {
      Tally t;
      Time weight = 0;
      for (size_t i = lo; i < std::min(lo + kFoldBlock, group_end); ++i) {
        const Time w = lead_weight(items[i]);
        t.add(lead_key(items[i]), w, static_cast<uint32_t>(i));
        weight += w;
      }
      const uint32_t lead = t.top();
      p.lead_blocks[lo / kFoldBlock] = static_cast<uint8_t>(lead - lo);
      blocks.add(lead_key(items[lead]), weight, lead);
    }
    p.lead_groups[g] = static_cast<uint16_t>(blocks.top() - g * kLeadGroup);
  }
}

std::vector<Share> leading(const Profile& p, uint32_t begin, uint32_t end, size_t most) {
  if (begin >= end) return {};
  return tally(p, begin, end).shares(most);
}

bool folds_by_block(const DrawBox& box, double width) {
  const double columns = std::max(1.0, static_cast<double>(box.stop - box.start) / width);
  return static_cast<double>(box.count) >= kDenseColumn * columns;
}

void fold_columns(const Profile& p, const DrawBox& box, double origin, double width,
                  std::vector<FoldColumn>& out) {
  const uint32_t end = box.first + box.count;
  const bool by_block = folds_by_block(box, width);
  const auto start_of = [&](uint32_t i) { return static_cast<double>(p.items[i].start); };
  for (uint32_t a = box.first; a < end;) {
    const double k = std::floor((start_of(a) - origin) / width);
    const double c0 = origin + k * width, c1 = origin + (k + 1) * width;
    const uint32_t b =
        by_block ? std::min(end, kFoldBlock *
                                     first_at_or_after(
                                         a / kFoldBlock + 1, (end - 1) / kFoldBlock + 1,
                                         [&](uint32_t j) { return start_of(j * kFoldBlock) < c1; }))
                 : first_at_or_after(a + 1, end, [&](uint32_t i) { return start_of(i) < c1; });
    out.push_back(FoldColumn{c0, c1, a, b - a, p.busy_between(a, b), column_lead(p, a, b)});
    a = b;
  }
}

}  // namespace legato::analysis
