// Mapping (a utility meta-task per operation, in program order): choose the
// processor of every point, the instance of every argument (reusing one that
// covers the range, or creating one), and schedule the copies and fills that
// make the data valid there.
#include <algorithm>

#include "recorder/recorder.hpp"
#include "runtime/runtime_impl.hpp"

namespace legato::rt {
namespace {

// The state of a range whose data is (or will be, once producer completes) in inst alone.
ValidState held_by(Instance* inst, std::shared_ptr<Item> producer) {
  ValidState v;
  v.holders.push_back({inst, std::move(producer)});
  return v;
}

struct Producer {
  Range range;
  std::shared_ptr<Item> item;
};

class Mapper {
 public:
  Mapper(RuntimeImpl& rt, Operation& op) : rt_(rt), op_(op), self_(op.shared_from_this()) {}

  // The smallest instance in memory covering r, or a new one.
  Instance* instance_for(StoreImpl& store, Range r, size_t arg) {
    if (Instance* found = store.smallest_covering(r, &rt_.sysmem())) return found;
    auto inst = std::make_unique<Instance>();
    inst->uid = rt_.new_uid();
    inst->memory = &rt_.sysmem();
    inst->store = &store;
    inst->covered = r;
    inst->bytes = static_cast<uint64_t>(r.size()) * store.elem_size;
    inst->op_uid = op_.uid;
    inst->op_provenance = op_.where->text;
    inst->create_tick = rec::now();
    if (!rt_.sysmem().place(*inst)) rt_.out_of_memory(op_, arg, *inst, rt_.sysmem());
    inst->ready_tick = rec::now();
    std::lock_guard lock(rt_.instances_mu);
    return store.add_instance(std::move(inst));
  }

  // Makes inst hold the current data of r, with copies from the instances
  // that hold it and fills for deferred fills; returns what inst's data
  // over r waits for.
  std::vector<Producer> make_valid(StoreImpl& store, Instance* inst, Range r) {
    std::vector<Producer> out;
    store.valid.for_each(r, [&](Range part, ValidState& v) {
      for (const Holder& h : v.holders) {
        if (h.instance == inst) {
          out.push_back({part, h.producer});
          return;
        }
      }
      std::shared_ptr<WorkItem> made;
      if (v.fill_pending) {
        made = std::make_shared<FillItem>(rt_.new_uid(), self_, inst, part, v.fill_value);
        v.fill_pending = false;
      } else if (!v.holders.empty()) {
        const Holder& from = v.holders.front();
        made = std::make_shared<CopyItem>(rt_.new_uid(), self_, from.instance, part, inst, part);
        made->add_precondition(from.producer, trace::EdgeKind::Data);
      } else {
        return;  // never written: nothing to copy
      }
      v.holders.push_back({inst, made});
      out.push_back({part, made});
      created_.push_back(made);
    });
    return out;
  }

  void map_task() {
    std::vector<std::shared_ptr<PointTask>> points;
    for (auto& w : op_.work) {
      if (auto p = std::dynamic_pointer_cast<PointTask>(w)) points.push_back(p);
    }
    op_.instances.assign(op_.args.size(), nullptr);
    size_t fold_index = 0;
    for (size_t i = 0; i < op_.args.size(); ++i) {
      const StoreArg& a = op_.args[i];
      StoreImpl& store = *a.store;
      const Range whole = a.op_range(op_.domain);
      if (whole.empty() || points.empty()) continue;
      Instance* inst = instance_for(store, whole, i);
      op_.instances[i] = inst;
      if (a.privilege == Privilege::Reduce) {
        map_reduction(i, *op_.folds[fold_index++], inst, whole, points);
        continue;
      }
      // A strided write covers elements between its rows it does not touch:
      // the instance must hold their data too.
      if (reads(a.privilege) || a.strided()) {
        for (const Producer& pr : make_valid(store, inst, whole)) {
          for (auto& p : points) {
            if (pr.range.overlaps(a.point_range(p->chunk)))
              p->add_precondition(pr.item, trace::EdgeKind::Copy);
          }
        }
      }
      if (writes(a.privilege)) {
        for (auto& p : points) store.valid.assign(a.point_range(p->chunk), held_by(inst, p));
      }
    }
    // Points go round the processors, starting where the last operation stopped.
    const size_t start = next_processor();
    for (auto& p : points) {
      p->worker = op_.dep_part
                      ? &rt_.dep_part()
                      : &rt_.cpu((start + static_cast<size_t>(p->point)) % rt_.cpu_count());
      p->lane = p->worker->lane();
    }
  }

  void map_reduction(size_t i, FoldItem& fold, Instance* inst, Range whole,
                     const std::vector<std::shared_ptr<PointTask>>& points) {
    const StoreArg& a = op_.args[i];
    for (const Producer& pr : make_valid(*a.store, inst, whole))
      fold.add_precondition(pr.item, trace::EdgeKind::Copy);
    fold.target = inst;
    fold.range = whole;
    for (auto& p : points) {
      auto* buf = new Instance();
      buf->uid = rt_.new_uid();
      buf->memory = &rt_.sysmem();
      buf->store = a.store.get();
      buf->covered = a.point_range(p->chunk);
      buf->bytes = static_cast<uint64_t>(buf->covered.size()) * a.store->elem_size;
      buf->reduction_buffer = true;
      buf->op_uid = op_.uid;
      buf->op_provenance = op_.where->text;
      buf->create_tick = rec::now();
      if (!rt_.sysmem().place(*buf)) {
        const Instance wanted = *buf;
        delete buf;
        rt_.out_of_memory(op_, i, wanted, rt_.sysmem());
      }
      buf->ready_tick = rec::now();
      rt_.reduction_bytes.fetch_add(buf->bytes);
      p->reduction_buffers.resize(op_.args.size(), nullptr);
      p->reduction_buffers[i] = buf;
      fold.buffers.push_back(buf);
      fold.add_precondition(p, trace::EdgeKind::Data);
    }
    a.store->valid.assign(whole, held_by(inst, fold.shared_from_this()));
  }

  void map_copy() {
    auto& copy = static_cast<CopyItem&>(*op_.work.at(0));
    const auto wait_for = [&](StoreImpl& store, Instance* inst, Range r) {
      for (const Producer& pr : make_valid(store, inst, r))
        copy.add_precondition(pr.item, trace::EdgeKind::Copy);
    };
    StoreImpl& src = *op_.args[0].store;
    StoreImpl& dst = *op_.args[1].store;
    copy.src = instance_for(src, copy.src_range, 0);
    wait_for(src, copy.src, copy.src_range);
    if (op_.args.size() > 2) {
      StoreImpl& index = *op_.args[2].store;
      copy.index = instance_for(index, copy.index_range, 2);
      wait_for(index, copy.index, copy.index_range);
    }
    copy.dst = instance_for(dst, copy.dst_range, 1);
    // A scatter writes only some of its range: the rest must be there already.
    if (reads(op_.args[1].privilege)) wait_for(dst, copy.dst, copy.dst_range);
    dst.valid.assign(copy.dst_range, held_by(copy.dst, op_.work[0]));
  }

  void map_fill() {
    StoreImpl& s = *op_.args[0].store;
    const Range r = op_.args[0].whole;
    if (op_.deferred_fill) {
      ValidState v;
      v.fill_pending = true;
      v.fill_value = op_.fill_value;
      s.valid.assign(r, std::move(v));
      return;
    }
    auto& fill = static_cast<FillItem&>(*op_.work.at(0));
    fill.dst = instance_for(s, r, 0);
    s.valid.assign(r, held_by(fill.dst, op_.work[0]));
  }

  void run() {
    switch (op_.kind) {
      case trace::OpKind::Task:
        map_task();
        break;
      case trace::OpKind::Copy:
        map_copy();
        break;
      case trace::OpKind::Fill:
        map_fill();
        break;
      default:
        break;  // collection: nothing to place
    }
    // The mapping meta-task ends here: from now on its items may run.
    op_.mapped_tick = rec::now();
    for (auto& item : created_) item->release();
    for (auto& item : op_.work) item->release();
    op_.work.clear();
    op_.folds.clear();
  }

 private:
  size_t next_processor() { return rt_.take_cpu_start(); }

  RuntimeImpl& rt_;
  Operation& op_;
  std::shared_ptr<Operation> self_;
  std::vector<std::shared_ptr<WorkItem>> created_;  // copies and fills made here
};

}  // namespace

void RuntimeImpl::map(Operation& op) {
  Mapper(*this, op).run();
  item_finished(op);  // the mapping guard
}

}  // namespace legato::rt
