#include "analysis/uid_index.hpp"

#include <algorithm>

namespace legato::analysis::detail {

void UidIndex::build() {
  // Per rank: how many uids, and the sequence range they span.
  struct Span {
    uint64_t lo = UINT64_MAX, hi = 0, count = 0;
  };
  std::vector<Span> spans;
  for (const auto& [uid, index] : pairs_) {
    const uint32_t rank = trace::rank_of_uid(uid);
    if (rank >= spans.size()) spans.resize(rank + 1);
    Span& s = spans[rank];
    const uint64_t seq = uid & kSeqMask;
    s.lo = std::min(s.lo, seq);
    s.hi = std::max(s.hi, seq);
    ++s.count;
  }
  // A table costs 4 bytes per sequence in the span, for the build only: worth
  // it while the span is at most 16 sequences per uid (operations share the
  // sequence space with the more numerous items).
  dense_.assign(spans.size(), Dense{});
  for (size_t r = 0; r < spans.size(); ++r) {
    const Span& s = spans[r];
    if (s.count > 0 && s.hi - s.lo < 16 * s.count + 1024) {
      dense_[r].first = s.lo;
      dense_[r].slots.assign(s.hi - s.lo + 1, kNone);
    }
  }
  std::vector<std::pair<Uid, uint32_t>> sparse;
  for (const auto& [uid, index] : pairs_) {
    const uint32_t rank = trace::rank_of_uid(uid);
    Dense& d = dense_[rank];
    if (d.slots.empty()) {
      sparse.emplace_back(uid, index);
      continue;
    }
    uint32_t& slot = d.slots[(uid & kSeqMask) - d.first];
    if (slot == kNone) slot = index;
  }
  // Stable: among equal uids the first added stays first.
  std::stable_sort(sparse.begin(), sparse.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  pairs_ = std::move(sparse);
  pairs_.shrink_to_fit();
}

uint32_t UidIndex::find_sparse(Uid uid) const {
  const auto it = std::lower_bound(pairs_.begin(), pairs_.end(), uid,
                                   [](const auto& p, Uid u) { return p.first < u; });
  return it != pairs_.end() && it->first == uid ? it->second : kNone;
}

}  // namespace legato::analysis::detail
