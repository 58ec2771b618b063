// The items that run on channels: copies (plain, gathers, scatters), fills
// and the folds of reduction buffers.
#pragma once

#include <memory>
#include <vector>

#include "runtime/core/work_item.hpp"

namespace legato::rt {

// The trace record of a copy-like item (copies, fills, folds, transfers,
// all-reduces) on a channel, and writing it.
trace::CopyRecord copy_record(const Item& item, trace::Uid op, uint32_t channel,
                              trace::CopyKind kind, uint64_t bytes, trace::Uid src, trace::Uid dst);
void record_copy(const Item& item, trace::Uid op, uint32_t channel, trace::CopyKind kind,
                 uint64_t bytes, trace::Uid src, trace::Uid dst);

// A copy of a range between two instances (of one store, or of two stores),
// or an indirect one: a gather (dst[i] = src[index[i]]) or a scatter
// (dst[index[i]] = src[i]), indices counted from the start of the range.
class CopyItem final : public WorkItem {
 public:
  CopyItem(trace::Uid uid, std::shared_ptr<Operation> op, StoreInstance* src, Range src_range,
           StoreInstance* dst, Range dst_range);
  StoreInstance* src;  // set by mapping for copy operations
  const Range src_range;
  StoreInstance* dst;
  const Range dst_range;
  trace::CopyKind kind = trace::CopyKind::Copy;
  StoreInstance* index = nullptr;  // gathers and scatters: int64 indices
  Range index_range;

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;
};

class FillItem final : public WorkItem {
 public:
  FillItem(trace::Uid uid, std::shared_ptr<Operation> op, StoreInstance* dst, Range range,
           Scalar value);
  StoreInstance* dst;  // set by mapping for fill operations
  const Range range;
  const Scalar value;

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;
};

// Folds the points' private reduction buffers into the store's instance.
class FoldItem final : public WorkItem {
 public:
  FoldItem(trace::Uid uid, std::shared_ptr<Operation> op, size_t arg);
  const size_t arg;
  StoreInstance* target = nullptr;
  Range range;
  std::vector<StoreInstance*> buffers;  // freed when the fold has run

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  uint64_t bytes_ = 0;  // folded
};

}  // namespace legato::rt
