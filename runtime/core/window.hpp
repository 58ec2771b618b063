// The operation window: how far the top-level task (the program) runs ahead
// of its operations' completion, and the top-level task's recorded waits
// (for the window to drain, for a future's value, for a fence).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <utility>

#include "recorder/clock.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class Operation;

class OperationWindow {
 public:
  // size: operations the program may have unfinished (--window-size);
  // top: the top-level task, whose waits are recorded when profiling.
  OperationWindow(uint64_t size, bool profiling, trace::Uid top);

  // Counts an operation in; a full window first blocks the program until a
  // quarter of it has drained.
  void enter();
  // Called as each of op's items finishes (and once for its mapping, item
  // being the mapping's meta-task): the item that finishes the operation
  // is what a wait for the window to drain waited for.
  void item_finished(Operation& op, trace::Uid item);
  // Blocks the top-level task until at most `at_most` operations are unfinished.
  void wait_for_outstanding(uint64_t at_most);
  void fence() { wait_for_outstanding(0); }

  // Blocks the top-level task until done() holds, recording the wait; event()
  // returns the item whose completion ended it and when that happened (the
  // task could resume then).
  using Event = std::pair<trace::Uid, rec::Tick>;
  void wait(const std::function<bool()>& done, std::condition_variable& cv, std::mutex& mu,
            const std::function<Event()>& event) const;

 private:
  const uint64_t size_;
  const bool profiling_;
  const trace::Uid top_;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t submitted_ = 0, completed_ = 0;
  trace::Uid last_completed_item_ = 0;  // the item that finished the last operation
  bool top_waiting_ = false;
  uint64_t resume_at_ = 0;    // the top level resumes at this many unfinished
  rec::Tick resumable_tick_;  // when it could resume
};

}  // namespace legato::rt
