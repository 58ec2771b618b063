#include "analysis/uid_index.hpp"

#include <algorithm>

namespace legato::analysis::detail {

void IdIndex::build() {
  build_from([&](auto&& f) {
    for (const auto& [id, value] : pairs_) f(id, value);
  });
  pairs_.clear();
  pairs_.shrink_to_fit();
}

size_t IdIndex::plan(std::vector<Run>& runs) {
  // A table costs 4 bytes per id in its span, for the build only: worth it
  // while the span is at most 16 ids per entry (operations share the uid
  // sequence with the more numerous items).
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.count > b.count; });
  size_t dense_ids = 0;
  for (Run& r : runs) {
    // A few stray ids are hashed: a table each would only slow every lookup.
    if (dense_.size() == kMaxDense || r.hi - r.lo >= 16 * r.count + 1024 ||
        (r.count < 64 && runs.size() > 1))
      continue;
    dense_.push_back(Dense{r.lo, std::vector<uint32_t>(r.hi - r.lo + 1, kEmpty)});
    dense_ids += r.count;
    r.tabled = true;
  }
  return dense_ids;
}

size_t IdIndex::plan_stretches(const std::vector<const Run*>& runs,
                               const std::vector<std::array<uint64_t, kBins>>& bins) {
  size_t dense_ids = 0;
  for (size_t k = 0; k < runs.size() && dense_.size() < kMaxDense; ++k) {
    const Run& r = *runs[k];
    const uint64_t width = bin_width(r);
    // The stretch of bins [first, last] holding the most ids at 16 slots
    // per id or fewer, as for a whole run.
    size_t first = 0, last = 0;
    uint64_t best = 0;
    for (size_t a = 0; a < kBins; ++a) {
      uint64_t count = 0;
      for (size_t b = a; b < kBins; ++b) {
        count += bins[k][b];
        if ((b - a + 1) * width < 16 * count + 1024 && count > best) {
          best = count;
          first = a;
          last = b;
        }
      }
    }
    if (best < kMinStretch) continue;
    const uint64_t lo = r.lo + first * width, hi = std::min(r.hi, r.lo + (last + 1) * width - 1);
    dense_.push_back(Dense{lo, std::vector<uint32_t>(hi - lo + 1, kEmpty)});
    dense_ids += best;
  }
  return dense_ids;
}

void UidIndex::build_from(const Uid* uids, const uint32_t* values, size_t n, unsigned threads) {
  std::vector<std::vector<std::pair<size_t, size_t>>> runs;  // per rank: [first, end) of k
  for (size_t k = 0; k < n; ++k) {
    if (uids[k] == 0) continue;
    const uint32_t rank = trace::rank_of_uid(uids[k]);
    if (rank >= runs.size()) runs.resize(rank + 1);
    auto& mine = runs[rank];
    if (!mine.empty() && mine.back().second == k) {
      ++mine.back().second;
    } else {
      mine.emplace_back(k, k + 1);
    }
  }
  if (runs.size() > ranks_.size()) ranks_.resize(runs.size());
  base::parallel_for(runs.size(), threads, [&](unsigned, size_t r) {
    ranks_[r].build_from([&](auto&& f) {
      for (const auto& [first, end] : runs[r]) {
        for (size_t k = first; k < end; ++k) f(uids[k] & kSeqMask, values[k]);
      }
    });
  });
}

void IdIndex::found_duplicate(uint64_t id, uint32_t first, uint32_t second) {
  if (duplicates_++ == 0) example_ = DuplicateId{id, first, second};
}

}  // namespace legato::analysis::detail
