// Lookups by id while the model is built. Writers hand out ids in sequence
// (string ids from 1 per file; uids as (rank << 48) | a per-rank sequence),
// so an IdIndex keeps tables indexed by id while the ids span at most 16
// slots per entry (one load per lookup): one per run of ids sharing their
// top 24 bits (an importer may set a high bit to keep two sequences apart),
// then, for the ids that are not dense, tables by slot and generation
// where they are laid out as Realm event ids are (imported Legion logs) and
// a hash table (open addressing, about one cache miss per lookup) for the
// rest (a damaged file; ids of no known layout): base::EventIdMap.
// UidIndex is one IdIndex per rank, keyed by sequence.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/profile.hpp"
#include "base/event_id_map.hpp"
#include "base/parallel.hpp"
#include "base/prefetch.hpp"

namespace legato::analysis::detail {

// An id added more than once: the values of its first two adds.
struct DuplicateId {
  uint64_t id = 0;
  uint32_t first = kNone, second = kNone;
};

class IdIndex {
 public:
  void add(uint64_t id, uint32_t value) { pairs_.emplace_back(id, value); }
  // After the last add. When an id was added twice, the first add wins.
  void build();
  // Instead of add and build: the (id, value) pairs that each(f) gives to
  // f(id, value), twice, in the same order, as if added in that order (so
  // that a table the pairs already lie in need not be copied first).
  template <class Each>
  void build_from(Each&& each);
  // After build: how many adds repeated an earlier id, and one of them.
  uint64_t duplicates() const { return duplicates_; }
  // After build: the tables indexed by id, and the event table slots
  // whose ids are indexed by generation (the rest are hashed).
  size_t dense_tables() const { return dense_.size(); }
  size_t generation_tables() const { return sparse_.tables(); }
  const DuplicateId& duplicate_example() const { return example_; }
  // Starts loading where find(id) will look (a loop over many ids
  // prefetches a few ahead, so their cache misses overlap). Always inlined,
  // or the prefetch is dropped (base::IdMap::prefetch).
  [[gnu::always_inline]] void prefetch(uint64_t id) const {
    if (const uint32_t* v = dense_slot(id)) return base::prefetch(v);
    sparse_.prefetch(id);
  }
  // `missing` for ids never added.
  uint32_t find(uint64_t id, uint32_t missing = kNone) const {
    if (const uint32_t* v = dense_slot(id)) return *v == kEmpty ? missing : *v;
    const uint32_t* v = sparse_.find(id);
    return v ? *v : missing;
  }

 private:
  static constexpr uint32_t kEmpty = 0xffffffff;
  static constexpr size_t kMaxDense = 4, kMaxRuns = 64, kMinStretch = 1024;
  // Where id's value lies in a dense table (kEmpty there: never added);
  // nullptr for an id no dense table spans.
  [[gnu::always_inline]] const uint32_t* dense_slot(uint64_t id) const {
    for (const Dense& d : dense_) {
      if (id - d.first < d.slots.size()) return &d.slots[id - d.first];
    }
    return nullptr;
  }
  std::vector<std::pair<uint64_t, uint32_t>> pairs_;  // until build
  struct Run {                                        // ids sharing their top 24 bits
    uint64_t top, lo = UINT64_MAX, hi = 0, count = 0;
    bool tabled = false;  // plan gave it a table
  };
  // The dense tables for ids of these runs; returns how many ids they hold.
  size_t plan(std::vector<Run>& runs);
  // A run too sparse for one table may still hold a dense stretch (the ids
  // of a part of a run loaded, and a few far from them): its span cut into
  // kBins equal bins, the busiest stretch of bins dense enough gets a
  // table. Returns how many ids the tables hold.
  static constexpr size_t kBins = 1024;
  static uint64_t bin_width(const Run& r) { return (r.hi - r.lo) / kBins + 1; }
  size_t plan_stretches(const std::vector<const Run*>& runs,
                        const std::vector<std::array<uint64_t, kBins>>& bins);
  // Of two adds of an id, the first wins.
  void insert_dense(uint64_t id, uint32_t value) {
    auto* slot = const_cast<uint32_t*>(dense_slot(id));
    if (!slot) return;
    if (*slot == kEmpty) {
      *slot = value;
    } else {
      found_duplicate(id, *slot, value);
    }
  }
  struct Dense {
    uint64_t first = 0;
    std::vector<uint32_t> slots;  // value per id - first; kEmpty: none
  };
  std::vector<Dense> dense_;                   // a few, with disjoint spans
  base::EventIdMap<uint32_t, kEmpty> sparse_;  // the ids no dense table holds
  uint64_t duplicates_ = 0;
  DuplicateId example_;
  void found_duplicate(uint64_t id, uint32_t first, uint32_t second);
};

class UidIndex {
 public:
  // Uid 0 is "none": never added (find(0) is kNone).
  void add(Uid uid, uint32_t index) {
    if (uid == 0) return;
    const uint32_t rank = trace::rank_of_uid(uid);
    if (rank >= ranks_.size()) ranks_.resize(rank + 1);
    ranks_[rank].add(uid & kSeqMask, index);
  }
  // After the last add; the ranks' tables are built on up to `threads`
  // threads.
  void build(unsigned threads = 1) {
    base::parallel_for(ranks_.size(), threads, [&](unsigned, size_t r) { ranks_[r].build(); });
  }
  // Instead of add and build: add(uids[k], values[k]) for k = 0..n-1, read
  // where they lie: each rank's uids found as runs of consecutive k first
  // (a rank's items mostly lie together), its table built from them.
  void build_from(const Uid* uids, const uint32_t* values, size_t n, unsigned threads = 1);
  // After build: how many adds repeated an earlier uid, and one of them (its
  // id a uid).
  uint64_t duplicates() const {
    uint64_t n = 0;
    for (const IdIndex& m : ranks_) n += m.duplicates();
    return n;
  }
  DuplicateId duplicate_example() const {
    for (uint32_t r = 0; r < ranks_.size(); ++r) {
      if (ranks_[r].duplicates() == 0) continue;
      DuplicateId d = ranks_[r].duplicate_example();
      d.id = trace::make_uid(r, d.id);
      return d;
    }
    return {};
  }
  [[gnu::always_inline]] void prefetch(Uid uid) const {
    const uint32_t rank = trace::rank_of_uid(uid);
    if (rank < ranks_.size()) ranks_[rank].prefetch(uid & kSeqMask);
  }
  // kNone for 0 and for uids never added.
  uint32_t find(Uid uid) const {
    const uint32_t rank = trace::rank_of_uid(uid);
    return uid == 0 || rank >= ranks_.size() ? kNone : ranks_[rank].find(uid & kSeqMask);
  }

 private:
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 48) - 1;
  std::vector<IdIndex> ranks_;
};

template <class Each>
void IdIndex::build_from(Each&& each) {
  // Runs of ids by their top 24 bits: each run dense enough gets a table.
  std::vector<Run> runs;
  size_t last = 0, ids = 0;  // last: the run of the id before, most often this one's too
  bool scattered = false;    // more than kMaxRuns runs: no dense tables
  each([&](uint64_t id, uint32_t) {
    ++ids;
    const uint64_t top = id >> 40;
    if (scattered) return;
    if (last >= runs.size() || runs[last].top != top) {
      last = 0;
      while (last < runs.size() && runs[last].top != top) ++last;
      if (last == runs.size()) {
        scattered = runs.size() == kMaxRuns;
        if (scattered) return runs.clear();
        runs.push_back(Run{top});
      }
    }
    Run& r = runs[last];
    r.lo = std::min(r.lo, id);
    r.hi = std::max(r.hi, id);
    ++r.count;
  });
  size_t dense_ids = plan(runs);
  std::vector<const Run*> loose;
  for (const Run& r : runs)
    if (!r.tabled && r.count >= kMinStretch) loose.push_back(&r);
  if (!loose.empty() && dense_.size() < kMaxDense) {
    std::vector<std::array<uint64_t, kBins>> bins(loose.size(), std::array<uint64_t, kBins>{});
    each([&](uint64_t id, uint32_t) {
      for (size_t k = 0; k < loose.size(); ++k) {
        const Run& r = *loose[k];
        if (id >> 40 != r.top) continue;
        ++bins[k][(id - r.lo) / bin_width(r)];
        break;
      }
    });
    dense_ids += plan_stretches(loose, bins);
  }
  sparse_.build(
      [&](auto&& f) {
        each([&](uint64_t id, uint32_t value) {
          if (!dense_slot(id)) f(id, value);
        });
      },
      ids - std::min(dense_ids, ids),
      [&](uint64_t id, uint32_t first, uint32_t later) { found_duplicate(id, first, later); });
  if (!dense_.empty()) each([&](uint64_t id, uint32_t value) { insert_dense(id, value); });
}

}  // namespace legato::analysis::detail
