// How operations share out across the ranks of a run (SPMD: every rank
// issues the same operations in the same order). Each task's domain is split
// into one block per rank; every rank keeps the same record of which ranks
// hold valid data of each store range, so every rank works out the same
// transfers without asking the others: the ranks that need a range they do
// not hold receive it from one that does.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/types.hpp"

namespace legato::rt {

class Operation;
class RuntimeImpl;

// A set of ranks (the holders of a range).
class RankSet {
 public:
  static RankSet only(int rank);
  static RankSet all(int ranks);
  bool has(int rank) const;
  void add(int rank);
  bool empty() const;
  int first() const;  // the lowest rank in the set, or -1
  // The lowest rank in the set and not in `other`, or -1.
  int first_not_in(const RankSet& other) const;

 private:
  std::vector<uint64_t> words_;
};

// The ranks holding a store range, and those of them that only received it
// during operation `op` (they do not pass it on in the same operation: data
// goes from where it was, not through another rank).
struct Holding {
  RankSet ranks;
  RankSet arrived;
  uint64_t op = 0;
};

// Rank r's block of [0, n) split evenly over `ranks` (contiguous, in order).
Range rank_block(int64_t n, int rank, int ranks);

// How a task launch runs across ranks.
enum class Spread : uint8_t {
  Blocked,     // each rank runs its block of the domain
  Single,      // rank 0 runs all of it (one point, or points writing shared elements)
  Replicated,  // every rank runs all of it (each rank needs the result itself)
};
Spread spread_of(const Operation& op);

// On a run of several ranks: works out the operation's transfers (making
// this rank's send and receive items), updates which ranks hold what, and
// narrows the operation to this rank's part (op.block for tasks, each
// argument's range for copies and fills). On one rank: op.block is the domain.
void distribute(RuntimeImpl& rt, Operation& op);

}  // namespace legato::rt
