// The utility threads: dependence analysis and mapping of operations in
// program order (one of each at a time, so the two stages overlap), and
// items that run on utility processors (instance collection).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "recorder/clock.hpp"

namespace legato::rt {

class Item;
class Operation;
class RuntimeImpl;

class Pipeline {
 public:
  void start(RuntimeImpl& rt, const std::vector<uint32_t>& lanes);
  void stop();
  void submit(std::shared_ptr<Operation> op);
  void push_ready(std::shared_ptr<Item> item);

 private:
  void loop(RuntimeImpl& rt, uint32_t lane);

  // Operations go through each stage one at a time, in program order.
  struct Stage {
    std::deque<std::shared_ptr<Operation>> queue;
    bool busy = false;
    rec::Tick last_tick;  // when the stage last finished an operation
  };
  // Runs the stage on its next operation with the lock released, records
  // the meta-task and returns the operation.
  std::shared_ptr<Operation> run_stage(std::unique_lock<std::mutex>& lock, Stage& stage,
                                       bool mapping, RuntimeImpl& rt, uint32_t lane);

  // Operations waiting before a second utility thread is woken to share them.
  static constexpr size_t kShareBacklog = 8;
  std::mutex mu_;
  std::condition_variable cv_;
  Stage analysis_, mapping_;
  std::deque<std::shared_ptr<Item>> ready_;
  bool stopping_ = false;
  int waiting_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace legato::rt
