// The network channel of a run of several ranks: one thread per rank that
// moves store data between ranks and combines results across them, with
// non-blocking MPI, and the items it runs. Every transfer is one item on
// each side with the same uid; the receiving rank records it as a copy on
// the channel from the sender's system memory to its own.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/gpu_collectives.hpp"
#include "runtime/operation.hpp"

namespace legato::rt {

// An item whose work is an exchange with other ranks: begun when the
// network thread posts it, ended when MPI says it is over.
class NetItem : public WorkItem {
 public:
  using WorkItem::WorkItem;

 protected:
  void enqueue() override;
  void run() override {}  // the network thread does the work
};

// Elements `range` of a store from rank `from` to rank `to`.
class TransferItem final : public NetItem {
 public:
  // The uid both sides give the transfer numbered `sequence` (in the
  // receiver's uid space, apart from the uids the recorder hands out).
  static trace::Uid uid_for(int to, uint64_t sequence);
  TransferItem(std::shared_ptr<Operation> op, StoreImpl* store, Range range, int from, int to,
               size_t arg, uint64_t sequence);
  StoreImpl* const store;
  const Range range;
  const int from, to;
  const size_t arg;  // the operation's argument it serves
  const uint64_t sequence;
  Instance* instance = nullptr;  // read from (sender) or written (receiver), set by mapping
  bool sending() const;
  uint64_t bytes() const;

 protected:
  void record_trace() override;
};

// This rank's share of an operation's result, combined with every other
// rank's (MPI all-reduce) into the operation's future.
class AllreduceItem final : public NetItem {
 public:
  AllreduceItem(std::shared_ptr<Operation> op, uint64_t sequence);
  const uint64_t sequence;  // collectives are posted in this order on every rank
  // Called by the network thread: the local value in, the combined value out.
  Scalar local() const;
  void deliver(const Scalar& combined);

 protected:
  void record_trace() override;
};

class Network {
 public:
  Network();
  ~Network();
  // Starts the thread (runs of several ranks). Channel ids: one per peer
  // rank (from that rank's system memory to this one's), and the all-reduce
  // channel. With `gpu`, all-reduces go through NCCL, one at a time.
  void start(std::vector<uint32_t> channels_from, uint32_t allreduce_channel,
             std::unique_ptr<GpuCollectives> gpu = nullptr);
  void stop();
  bool running() const { return thread_.joinable(); }
  void push(std::shared_ptr<NetItem> item);
  uint32_t channel_from(int rank) const { return channels_from_.at(static_cast<size_t>(rank)); }
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
  std::vector<uint32_t> channels_from_;
  uint32_t allreduce_channel_ = 0;
  // Network thread only.
  std::vector<std::unique_ptr<Exchange>> active_;
  std::vector<std::shared_ptr<AllreduceItem>> held_;  // ready collectives waiting their turn
  uint64_t next_collective_ = 0;
  std::unique_ptr<GpuCollectives> gpu_;
  bool gpu_busy_ = false;  // an NCCL all-reduce is in flight
};

}  // namespace legato::rt
