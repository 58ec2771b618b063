// The event graph: everything that runs (point tasks, copies, fills,
// reduction folds, instance collection) is an Item. An item runs once every
// precondition has completed; completing it releases its dependents.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "recorder/clock.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class Item : public std::enable_shared_from_this<Item> {
 public:
  explicit Item(trace::Uid uid);
  virtual ~Item() = default;
  Item(const Item&) = delete;
  Item& operator=(const Item&) = delete;

  trace::Uid uid() const { return uid_; }

  // This item cannot run before pre completes (the edge is recorded).
  void add_precondition(const std::shared_ptr<Item>& pre, trace::EdgeKind kind);
  // Setup is over: the item runs as soon as its preconditions are done.
  void release();
  bool done() const;

  // Run by the worker that executes it: begin(), the body, end().
  void execute();
  // For items whose work finishes later than it starts (network exchanges):
  // the start time, then (once the work is over) the stop time, the trace
  // and the release of dependents.
  void begin();
  void end();

  rec::Tick create_tick;
  rec::Tick ready_tick;
  rec::Tick start_tick;
  rec::Tick stop_tick;

 protected:
  // Hand the item to whatever runs it (a worker queue).
  virtual void enqueue() = 0;
  virtual void run() = 0;
  // Write the item's record; times are ticks, causally ordered.
  virtual void record_trace() = 0;
  // After completion: drop references the finished item no longer needs.
  virtual void retire() {}

 private:
  void become_ready(rec::Tick pre_stop);
  void complete();

  const trace::Uid uid_;
  mutable std::mutex mu_;
  bool done_ = false;
  std::vector<std::shared_ptr<Item>> dependents_;
  std::atomic<int> pending_{1};               // unfinished preconditions + the setup guard
  std::atomic<uint64_t> latest_pre_stop_{0};  // ticks
  std::vector<trace::Uid> edges_;             // recorded, to record each once
};

}  // namespace legato::rt
