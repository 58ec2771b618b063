// Pieces of one step handed out, one at a time, to the threads that ask:
// the step's own workers, and a helper that arrives while the step runs
// (a thread whose own work is done). Once closed it hands out no more; a
// piece that throws closes it, and finish() rethrows that failure once
// every piece taken is done.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>

namespace legato::analysis::detail {

class PieceQueue {
 public:
  // Hands out pieces 0..n-1 from now on (helpers waiting in join start).
  void open(size_t n);
  // Runs work(k) for each piece k taken, then after(k), even when work
  // threw, until no piece is left or the queue is closed.
  template <class Work, class After>
  void take(Work&& work, After&& after) {
    for (size_t k = 0; next(k);) {
      try {
        work(k);
      } catch (...) {
        fail(std::current_exception());
      }
      after(k);
      done();
    }
  }
  // For a helper: waits until the queue is opened or closed, then takes
  // pieces as take() does. Returns at once once it is closed.
  template <class Work, class After>
  void join(Work&& work, After&& after) {
    if (wait_open()) take(work, after);
  }
  // Hands out no more pieces (those taken are finished).
  void close();
  // Closes, waits until every piece taken is done, and rethrows the first
  // failure of a piece.
  void finish();

 private:
  bool next(size_t& k);  // false: nothing left, or closed
  void fail(std::exception_ptr e);
  void done();
  bool wait_open();  // false: closed

  std::mutex mutex_;
  std::condition_variable changed_;
  enum class State : unsigned char { Waiting, Open, Closed } state_ = State::Waiting;
  size_t pieces_ = 0, taken_ = 0, done_ = 0;
  std::exception_ptr failure_;
};

}  // namespace legato::analysis::detail
