// The items of the network channel: transfers of store data between ranks
// and all-reduces of results. Every transfer is one item on each side with
// the same uid; the receiving rank records it as a copy on the channel from
// the sender's system memory to its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/core/work_item.hpp"

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
  StoreInstance* instance = nullptr;  // read from (sender) or written (receiver), set by mapping
  // Receiver: the sender's memory (resource id and name), from its header.
  uint32_t source_memory = 0;
  std::string source_name;
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

}  // namespace legato::rt
