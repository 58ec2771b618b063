#include "runtime/ranks/distribution.hpp"

#include <algorithm>
#include <bit>

#include "runtime/core/operation.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/network.hpp"

namespace legato::rt {

RankSet RankSet::only(int rank) {
  RankSet s;
  s.add(rank);
  return s;
}

RankSet RankSet::all(int ranks) {
  RankSet s;
  for (int r = 0; r < ranks; ++r) s.add(r);
  return s;
}

bool RankSet::has(int rank) const {
  const auto w = static_cast<size_t>(rank) / 64;
  return w < words_.size() && ((words_[w] >> (rank % 64)) & 1) != 0;
}

void RankSet::add(int rank) {
  const auto w = static_cast<size_t>(rank) / 64;
  if (words_.size() <= w) words_.resize(w + 1, 0);
  words_[w] |= uint64_t{1} << (rank % 64);
}

bool RankSet::empty() const {
  return first() < 0;
}

int RankSet::first() const {
  return first_not_in(RankSet{});
}

int RankSet::first_not_in(const RankSet& other) const {
  for (size_t w = 0; w < words_.size(); ++w) {
    const uint64_t mine = words_[w] & ~(w < other.words_.size() ? other.words_[w] : 0);
    if (mine != 0) return static_cast<int>(w * 64) + std::countr_zero(mine);
  }
  return -1;
}

Range rank_block(int64_t n, int rank, int ranks) {
  return {n * rank / ranks, n * (rank + 1) / ranks};
}

Spread spread_of(const Operation& op) {
  if (op.kind != trace::OpKind::Task) return Spread::Blocked;
  if (op.replicate || op.args.empty()) return Spread::Replicated;
  const bool shared_write = std::any_of(op.args.begin(), op.args.end(), [](const StoreArg& a) {
    return !a.aligned && writes(a.privilege);
  });
  return op.dep_part || shared_write ? Spread::Single : Spread::Blocked;
}

namespace {

Range shifted(Range block, int64_t by) {
  return {by + block.lo, by + block.hi};
}

// What rank q touches of each argument of one operation.
class Pieces {
 public:
  Pieces(const Operation& op, int ranks)
      : op_(op),
        ranks_(ranks),
        spread_(spread_of(op)),
        fill_everywhere_(op.kind == trace::OpKind::Fill && op.args[0].store->holders.size() == 0) {}

  Spread spread() const { return spread_; }
  // A fill of a store nobody has written yet is replicated: every rank has
  // the value (and makes it only where it needs it).
  bool fill_everywhere() const { return fill_everywhere_; }

  Range task_block(int q) const {
    switch (spread_) {
      case Spread::Blocked:
        return rank_block(op_.domain, q, ranks_);
      case Spread::Single:
        return q == 0 ? Range{0, op_.domain} : Range{};
      default:
        return {0, op_.domain};
    }
  }

  Range of(size_t arg, int q) const {
    const StoreArg& a = op_.args[arg];
    switch (op_.kind) {
      case trace::OpKind::Task: {
        const Range block = task_block(q);
        return block.empty() ? Range{} : a.point_range(block);
      }
      case trace::OpKind::Fill:
        return fill_everywhere_ ? a.whole
                                : shifted(rank_block(a.whole.size(), q, ranks_), a.whole.lo);
      case trace::OpKind::Copy:
        break;
      default:
        return {};
    }
    // Copies: source, destination (and indices). A plain copy splits both
    // sides alike; a gather splits its indices and destination and needs
    // all of the source; a scatter (its targets depend on the data) runs on rank 0.
    switch (op_.copy_kind) {
      case trace::CopyKind::Scatter:
        return q == 0 ? a.whole : Range{};
      case trace::CopyKind::Gather: {
        const Range block = rank_block(op_.args[2].whole.size(), q, ranks_);
        if (arg == 0) return block.empty() ? Range{} : a.whole;
        return shifted(block, a.whole.lo);
      }
      default:
        return shifted(rank_block(op_.args[1].whole.size(), q, ranks_), a.whole.lo);
    }
  }

 private:
  const Operation& op_;
  const int ranks_;
  const Spread spread_;
  const bool fill_everywhere_;
};

}  // namespace

void distribute(RuntimeImpl& rt, Operation& op) {
  const int ranks = comm::size();
  op.block = {0, op.domain};
  if (ranks == 1) return;
  if (op.kind == trace::OpKind::Collect) {
    op.collected->holders.clear();
    return;
  }
  const int me = comm::rank();
  const Pieces pieces(op, ranks);
  std::shared_ptr<Operation> self = op.shared_from_this();
  // Reads (and strided writes, which keep the elements between their rows)
  // need the current data: ranks that do not hold a part get it from the
  // lowest rank that held it before this operation.
  for (size_t i = 0; i < op.args.size(); ++i) {
    const StoreArg& a = op.args[i];
    if (!reads(a.privilege) && !a.strided()) continue;
    for (int q = 0; q < ranks; ++q) {
      a.store->holders.for_each(pieces.of(i, q), [&](Range part, Holding& held) {
        if (held.ranks.empty() || held.ranks.has(q)) return;
        if (held.op != op.uid) held = {held.ranks, RankSet{}, op.uid};
        const int from = held.ranks.first_not_in(held.arrived);
        held.ranks.add(q);
        held.arrived.add(q);
        const uint64_t sequence = rt.take_transfer_sequence();
        if (from != me && q != me) return;
        auto t = std::make_shared<TransferItem>(self, a.store.get(), part, from, q, i, sequence);
        op.transfers.push_back(t);
        op.work.push_back(t);
      });
    }
  }
  // Writes: the writer alone holds the new data (everyone, for work every
  // rank does); other ranks' copies are stale.
  const bool everywhere = pieces.spread() == Spread::Replicated || pieces.fill_everywhere();
  for (size_t i = 0; i < op.args.size(); ++i) {
    const StoreArg& a = op.args[i];
    if (!writes(a.privilege)) continue;
    for (int q = 0; q < (everywhere ? 1 : ranks); ++q) {
      const Range r = pieces.of(i, q);
      if (r.empty()) continue;
      a.store->holders.assign(r, {everywhere ? RankSet::all(ranks) : RankSet::only(q), {}, 0});
      if (!everywhere && q != me) op.stale.push_back({a.store.get(), r});
    }
  }
  // This rank's part.
  if (op.kind == trace::OpKind::Task) {
    op.block = pieces.task_block(me);
    if (op.result && pieces.spread() != Spread::Replicated) {
      op.partial = std::make_shared<FutureState>();
      op.partial->op = op.result->op;
      op.partial->value = op.result->value;
    }
  } else {
    std::vector<Range> mine;
    for (size_t i = 0; i < op.args.size(); ++i) mine.push_back(pieces.of(i, me));
    for (size_t i = 0; i < op.args.size(); ++i) op.args[i].whole = mine[i];
  }
}

}  // namespace legato::rt
