#include "analysis/uid_index.hpp"

#include <algorithm>

namespace legato::analysis::detail {

void IdMap::build() {
  if (pairs_.empty()) return;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [id, value] : pairs_) {
    lo = std::min(lo, id);
    hi = std::max(hi, id);
  }
  // A table costs 4 bytes per id in the span, for the build only: worth it
  // while the span is at most 16 ids per entry (operations share the uid
  // sequence with the more numerous items).
  if (hi - lo < 16 * pairs_.size() + 1024) {
    first_ = lo;
    slots_.assign(hi - lo + 1, kEmpty);
    for (const auto& [id, value] : pairs_) {
      uint32_t& slot = slots_[id - lo];
      if (slot == kEmpty) {
        slot = value;
      } else {
        found_duplicate(id, slot, value);
      }
    }
    pairs_.clear();
    pairs_.shrink_to_fit();
    return;
  }
  // Stable: among equal ids the first added stays first.
  std::stable_sort(pairs_.begin(), pairs_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 1, first = 0; i < pairs_.size(); ++i) {
    if (pairs_[i].first != pairs_[first].first) {
      first = i;
    } else {
      found_duplicate(pairs_[i].first, pairs_[first].second, pairs_[i].second);
    }
  }
}

void IdMap::found_duplicate(uint64_t id, uint32_t first, uint32_t second) {
  if (duplicates_++ == 0) example_ = DuplicateId{id, first, second};
}

uint32_t IdMap::find_sparse(uint64_t id, uint32_t missing) const {
  const auto it = std::lower_bound(pairs_.begin(), pairs_.end(), id,
                                   [](const auto& p, uint64_t i) { return p.first < i; });
  return it != pairs_.end() && it->first == id ? it->second : missing;
}

}  // namespace legato::analysis::detail
