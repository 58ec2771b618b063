#include "analysis/piece_queue.hpp"

namespace legato::analysis::detail {

void PieceQueue::open(size_t n) {
  {
    const std::lock_guard lock(mutex_);
    if (state_ != State::Waiting) return;  // closed before it opened
    pieces_ = n;
    state_ = State::Open;
  }
  changed_.notify_all();
}

bool PieceQueue::next(size_t& k) {
  const std::lock_guard lock(mutex_);
  if (state_ != State::Open || taken_ == pieces_) return false;
  k = taken_++;
  return true;
}

void PieceQueue::fail(std::exception_ptr e) {
  const std::lock_guard lock(mutex_);
  if (!failure_) failure_ = std::move(e);
  state_ = State::Closed;  // the others stop after their piece
}

void PieceQueue::done() {
  {
    // Once every piece taken is done, finish() returns and its caller may
    // free what the pieces read: nothing here reads them after this.
    const std::lock_guard lock(mutex_);
    ++done_;
  }
  changed_.notify_all();
}

bool PieceQueue::wait_open() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return state_ != State::Waiting; });
  return state_ == State::Open;
}

void PieceQueue::close() {
  {
    const std::lock_guard lock(mutex_);
    state_ = State::Closed;
  }
  changed_.notify_all();
}

void PieceQueue::finish() {
  {
    std::unique_lock lock(mutex_);
    state_ = State::Closed;
    changed_.wait(lock, [&] { return done_ == taken_; });
  }
  if (failure_) std::rethrow_exception(failure_);
}

}  // namespace legato::analysis::detail
