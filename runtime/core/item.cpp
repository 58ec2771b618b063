#include "runtime/core/item.hpp"

#include <algorithm>

#include "recorder/recorder.hpp"

namespace legato::rt {

Item::Item(trace::Uid uid) : uid_(uid) {
  create_tick = rec::now();
}

void Item::add_precondition(const std::shared_ptr<Item>& pre, trace::EdgeKind kind) {
  if (!pre || pre.get() == this) return;
  bool waits;
  {
    std::lock_guard lock(pre->mu_);
    waits = !pre->done_ || pre->stop_tick > create_tick;
    if (pre->done_) {
      // Already finished: it still bounds when this item could become ready.
      uint64_t seen = latest_pre_stop_.load(std::memory_order_relaxed);
      while (seen < pre->stop_tick.count &&
             !latest_pre_stop_.compare_exchange_weak(seen, pre->stop_tick.count)) {
      }
    } else {
      pending_.fetch_add(1, std::memory_order_relaxed);
      pre->dependents_.push_back(shared_from_this());
    }
  }
  // A precondition that finished before this item existed cannot explain
  // why it started late: only the others are recorded.
  if (waits && rec::active() &&
      std::find(edges_.begin(), edges_.end(), pre->uid_) == edges_.end()) {
    edges_.push_back(pre->uid_);
    rec::record(trace::EdgeRecord{uid_, pre->uid_, kind});
  }
}

void Item::release() {
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) become_ready(rec::Tick{});
}

bool Item::done() const {
  std::lock_guard lock(mu_);
  return done_;
}

void Item::become_ready(rec::Tick pre_stop) {
  // Ticks of other threads can read a few ns early; a ready time never
  // precedes what it waited for.
  ready_tick = std::max({rec::now(), create_tick, pre_stop,
                         rec::Tick{latest_pre_stop_.load(std::memory_order_relaxed)}});
  enqueue();
}

void Item::execute() {
  begin();
  run();
  end();
}

void Item::begin() {
  start_tick = std::max(rec::now(), ready_tick);
}

void Item::end() {
  stop_tick = std::max(rec::now(), start_tick);
  if (rec::active()) record_trace();
  complete();
}

void Item::complete() {
  std::vector<std::shared_ptr<Item>> dependents;
  {
    std::lock_guard lock(mu_);
    done_ = true;
    dependents.swap(dependents_);
  }
  for (auto& d : dependents) {
    if (d->pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) d->become_ready(stop_tick);
  }
  retire();
}

}  // namespace legato::rt
