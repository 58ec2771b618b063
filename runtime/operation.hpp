// Operations as the pipeline sees them, and the items they run as: point
// tasks, copies, fills, reduction folds and instance collection.
#pragma once

#include <condition_variable>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/item.hpp"
#include "runtime/legato.hpp"
#include "runtime/store.hpp"

namespace legato::rt {

class Worker;
struct TaskKindInfo;
struct GpuProcessor;

// A future's value, folded from the producing points' results.
struct FutureState {
  std::mutex mu;
  std::condition_variable cv;
  bool ready = false;
  Scalar value;
  ReduceOp op = ReduceOp::Sum;
  int remaining = 0;  // points still to contribute
  bool any = false;   // some point gave a value
  trace::Uid last_producer = 0;
  uint64_t ready_tick = 0;
  std::vector<std::shared_ptr<Item>> producers;  // the points, for dependents' edges
  void contribute(const Scalar* v, trace::Uid from);
};

struct StoreArg {
  std::shared_ptr<StoreImpl> store;
  bool aligned = true;  // point p gets elements from its chunk; otherwise `whole`
  int64_t offset = 0;
  Range whole;
  Privilege privilege = Privilege::Read;
  ReduceOp reduction = ReduceOp::Sum;
  // Aligned arguments: domain index i covers elements
  // [offset + i*scale, offset + i*scale + width) (rows of a 2-D view when
  // scale > width; plain elements when both are 1).
  int64_t scale = 1;
  int64_t width = 1;

  bool strided() const { return aligned && scale > width; }
  Range point_range(Range chunk) const {
    if (!aligned) return whole;
    if (chunk.empty()) return {offset + chunk.lo * scale, offset + chunk.lo * scale};
    return {offset + chunk.lo * scale, offset + (chunk.hi - 1) * scale + width};
  }
  Range op_range(int64_t domain) const { return point_range({0, domain}); }
};

class WorkItem;
class FoldItem;
class TransferItem;

// Where an API call came from: "file:line" and its interned id, made once
// per call site and kept for the life of the process.
struct Provenance {
  std::string text;
  uint32_t string_id;
};
const Provenance& provenance_of(const std::source_location& where);

class Operation : public std::enable_shared_from_this<Operation> {
 public:
  trace::Uid uid = 0;
  trace::OpKind kind = trace::OpKind::Task;
  std::string_view name;     // the task kind's name, or "Fill", "Copy", "Collect"
  uint32_t name_string = 0;  // interned name
  const Provenance* where = nullptr;
  TaskId task = 0;
  const TaskKindInfo* task_kind = nullptr;  // tasks: the registered kind (stable)
  int64_t domain = 0;
  int64_t unit_elements = 1;  // elements per domain index, for the minimum chunk
  bool dep_part = false;
  bool replicate = false;  // every rank runs the whole domain (runs of several ranks)
  bool on_gpus = false;    // its points run on GPU processors (set by the analysis)
  std::vector<StoreArg> args;
  std::vector<Scalar> scalars;
  std::vector<std::shared_ptr<FutureState>> futures;
  std::shared_ptr<FutureState> result;
  trace::CopyKind copy_kind = trace::CopyKind::Copy;  // copy operations
  Scalar fill_value;                                  // fill operations
  bool deferred_fill = false;                         // ... on a store nothing has touched yet
  std::shared_ptr<StoreImpl> collected;               // instance collection operations

  // Built by the dependence analysis, used by mapping, then dropped.
  Range block;  // tasks: this rank's part of the domain (all of it on one rank)
  std::vector<Range> chunks;
  std::vector<std::shared_ptr<WorkItem>> work;
  std::vector<std::shared_ptr<FoldItem>> folds;  // one per reduction argument
  // Runs of several ranks: this rank's sends and receives, the ranges other
  // ranks write (this rank's copies of them become stale), and this rank's
  // points' share of a result that is combined across ranks.
  std::vector<std::shared_ptr<TransferItem>> transfers;
  struct StaleRange {
    StoreImpl* store;
    Range range;
  };
  std::vector<StaleRange> stale;
  std::shared_ptr<FutureState> partial;

  uint64_t submit_tick = 0;
  uint64_t analyzed_tick = 0;
  uint64_t mapped_tick = 0;
  trace::Uid mapping_uid = 0;
  // Items not finished, plus one until mapping is done.
  std::atomic<int> outstanding{1};
};

// An item that belongs to an operation and takes part in its bookkeeping.
class WorkItem : public Item {
 public:
  WorkItem(trace::Uid uid, std::shared_ptr<Operation> op);

  struct Access {
    StoreImpl* store;
    Range range;
    Privilege privilege;
  };
  std::vector<Access> accesses;   // what the dependence analysis orders it by
  std::shared_ptr<Operation> op;  // dropped when it finishes
  const trace::Uid op_uid;

 protected:
  void retire() override;
};

// One point of a task launch, on a CPU (or the dependent-partitioning) processor.
class PointTask final : public WorkItem {
 public:
  PointTask(trace::Uid uid, std::shared_ptr<Operation> op, int64_t point, Range chunk);
  const int64_t point;
  const Range chunk;
  Worker* worker = nullptr;
  uint32_t lane = 0;
  GpuProcessor* gpu = nullptr;               // a GPU point: its GPU
  std::vector<Instance*> instances;          // per argument, chosen by mapping
  std::vector<Instance*> reduction_buffers;  // per argument; null unless a reduction

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  // The body on a GPU processor: launches on its stream, then waits for them.
  void run_on_gpu(TaskContext& ctx);
};

// A copy of a range between two instances (of one store, or of two stores),
// or an indirect one: a gather (dst[i] = src[index[i]]) or a scatter
// (dst[index[i]] = src[i]), indices counted from the start of the range.
class CopyItem final : public WorkItem {
 public:
  CopyItem(trace::Uid uid, std::shared_ptr<Operation> op, Instance* src, Range src_range,
           Instance* dst, Range dst_range);
  Instance* src;  // set by mapping for copy operations
  const Range src_range;
  Instance* dst;
  const Range dst_range;
  trace::CopyKind kind = trace::CopyKind::Copy;
  Instance* index = nullptr;  // gathers and scatters: int64 indices
  Range index_range;

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;
};

class FillItem final : public WorkItem {
 public:
  FillItem(trace::Uid uid, std::shared_ptr<Operation> op, Instance* dst, Range range, Scalar value);
  Instance* dst;  // set by mapping for fill operations
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
  Instance* target = nullptr;
  Range range;
  std::vector<Instance*> buffers;  // freed when the fold has run

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  uint64_t bytes_ = 0;  // folded
};

// Frees a store's instances once nothing uses them (or only `one` of them,
// an instance a wider one replaced), on a utility thread.
class CollectItem final : public WorkItem {
 public:
  CollectItem(trace::Uid uid, std::shared_ptr<Operation> op, std::shared_ptr<StoreImpl> store,
              Instance* one = nullptr);

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  std::shared_ptr<StoreImpl> store_;
  Instance* one_;
  uint32_t lane_ = 0;
};

}  // namespace legato::rt
