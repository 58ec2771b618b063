// The runtime's side of a store: what the dependence analysis remembers of
// past accesses, and which instances hold valid data for which elements.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "recorder/clock.hpp"
#include "runtime/core/interval_map.hpp"
#include "runtime/core/item.hpp"
#include "runtime/memory/pool.hpp"
#include "runtime/ranks/distribution.hpp"

namespace legato::rt {

struct Provenance;
class StoreImpl;

// An instance of a store, with what mapping and the reports need to know of
// it: whose it is, which operation made it, the items given it (finished
// ones are pruned now and then), the items writing into it that may not
// have finished (pruned at every write), and whether a wider instance has
// replaced it.
struct StoreInstance : Instance {
  StoreImpl* store = nullptr;
  bool reduction_buffer = false;  // a point task's private reduction target
  // The operation it was created for, for traces and out-of-memory reports.
  trace::Uid op_uid = 0;
  std::string op_provenance;  // "file:line" of that operation
  rec::Tick create_tick, ready_tick;
  std::vector<std::shared_ptr<Item>> users;
  struct Write {
    Range range;
    std::shared_ptr<Item> item;
  };
  std::vector<Write> writes;
  bool retired = false;
};

// Who touched a range last (dependence analysis).
struct AccessState {
  std::shared_ptr<Item> writer;
  std::vector<std::shared_ptr<Item>> readers;  // since the last write, unfinished ones
};

// Where the current data of a range lives (mapping).
struct Holder {
  StoreInstance* instance;
  std::shared_ptr<Item> producer;  // completes when the data is valid there
};
struct ValidState {
  std::vector<Holder> holders;
  bool fill_pending = false;  // not materialized yet: the value of a deferred fill
  Scalar fill_value;
};

class StoreImpl {
 public:
  StoreImpl(uint64_t id, int64_t size, DType type, std::string name, const Provenance& where);

  const uint64_t id;
  const int64_t size;
  const DType type;
  const size_t elem_size;
  const std::string name;
  const Provenance& where;        // where it was created
  const std::string& provenance;  // its "file:line"
  uint32_t name_string = 0;       // interned for the trace

  // Handles held by the program; the last one going triggers collection.
  std::atomic<int64_t> user_handles{0};
  // The program's stencil hint: a new instance for a range also covers this
  // many elements before and after it (stencil_hint).
  std::atomic<int64_t> halo_low{0}, halo_high{0};

  // Dependence analysis (one analysis at a time).
  IntervalMap<AccessState> access;
  bool ever_accessed = false;
  // Which ranks hold valid data of each range (runs of several ranks; the
  // same on every rank, kept by the analysis).
  IntervalMap<Holding> holders;
  // Mapping (one mapping at a time).
  IntervalMap<ValidState> valid;
  std::vector<std::unique_ptr<StoreInstance>> instances;

  // The smallest instance in `memory` that covers r, or nullptr. Only
  // instances that start within the longest instance's length before r can
  // cover it, so a store with many small instances stays cheap to search.
  StoreInstance* smallest_covering(Range r, const MemoryPool* memory) const;
  // r widened until it spans every instance in `memory` that overlaps it.
  Range overlapping_span(Range r, const MemoryPool* memory) const;
  // Marks every instance in `memory` that overlaps r retired and stops
  // offering it; returns them in `retired`.
  void retire_overlapping(Range r, const MemoryPool* memory, std::vector<StoreInstance*>& retired);
  // Frees one instance (a retired one, once its users are done) unless the
  // store's collection took it already; true if it was still there.
  bool take_instance(StoreInstance* inst, std::unique_ptr<StoreInstance>& out);
  // Takes ownership (the caller holds the runtime's instances lock).
  StoreInstance* add_instance(std::unique_ptr<StoreInstance> inst);
  void clear_instances(std::vector<std::unique_ptr<StoreInstance>>& out);

 private:
  std::multimap<int64_t, StoreInstance*> by_lo_;
  int64_t longest_ = 0;
};

}  // namespace legato::rt
