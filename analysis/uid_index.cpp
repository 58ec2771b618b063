#include "analysis/uid_index.hpp"

#include <algorithm>

namespace legato::analysis::detail {

void IdMap::build() {
  if (pairs_.empty()) return;
  // Runs of ids by their top 24 bits: each run dense enough gets a table.
  // A table costs 4 bytes per id in its span, for the build only: worth it
  // while the span is at most 16 ids per entry (operations share the uid
  // sequence with the more numerous items).
  struct Run {
    uint64_t top, lo = UINT64_MAX, hi = 0, count = 0;
  };
  std::vector<Run> runs;
  size_t last = 0;  // the run of the id before: most often this one's too
  for (const auto& [id, value] : pairs_) {
    const uint64_t top = id >> 40;
    if (last >= runs.size() || runs[last].top != top) {
      last = 0;
      while (last < runs.size() && runs[last].top != top) ++last;
      if (last == runs.size()) {
        if (runs.size() == kMaxRuns) {  // ids all over: no dense tables
          runs.clear();
          break;
        }
        runs.push_back(Run{top});
      }
    }
    Run& r = runs[last];
    r.lo = std::min(r.lo, id);
    r.hi = std::max(r.hi, id);
    ++r.count;
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.count > b.count; });
  for (const Run& r : runs) {
    // A few stray ids are hashed: a table each would only slow every lookup.
    if (dense_.size() == kMaxDense || r.hi - r.lo >= 16 * r.count + 1024 ||
        (r.count < 64 && runs.size() > 1))
      continue;
    dense_.push_back(Dense{r.lo, std::vector<uint32_t>(r.hi - r.lo + 1, kEmpty)});
  }
  std::vector<std::pair<uint64_t, uint32_t>> rest;
  for (const auto& [id, value] : pairs_) {
    uint32_t* slot = nullptr;
    for (Dense& d : dense_) {
      if (id - d.first < d.slots.size()) slot = &d.slots[id - d.first];
    }
    if (!slot) {
      rest.emplace_back(id, value);
    } else if (*slot == kEmpty) {
      *slot = value;
    } else {
      found_duplicate(id, *slot, value);
    }
  }
  pairs_.clear();
  pairs_.shrink_to_fit();
  if (rest.empty()) return;
  // A power-of-two table at most half full; in add order, so the first add
  // of an id wins.
  size_t capacity = 16;
  int shift = 60;
  while (capacity < 2 * rest.size()) {
    capacity *= 2;
    --shift;
  }
  hashed_.assign(capacity, {0, kEmpty});
  hash_shift_ = shift;
  for (const auto& [id, value] : rest) {
    for (size_t i = slot_of(id);; i = (i + 1) & (capacity - 1)) {
      auto& slot = hashed_[i];
      if (slot.second == kEmpty) {
        slot = {id, value};
        break;
      }
      if (slot.first == id) {
        found_duplicate(id, slot.second, value);
        break;
      }
    }
  }
}

void IdMap::found_duplicate(uint64_t id, uint32_t first, uint32_t second) {
  if (duplicates_++ == 0) example_ = DuplicateId{id, first, second};
}

uint32_t IdMap::find_sparse(uint64_t id, uint32_t missing) const {
  if (hashed_.empty()) return missing;
  for (size_t i = slot_of(id);; i = (i + 1) & (hashed_.size() - 1)) {
    const auto& slot = hashed_[i];
    if (slot.second == kEmpty) return missing;
    if (slot.first == id) return slot.second;
  }
}

}  // namespace legato::analysis::detail
