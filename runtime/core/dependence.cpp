// Dependence analysis (a utility meta-task per operation, in program
// order): split the operation into its items, then order each item after
// the earlier accesses its element ranges conflict with: read after write,
// write after read, write after write.
#include <algorithm>

#include "recorder/recorder.hpp"
#include "runtime/core/collect_item.hpp"
#include "runtime/core/copy_items.hpp"
#include "runtime/core/gpus.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/point_task.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/ranks/net_items.hpp"

namespace legato::rt {
namespace {

// A block of the domain split into point chunks: as many as processors, but
// none smaller than the minimum chunk (in elements; a domain index may stand
// for `unit` elements, a row).
std::vector<Range> split(Range block, int64_t unit, int64_t processors, int64_t min_chunk) {
  std::vector<Range> chunks;
  const int64_t domain = block.size();
  if (domain <= 0) return chunks;
  const int64_t elements = domain * std::max<int64_t>(unit, 1);
  const int64_t by_size = (elements + min_chunk - 1) / min_chunk;
  const int64_t n = std::max<int64_t>(1, std::min(processors, by_size));
  for (int64_t p = 0; p < n; ++p)
    chunks.push_back({block.lo + domain * p / n, block.lo + domain * (p + 1) / n});
  return chunks;
}

void order_after_earlier(WorkItem& item) {
  // Reads first: they must see the state before this item's own writes.
  for (int pass = 0; pass < 2; ++pass) {
    for (const WorkItem::Access& a : item.accesses) {
      const bool write = writes(a.privilege);
      if ((pass == 0) == write) continue;
      if (a.range.empty()) continue;
      std::shared_ptr<Item> self = item.shared_from_this();
      a.store->access.for_each(a.range, [&](Range, AccessState& s) {
        item.add_precondition(s.writer, trace::EdgeKind::Data);
        std::erase_if(s.readers, [](const std::shared_ptr<Item>& r) { return r->done(); });
        if (write) {
          for (const auto& r : s.readers) item.add_precondition(r, trace::EdgeKind::Anti);
        } else {
          s.readers.push_back(self);
        }
      });
      if (write) {
        a.store->access.assign(a.range, AccessState{self, {}});
      } else {
        // Parts never accessed before get this item as their first reader.
        std::vector<Range> gaps;
        a.store->access.for_each_gap(a.range, [&](Range g) { gaps.push_back(g); });
        for (Range g : gaps) a.store->access.assign(g, AccessState{nullptr, {self}});
      }
      a.store->ever_accessed = true;
    }
  }
}

// How many contributions the operation's result waits for: every point's,
// or on several ranks this rank's share (which an all-reduce then combines
// with the others' into the result).
void prepare_result(Operation& op) {
  if (op.partial) {
    // Several ranks: the points fold into this rank's share, which an
    // all-reduce combines with the others' into the result.
    op.partial->remaining = static_cast<int>(op.chunks.size());
    std::lock_guard lock(op.result->mu);
    op.result->remaining = 1;
  } else if (op.result) {
    {
      std::lock_guard lock(op.result->mu);
      op.result->remaining = static_cast<int>(op.chunks.size());
      op.result->ready = op.chunks.empty();  // an empty domain: the identity, now
      op.result->ready_tick = rec::now();
    }
    if (op.chunks.empty()) op.result->cv.notify_all();
  }
}

// A task launch: its points (and on several ranks the all-reduce of their
// result), then a fold per reduction argument.
void add_points(RuntimeImpl& rt, Operation& op, const std::shared_ptr<Operation>& self) {
  // Several points writing the same elements would race: such launches run as one point.
  const bool shared_write = std::any_of(op.args.begin(), op.args.end(), [](const StoreArg& a) {
    return !a.aligned && a.privilege != Privilege::Reduce && writes(a.privilege);
  });
  op.on_gpus = rt.on_gpus(op);
  const int64_t processors = op.dep_part || shared_write ? 1
                             : op.on_gpus                ? static_cast<int64_t>(rt.gpus().count())
                                                         : static_cast<int64_t>(rt.cpu_count());
  const Config& c = rt.config();
  op.chunks =
      split(op.block, op.unit_elements, processors, op.on_gpus ? c.min_gpu_chunk : c.min_cpu_chunk);
  prepare_result(op);
  // Several ranks: the all-reduce waits for this rank's points.
  std::shared_ptr<AllreduceItem> combine =
      op.partial ? std::make_shared<AllreduceItem>(self, rt.take_collective_sequence()) : nullptr;
  for (size_t p = 0; p < op.chunks.size(); ++p) {
    auto point =
        std::make_shared<PointTask>(rt.new_uid(), self, static_cast<int64_t>(p), op.chunks[p]);
    for (const StoreArg& a : op.args) {
      if (a.privilege != Privilege::Reduce) {
        point->accesses.push_back({a.store.get(), a.point_range(op.chunks[p]), a.privilege});
      }
    }
    for (const auto& f : op.futures) {
      for (const auto& producer : f->producers)
        point->add_precondition(producer, trace::EdgeKind::Data);
    }
    if (combine) {
      combine->add_precondition(point, trace::EdgeKind::Data);
    } else if (op.result) {
      op.result->producers.push_back(point);
    }
    op.work.push_back(point);
  }
  if (combine) {
    op.result->producers.push_back(combine);
    op.work.push_back(combine);
  }
  for (size_t i = 0; i < op.args.size(); ++i) {
    if (op.args[i].privilege != Privilege::Reduce || op.chunks.empty()) continue;
    auto fold = std::make_shared<FoldItem>(rt.new_uid(), self, i);
    fold->accesses.push_back(
        {op.args[i].store.get(), op.args[i].point_range(op.block), Privilege::ReadWrite});
    op.folds.push_back(fold);
    op.work.push_back(fold);
  }
}

// A copy operation's item (args: source, destination, and for gathers and
// scatters the indices).
void add_copy(RuntimeImpl& rt, Operation& op, const std::shared_ptr<Operation>& self) {
  if (op.args[1].whole.empty()) return;  // another rank's part
  auto copy = std::make_shared<CopyItem>(rt.new_uid(), self, nullptr, op.args[0].whole, nullptr,
                                         op.args[1].whole);
  copy->kind = op.copy_kind;
  for (const StoreArg& a : op.args) copy->accesses.push_back({a.store.get(), a.whole, a.privilege});
  if (op.args.size() > 2) copy->index_range = op.args[2].whole;
  op.work.push_back(copy);
}

// A store nothing has touched yet gets its fill when some operation first
// needs the data; otherwise the fill runs now, in order.
void add_fill(RuntimeImpl& rt, Operation& op, const std::shared_ptr<Operation>& self) {
  StoreImpl& s = *op.args[0].store;
  op.deferred_fill = !s.ever_accessed || op.args[0].whole.empty();
  if (op.deferred_fill) return;
  auto fill =
      std::make_shared<FillItem>(rt.new_uid(), self, nullptr, op.args[0].whole, op.fill_value);
  fill->accesses.push_back({&s, op.args[0].whole, Privilege::Write});
  op.work.push_back(fill);
}

void add_collect(RuntimeImpl& rt, Operation& op, const std::shared_ptr<Operation>& self) {
  auto collect = std::make_shared<CollectItem>(rt.new_uid(), self, op.collected);
  collect->accesses.push_back({op.collected.get(), {0, op.collected->size}, Privilege::Write});
  op.work.push_back(collect);
}

}  // namespace

void RuntimeImpl::analyze(Operation& op) {
  std::shared_ptr<Operation> self = op.shared_from_this();
  distribute(*this, op);  // this rank's part, and its transfers (first in op.work)
  switch (op.kind) {
    case trace::OpKind::Task:
      add_points(*this, op, self);
      break;
    case trace::OpKind::Copy:
      add_copy(*this, op, self);
      break;
    case trace::OpKind::Fill:
      add_fill(*this, op, self);
      break;
    case trace::OpKind::Collect:
      add_collect(*this, op, self);
      break;
    default:
      break;
  }
  for (auto& item : op.work) order_after_earlier(*item);
}

}  // namespace legato::rt
