// The network channel of a run of several ranks: one thread per rank that
// moves store data between ranks (transfers) and combines results across
// them (all-reduces, over MPI or NCCL), with non-blocking calls polled in
// turn. Its items are in net_items.hpp.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/ranks/nccl_collectives.hpp"
#include "runtime/ranks/net_items.hpp"

namespace legato::rt {

class Network {
 public:
  Network();
  ~Network();
  // Starts the thread (runs of several ranks), with the all-reduce's
  // channel id. With `gpu`, all-reduces go through NCCL, one at a time.
  void start(uint32_t allreduce_channel, std::unique_ptr<GpuCollectives> gpu = nullptr);
  void stop();
  bool running() const { return thread_.joinable(); }
  void push(std::shared_ptr<NetItem> item);
  uint32_t allreduce_channel() const { return allreduce_channel_; }

 private:
  struct Exchange;
  void loop();
  void accept(std::shared_ptr<NetItem> item);
  void post_collectives();
  bool progress();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<NetItem>> incoming_;
  bool stopping_ = false;
  std::thread thread_;
  uint32_t allreduce_channel_ = 0;
  // Network thread only.
  std::vector<std::unique_ptr<Exchange>> active_;
  std::vector<std::shared_ptr<AllreduceItem>> held_;  // ready collectives waiting their turn
  uint64_t next_collective_ = 0;
  std::unique_ptr<GpuCollectives> gpu_;
  bool gpu_busy_ = false;  // an NCCL all-reduce is in flight
};

}  // namespace legato::rt
