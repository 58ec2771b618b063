// Threads that run items: CPU workers, the dependent-partitioning processor
// and the copy channels each have one, with a FIFO of ready items.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/core/item.hpp"

namespace legato::rt {

class Worker {
 public:
  // lane: the processor its work is recorded on (0 for channels);
  // on_start runs first on the worker's thread (a GPU worker selects its GPU).
  Worker(std::string thread_name, uint32_t lane, std::function<void()> on_start = {});
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void push(std::shared_ptr<Item> item);
  uint32_t lane() const { return lane_; }

 private:
  void loop(const std::string& name, const std::function<void()>& on_start);

  const uint32_t lane_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Item>> queue_;
  bool stopping_ = false;
  bool waiting_ = false;
  std::thread thread_;
};

}  // namespace legato::rt
