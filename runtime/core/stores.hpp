// The stores a run holds and their instances: store ids, which stores are
// alive, adding and freeing instances (with the lock mapping, collection
// and reports share), private reduction buffers, and the instance records
// of the trace.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "runtime/core/store.hpp"

namespace legato::rt {

class Stores {
 public:
  // provenance: instance records name where their store was created.
  explicit Stores(bool provenance) : provenance_(provenance) {}

  uint64_t next_id() { return next_id_.fetch_add(1); }
  void add(StoreImpl* store);
  // Every store still alive (for shutdown).
  std::vector<StoreImpl*> live() const;

  // Takes ownership of a new instance of store.
  StoreInstance* add_instance(StoreImpl& store, std::unique_ptr<StoreInstance> inst);
  // Frees every instance of the store and forgets it (collection, shutdown).
  void release_instances(StoreImpl& store);
  // Frees one instance of the store, unless its collection took it already.
  void release_instance(StoreImpl& store, StoreInstance* inst);
  // A point's private reduction buffer: counted while it lives, freed (and
  // recorded) once its fold has run.
  void reduction_buffer_placed(const StoreInstance& buf) { reduction_bytes_ += buf.bytes; }
  void free_reduction_buffer(StoreInstance* buf, rec::Tick now);
  uint64_t reduction_bytes() const { return reduction_bytes_.load(); }

  // Calls f(const StoreImpl&) for every live store, with instances and
  // stores locked (the out-of-memory report).
  template <class F>
  void for_each_live(F f) const {
    std::lock_guard lock(instances_mu_);
    std::lock_guard stores_lock(stores_mu_);
    for (const StoreImpl* s : live_) f(*s);
  }
  // Calls f(const StoreInstance&) for every instance of the store, replaced
  // ones not freed yet too, with instances locked.
  template <class F>
  void for_each_instance(const StoreImpl& store, F f) const {
    std::lock_guard lock(instances_mu_);
    for (const auto& inst : store.instances) f(*inst);
  }
  // Records every live instance as alive at the end (the trace is finished
  // before shutdown: out of memory, a crash).
  void record_live_instances() const;
  void record_instance(const StoreInstance& inst, rec::Tick destroy_tick, uint8_t flags) const;

 private:
  const bool provenance_;
  std::atomic<uint64_t> next_id_{1};
  std::atomic<uint64_t> reduction_bytes_{0};  // in live private reduction buffers
  mutable std::mutex instances_mu_;           // guards every store's instances across threads
  mutable std::mutex stores_mu_;
  std::unordered_set<StoreImpl*> live_;
};

}  // namespace legato::rt
