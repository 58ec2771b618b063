// A profile's findings (default thresholds), computed on a background thread
// once the profile is loaded so the first frame does not wait for the rules.
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "analysis/findings.hpp"

namespace legato::viewer {

class FindingsJob {
 public:
  FindingsJob() = default;
  FindingsJob(const FindingsJob&) = delete;
  FindingsJob& operator=(const FindingsJob&) = delete;
  ~FindingsJob();

  // Starts the rules on p, which must outlive the job or the next start/clear.
  void start(const analysis::Profile& p);
  // Waits for a started job and forgets it.
  void clear();
  // Waits for a started job to finish (its result stays to be taken).
  void wait() {
    if (worker_.joinable()) worker_.join();
  }
  // Nothing is being computed (finished, or never started).
  bool done() const { return done_.load(std::memory_order_acquire); }
  // Once done: the findings (moved out) and why they could not be computed
  // (empty when they were).
  analysis::Findings take(std::string* error);

 private:
  std::thread worker_;
  std::atomic<bool> done_{true};
  analysis::Findings result_;
  std::string error_;
};

}  // namespace legato::viewer
