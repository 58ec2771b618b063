#include "runtime/core/window.hpp"

#include <algorithm>

#include "recorder/recorder.hpp"
#include "runtime/core/operation.hpp"

namespace legato::rt {

OperationWindow::OperationWindow(uint64_t size, bool profiling, trace::Uid top)
    : size_(size), profiling_(profiling), top_(top) {}

void OperationWindow::enter() {
  bool full;
  {
    std::lock_guard lock(mu_);
    full = submitted_ - completed_ >= size_;
  }
  // A full window: wait until a quarter of it has drained, then run ahead again.
  if (full) wait_for_outstanding(size_ - size_ / 4);
  std::lock_guard lock(mu_);
  ++submitted_;
}

void OperationWindow::wait(const std::function<bool()>& done, std::condition_variable& cv,
                           std::mutex& mu, const std::function<Event()>& event) const {
  const rec::Tick start = rec::now();
  Event ev;
  {
    std::unique_lock lock(mu);
    cv.wait(lock, done);
    ev = event();
  }
  const rec::Tick end = std::max(rec::now(), start);
  const rec::Tick ready = std::clamp(ev.second, start, end);
  if (profiling_) {
    rec::record(
        trace::WaitRecord{top_, rec::stamp(start), rec::stamp(ready), rec::stamp(end), ev.first});
  }
}

void OperationWindow::wait_for_outstanding(uint64_t at_most) {
  {
    std::lock_guard lock(mu_);
    resume_at_ = at_most;
    top_waiting_ = true;
  }
  wait([&] { return submitted_ - completed_ <= resume_at_; }, cv_, mu_,
       [&] {
         return Event{last_completed_item_, resumable_tick_};
       });
  std::lock_guard lock(mu_);
  top_waiting_ = false;
}

void OperationWindow::item_finished(Operation& op, trace::Uid item) {
  if (op.outstanding.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  bool wake;
  {
    std::lock_guard lock(mu_);
    ++completed_;
    last_completed_item_ = item;
    // Wake the top level only when what it waits for has come.
    wake = top_waiting_ && submitted_ - completed_ <= resume_at_;
    if (wake) resumable_tick_ = rec::now();
  }
  if (wake) cv_.notify_all();
}

}  // namespace legato::rt
