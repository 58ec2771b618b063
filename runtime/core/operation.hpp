// Operations as the pipeline sees them: what the program asked for (a task
// launch, a fill, a copy, a collection), its store arguments and futures,
// and what the dependence analysis builds for mapping.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "runtime/core/item.hpp"
#include "runtime/core/provenance.hpp"
#include "runtime/core/store.hpp"
#include "runtime/legato.hpp"

namespace legato::rt {

struct TaskKindInfo;
class WorkItem;
class FoldItem;
class TransferItem;

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
  rec::Tick ready_tick;
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

  rec::Tick submit_tick;
  rec::Tick analyzed_tick;
  rec::Tick mapped_tick;
  trace::Uid mapping_uid = 0;
  // Items not finished, plus one until mapping is done.
  std::atomic<int> outstanding{1};
};

class RuntimeImpl;
// A fill, copy or collection operation, named after its kind.
std::shared_ptr<Operation> runtime_op(RuntimeImpl& rt, trace::OpKind kind, const Provenance& where);

}  // namespace legato::rt
