// How far a long job has come, for a progress line: the phase it is in
// (what it does, how much there is to do) and how much of it is done,
// advanced from any thread. Files report their share by how far through
// them a reader is (FileProgress).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace legato::base {

class Progress {
 public:
  struct State {
    std::string what;              // "reading 4 files (1.2 GB)"
    uint64_t done = 0, total = 0;  // total 0: not measured
  };
  // Starts a phase; what it had done is forgotten.
  void phase(std::string what, uint64_t total = 0) {
    const std::lock_guard lock(mutex_);
    what_ = std::move(what);
    total_ = total;
    done_.store(0, std::memory_order_relaxed);
  }
  void advance(uint64_t n) { done_.fetch_add(n, std::memory_order_relaxed); }
  State state() const {
    const std::lock_guard lock(mutex_);
    return State{what_, std::min(done_.load(std::memory_order_relaxed), total_), total_};
  }

 private:
  mutable std::mutex mutex_;
  std::string what_;
  uint64_t total_ = 0;
  std::atomic<uint64_t> done_{0};
};

// One file's share of a phase measured in bytes on disk: a reader says how
// far through the file it is (a fraction, in whatever unit it counts), and
// the file's bytes are advanced by as much; all of them once it is done.
class FileProgress {
 public:
  FileProgress(Progress* progress, uint64_t file_bytes) : to_(progress), bytes_(file_bytes) {}
  FileProgress(const FileProgress&) = delete;
  FileProgress& operator=(const FileProgress&) = delete;
  ~FileProgress() { at(1.0); }
  void at(double fraction) {
    if (!to_) return;
    const double f = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    const auto now = static_cast<uint64_t>(f * static_cast<double>(bytes_));
    if (now > reported_) {
      to_->advance(now - reported_);
      reported_ = now;
    }
  }

 private:
  Progress* to_;
  uint64_t bytes_, reported_ = 0;
};

}  // namespace legato::base
