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
  // The hash table sized once for the ids no dense table holds (growing it
  // would rehash every id added so far at each doubling).
  size_t dense_ids = 0;
  for (const Run& r : runs) {
    for (const Dense& d : dense_) dense_ids += d.first == r.lo ? r.count : 0;
  }
  hashed_.reserve(pairs_.size() - std::min(dense_ids, pairs_.size()));
  for (const auto& [id, value] : pairs_) {
    uint32_t* slot = nullptr;
    for (Dense& d : dense_) {
      if (id - d.first < d.slots.size()) slot = &d.slots[id - d.first];
    }
    if (!slot) {  // hashed, in add order: the first add of an id wins
      const auto [at, added] = hashed_.try_emplace(id, value);
      if (!added) found_duplicate(id, *at, value);
    } else if (*slot == kEmpty) {
      *slot = value;
    } else {
      found_duplicate(id, *slot, value);
    }
  }
  pairs_.clear();
  pairs_.shrink_to_fit();
}

void IdMap::found_duplicate(uint64_t id, uint32_t first, uint32_t second) {
  if (duplicates_++ == 0) example_ = DuplicateId{id, first, second};
}

}  // namespace legato::analysis::detail
