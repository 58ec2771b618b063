// The runtime's side of a store: what the dependence analysis remembers of
// past accesses, and which instances hold valid data for which elements.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/distribution.hpp"
#include "runtime/interval_map.hpp"
#include "runtime/item.hpp"
#include "runtime/memory.hpp"

namespace legato::rt {

struct Provenance;

// Who touched a range last (dependence analysis).
struct AccessState {
  std::shared_ptr<Item> writer;
  std::vector<std::shared_ptr<Item>> readers;  // since the last write, unfinished ones
};

// Where the current data of a range lives (mapping).
struct Holder {
  Instance* instance;
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

  // Dependence analysis (one analysis at a time).
  IntervalMap<AccessState> access;
  bool ever_accessed = false;
  // Which ranks hold valid data of each range (runs of several ranks; the
  // same on every rank, kept by the analysis).
  IntervalMap<Holding> holders;
  // Mapping (one mapping at a time).
  IntervalMap<ValidState> valid;
  std::vector<std::unique_ptr<Instance>> instances;

  // The smallest instance in `memory` that covers r, or nullptr. Only
  // instances that start within the longest instance's length before r can
  // cover it, so a store with many small instances stays cheap to search.
  Instance* smallest_covering(Range r, const MemoryPool* memory) const;
  // Widens r to span every instance in `memory` that overlaps it, marks
  // those retired and stops offering them; returns them in `retired`.
  Range retire_overlapping(Range r, const MemoryPool* memory, std::vector<Instance*>& retired);
  // Frees one instance (a retired one, once its users are done) unless the
  // store's collection took it already; true if it was still there.
  bool take_instance(Instance* inst, std::unique_ptr<Instance>& out);
  // Takes ownership (the caller holds the runtime's instances lock).
  Instance* add_instance(std::unique_ptr<Instance> inst);
  void clear_instances(std::vector<std::unique_ptr<Instance>>& out);

 private:
  std::multimap<int64_t, Instance*> by_lo_;
  int64_t longest_ = 0;
};

}  // namespace legato::rt
