// Finding an item or operation by uid while the model is built. Uids are
// (rank << 48) | sequence, and each rank hands out its sequences nearly
// densely, so a rank gets a table indexed by sequence (one load per lookup);
// a rank whose uids are too sparse for that keeps sorted pairs and binary
// search.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::analysis::detail {

class UidIndex {
 public:
  void add(Uid uid, uint32_t index) { pairs_.emplace_back(uid, index); }
  void reserve(size_t n) { pairs_.reserve(n); }
  // After the last add. When a uid was added twice, the first add wins.
  void build();
  // kNone for 0 and for uids never added.
  uint32_t find(Uid uid) const {
    if (uid == 0) return kNone;
    const uint32_t rank = trace::rank_of_uid(uid);
    if (rank < dense_.size() && !dense_[rank].slots.empty()) {
      const Dense& d = dense_[rank];
      const uint64_t seq = uid & kSeqMask;
      return seq >= d.first && seq - d.first < d.slots.size() ? d.slots[seq - d.first] : kNone;
    }
    return find_sparse(uid);
  }

 private:
  static constexpr uint64_t kSeqMask = (uint64_t{1} << 48) - 1;
  struct Dense {
    uint64_t first = 0;
    std::vector<uint32_t> slots;  // index per sequence - first; kNone: no such uid
  };
  uint32_t find_sparse(Uid uid) const;
  std::vector<std::pair<Uid, uint32_t>> pairs_;  // after build: the sparse ranks', sorted
  std::vector<Dense> dense_;                     // per rank; empty slots: sparse
};

}  // namespace legato::analysis::detail
