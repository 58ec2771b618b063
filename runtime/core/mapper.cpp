// Mapping (a utility meta-task per operation, in program order): choose the
// processor of every point, the instance of every argument (reusing one that
// covers the range, or creating one), and schedule the copies and fills that
// make the data valid there.
#include <algorithm>
#include <stdexcept>

#include "recorder/recorder.hpp"
#include "runtime/core/collect_item.hpp"
#include "runtime/core/copy_items.hpp"
#include "runtime/core/gpus.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/point_task.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/stores.hpp"
#include "runtime/core/window.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/net_items.hpp"

namespace legato::rt {
namespace {

// The state of a range whose data is (or will be, once producer completes) in inst alone.
ValidState held_by(StoreInstance* inst, std::shared_ptr<Item> producer) {
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

  // The smallest instance in host memory covering r, or a new one. Runs
  // with GPUs keep host-side data in zero-copy memory while it has room
  // (copies to and from the GPUs run at full speed from there).
  StoreInstance* host_instance(StoreImpl& store, Range r, size_t arg) {
    MemoryPool* zc = rt_.gpus().zcmem();
    if (zc != nullptr) {
      if (StoreInstance* found = store.smallest_covering(r, zc)) return found;
    }
    if (StoreInstance* found = store.smallest_covering(r, &rt_.sysmem())) return found;
    return instance_for(store, r, arg, zc != nullptr ? *zc : rt_.sysmem());
  }

  // The smallest instance in `memory` covering r, or a new one (zero-copy
  // memory that is full sends it to system memory).
  StoreInstance* instance_for(StoreImpl& store, Range wanted, size_t arg, MemoryPool& memory) {
    if (StoreInstance* found = store.smallest_covering(wanted, &memory)) return found;
    // The program's stencil hint: the new instance covers the halo too.
    Range r = {std::max<int64_t>(0, wanted.lo - store.halo_low.load(std::memory_order_relaxed)),
               std::min(store.size, wanted.hi + store.halo_high.load(std::memory_order_relaxed))};
    // On several ranks what a rank touches of a store shifts (halos, shifted
    // views, whole vectors): a new instance spans the ones it overlaps,
    // which take their data to it and are freed once their users are done,
    // and leaves a margin on each side for the next shift, so each rank
    // settles on one instance per region of a store.
    if (distributed_) {
      r = store.overlapping_span(r, &memory);
      const int64_t margin = r.size() / kMarginDivisor;
      r = store.overlapping_span(
          {std::max<int64_t>(0, r.lo - margin), std::min(store.size, r.hi + margin)}, &memory);
    }
    auto inst = std::make_unique<StoreInstance>();
    inst->uid = rt_.new_uid();
    inst->memory = &memory;
    inst->store = &store;
    inst->covered = r;
    inst->bytes = static_cast<uint64_t>(r.size()) * store.elem_size;
    inst->op_uid = op_.uid;
    inst->op_provenance = op_.where->text;
    inst->create_tick = rec::now();
    if (!memory.place(*inst)) {
      // Nothing is retired yet: a full zero-copy memory leaves the instances
      // there as they are, and the new one goes to system memory.
      if (&memory == rt_.gpus().zcmem()) return instance_for(store, wanted, arg, rt_.sysmem());
      rt_.out_of_memory(op_, arg, *inst, memory);
    }
    inst->ready_tick = rec::now();
    std::vector<StoreInstance*> replaced;
    if (distributed_) store.retire_overlapping(r, &memory, replaced);
    StoreInstance* made = rt_.stores().add_instance(store, std::move(inst));
    for (StoreInstance* old : replaced) {
      make_valid(store, made, old->covered);
      store.valid.for_each(old->covered, [&](Range, ValidState& v) {
        std::erase_if(v.holders, [&](const Holder& h) { return h.instance == old; });
      });
      retired_.push_back({&store, old});
    }
    return made;
  }

  // Notes that item works on inst (runs of several ranks, where instances
  // are replaced and freed once their users are done).
  void use(StoreInstance* inst, const std::shared_ptr<Item>& item) {
    if (!distributed_ || inst == nullptr) return;
    if (inst->users.size() >= kPruneUsers)
      std::erase_if(inst->users, [](const std::shared_ptr<Item>& u) { return u->done(); });
    inst->users.push_back(item);
  }

  // Orders `writer` after the unfinished items that write into inst over r
  // (copies, fills, receives and tasks mapped earlier), and notes it among
  // them. The dependence analysis orders the operations' own items, but not
  // the copies and fills mapping makes; and the valid-data state forgets a
  // copy still on its way into inst once another rank's write makes that
  // data stale, so it cannot say what a write must wait for.
  static void write_into(StoreInstance* inst, Range r, const std::shared_ptr<Item>& writer) {
    std::erase_if(inst->writes, [](const StoreInstance::Write& w) { return w.item->done(); });
    for (const StoreInstance::Write& w : inst->writes) {
      if (w.range.overlaps(r)) writer->add_precondition(w.item, trace::EdgeKind::Instance);
    }
    inst->writes.push_back({r, writer});
  }

  // The instance that replaced a retired one (the smallest now covering r).
  StoreInstance* current(StoreImpl& store, StoreInstance* inst, Range r) {
    return inst != nullptr && inst->retired ? store.smallest_covering(r, inst->memory) : inst;
  }

  // Makes inst hold the current data of r, with copies from the instances
  // that hold it and fills for deferred fills; returns what inst's data
  // over r waits for.
  std::vector<Producer> make_valid(StoreImpl& store, StoreInstance* inst, Range r) {
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
        use(from.instance, made);
      } else {
        return;  // never written: nothing to copy
      }
      write_into(inst, part, made);
      use(inst, made);
      v.holders.push_back({inst, made});
      out.push_back({part, made});
      created_.push_back(made);
    });
    return out;
  }

  // Points that share a memory: a CPU operation's points (host memory),
  // or the points one GPU runs (its framebuffer).
  struct Group {
    MemoryPool* memory = nullptr;  // null: host memory
    std::vector<std::shared_ptr<PointTask>> points;
    std::vector<StoreInstance*> instances;  // per argument
  };

  // Points go round the processors, starting where the last operation stopped.
  std::vector<Group> assign_processors(const std::vector<std::shared_ptr<PointTask>>& points) {
    const size_t start = next_processor();
    std::vector<Group> groups;
    if (!op_.on_gpus) groups.emplace_back();
    for (auto& p : points) {
      const size_t turn = start + static_cast<size_t>(p->point);
      if (op_.on_gpus) {
        GpuProcessor& g = rt_.gpus().at(turn % rt_.gpus().count());
        p->gpu = &g;
        p->worker = g.host.get();
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const Group& gr) { return gr.memory == g.fbmem.get(); });
        if (it == groups.end()) it = groups.insert(groups.end(), Group{g.fbmem.get(), {}, {}});
        it->points.push_back(p);
      } else {
        p->worker = op_.dep_part ? &rt_.dep_part() : &rt_.cpu(turn % rt_.cpu_count());
        groups.front().points.push_back(p);
      }
      p->lane = p->worker->lane();
    }
    return groups;
  }

  // What a group's points touch of argument i.
  Range group_range(const Group& g, const StoreArg& a) const {
    Range r = a.point_range(g.points.front()->chunk);
    for (const auto& p : g.points) {
      const Range pr = a.point_range(p->chunk);
      r = {std::min(r.lo, pr.lo), std::max(r.hi, pr.hi)};
    }
    return r;
  }

  void map_task() {
    std::vector<std::shared_ptr<PointTask>> points;
    for (auto& w : op_.work) {
      if (auto p = std::dynamic_pointer_cast<PointTask>(w)) points.push_back(p);
    }
    std::vector<Group> groups = assign_processors(points);
    for (Group& g : groups) {
      g.instances.assign(op_.args.size(), nullptr);
      if (g.points.empty()) continue;
      for (size_t i = 0; i < op_.args.size(); ++i) {
        const Range whole = group_range(g, op_.args[i]);
        if (whole.empty()) continue;
        StoreImpl& store = *op_.args[i].store;
        g.instances[i] = g.memory != nullptr ? instance_for(store, whole, i, *g.memory)
                                             : host_instance(store, whole, i);
      }
    }
    // What other ranks send lands in host memory: the CPU points' instance
    // of the argument it serves, or (GPU points) one of its own.
    place_transfers([&](const TransferItem& t) {
      return op_.on_gpus ? host_instance(*t.store, t.range, t.arg)
                         : groups.front().instances.at(t.arg);
    });
    size_t fold_index = 0;
    for (Group& g : groups) {
      if (g.points.empty()) continue;
      for (size_t i = 0; i < op_.args.size(); ++i) {
        const StoreArg& a = op_.args[i];
        if (g.instances[i] == nullptr) continue;
        const Range whole = group_range(g, a);
        // A later argument (or a send) may have replaced an earlier one's instance.
        StoreInstance* inst = g.instances[i] = current(*a.store, g.instances[i], whole);
        for (auto& p : g.points) use(inst, p);
        if (a.privilege == Privilege::Reduce) {
          map_reduction(i, *op_.folds[fold_index++], inst, whole, g.points);
          continue;
        }
        map_argument(a, inst, whole, g.points);
      }
      for (auto& p : g.points) p->instances = g.instances;
    }
  }

  // Makes inst hold what the points read of a, and records what they write.
  void map_argument(const StoreArg& a, StoreInstance* inst, Range whole,
                    const std::vector<std::shared_ptr<PointTask>>& points) {
    StoreImpl& store = *a.store;
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
      for (auto& p : points) {
        write_into(inst, a.point_range(p->chunk), p);
        store.valid.assign(a.point_range(p->chunk), held_by(inst, p));
      }
    }
  }

  // Runs of several ranks: what arrives lands in the instance of the
  // argument it serves (and is valid there once received); what leaves is
  // read from an instance made valid first.
  template <class ReceiveIn>
  void place_transfers(ReceiveIn receive_in) {
    for (auto& t : op_.transfers) {
      if (t->sending()) continue;
      t->instance = receive_in(*t);
      use(t->instance, t);
      write_into(t->instance, t->range, t);
      t->store->valid.assign(t->range, held_by(t->instance, t));
    }
    for (auto& t : op_.transfers) {
      if (!t->sending()) continue;
      t->instance = host_instance(*t->store, t->range, t->arg);
      use(t->instance, t);
      for (const Producer& pr : make_valid(*t->store, t->instance, t->range))
        t->add_precondition(pr.item, trace::EdgeKind::Data);
    }
  }

  void map_reduction(size_t i, FoldItem& fold, StoreInstance* inst, Range whole,
                     const std::vector<std::shared_ptr<PointTask>>& points) {
    const StoreArg& a = op_.args[i];
    for (const Producer& pr : make_valid(*a.store, inst, whole))
      fold.add_precondition(pr.item, trace::EdgeKind::Copy);
    fold.target = inst;
    use(inst, fold.shared_from_this());
    write_into(inst, whole, fold.shared_from_this());
    fold.range = whole;
    for (auto& p : points) {
      auto* buf = new StoreInstance();
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
        const StoreInstance wanted = *buf;
        delete buf;
        rt_.out_of_memory(op_, i, wanted, rt_.sysmem());
      }
      buf->ready_tick = rec::now();
      rt_.stores().reduction_buffer_placed(*buf);
      p->reduction_buffers.resize(op_.args.size(), nullptr);
      p->reduction_buffers[i] = buf;
      fold.buffers.push_back(buf);
      fold.add_precondition(p, trace::EdgeKind::Data);
    }
    a.store->valid.assign(whole, held_by(inst, fold.shared_from_this()));
  }

  void map_copy() {
    std::vector<StoreInstance*> instances(op_.args.size(), nullptr);
    std::shared_ptr<CopyItem> copy;
    for (auto& w : op_.work) {
      if (auto c = std::dynamic_pointer_cast<CopyItem>(w)) copy = c;
    }
    StoreImpl& src = *op_.args[0].store;
    StoreImpl& dst = *op_.args[1].store;
    // With GPUs, a copy runs in the framebuffer of the GPU whose turn it is
    // (a device copy, or a gather or scatter kernel), next to the data the
    // GPU tasks leave there; what other ranks send still lands in host
    // memory. A copy onto an overlapping part of its own store (a shifted
    // slice assignment) stays on the host, where it is a memmove: device
    // copies must not overlap.
    MemoryPool* fb = nullptr;
    const bool overlapping = copy && &src == &dst && copy->src_range.overlaps(copy->dst_range);
    if (const size_t gpus = rt_.gpus().count(); gpus > 0 && !overlapping)
      fb = rt_.gpus().at(next_processor() % gpus).fbmem.get();
    const auto place = [&](StoreImpl& store, Range r, size_t arg) {
      return fb != nullptr ? instance_for(store, r, arg, *fb) : host_instance(store, r, arg);
    };
    if (copy) {
      copy->src = instances[0] = place(src, copy->src_range, 0);
      if (op_.args.size() > 2)
        copy->index = instances[2] = place(*op_.args[2].store, copy->index_range, 2);
      copy->dst = instances[1] = place(dst, copy->dst_range, 1);
    }
    place_transfers([&](const TransferItem& t) {
      return fb != nullptr ? host_instance(*t.store, t.range, t.arg) : instances.at(t.arg);
    });
    if (!copy) return;  // another rank's part
    // A later argument (or a send) may have replaced an earlier one's instance.
    copy->src = current(src, copy->src, copy->src_range);
    copy->dst = current(dst, copy->dst, copy->dst_range);
    if (copy->index != nullptr)
      copy->index = current(*op_.args[2].store, copy->index, copy->index_range);
    for (StoreInstance* inst : {copy->src, copy->dst, copy->index}) use(inst, copy);
    const auto wait_for = [&](StoreImpl& store, StoreInstance* inst, Range r) {
      for (const Producer& pr : make_valid(store, inst, r))
        copy->add_precondition(pr.item, trace::EdgeKind::Copy);
    };
    wait_for(src, copy->src, copy->src_range);
    if (copy->index != nullptr) wait_for(*op_.args[2].store, copy->index, copy->index_range);
    // A scatter writes only some of its range: the rest must be there already.
    if (reads(op_.args[1].privilege)) wait_for(dst, copy->dst, copy->dst_range);
    write_into(copy->dst, copy->dst_range, copy);
    dst.valid.assign(copy->dst_range, held_by(copy->dst, copy));
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
    fill.dst = host_instance(s, r, 0);
    use(fill.dst, op_.work[0]);
    write_into(fill.dst, r, op_.work[0]);
    s.valid.assign(r, held_by(fill.dst, op_.work[0]));
  }

  // A store's collection frees every instance of it, replaced ones too. The
  // dependence analysis orders it after the tasks and copies of the program
  // that use the store; it must also wait for what mapping made that no
  // such item waits for: a replaced instance's data moving to the instance
  // that replaced it, sends to other ranks, copies still writing.
  void map_collect() {
    std::shared_ptr<Item> collect;
    for (auto& w : op_.work) {
      if (std::dynamic_pointer_cast<CollectItem>(w)) collect = w;
    }
    if (!collect) return;
    rt_.stores().for_each_instance(*op_.collected, [&](const StoreInstance& inst) {
      for (const auto& u : inst.users) collect->add_precondition(u, trace::EdgeKind::Instance);
      for (const auto& w : inst.writes)
        collect->add_precondition(w.item, trace::EdgeKind::Instance);
    });
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
      case trace::OpKind::Collect:
        map_collect();
        break;
      default:
        break;
    }
    // Replaced instances go once everything using them is done. Their users
    // stay noted for the store's collection, which may come first.
    for (const auto& [store, old] : retired_) {
      auto free = std::make_shared<CollectItem>(rt_.new_uid(), self_, shared_store(store), old);
      for (const auto& u : old->users) free->add_precondition(u, trace::EdgeKind::Instance);
      created_.push_back(free);
    }
    // Other ranks wrote these: what this rank has of them is out of date.
    for (const Operation::StaleRange& s : op_.stale) s.store->valid.erase(s.range);
    // The mapping meta-task ends here: from now on its items may run.
    op_.mapped_tick = rec::now();
    for (auto& item : created_) item->release();
    for (auto& item : op_.work) item->release();
    op_.work.clear();
    op_.folds.clear();
  }

 private:
  size_t next_processor() { return rt_.take_cpu_start(); }

  std::shared_ptr<StoreImpl> shared_store(StoreImpl* store) const {
    for (const StoreArg& a : op_.args) {
      if (a.store.get() == store) return a.store;
    }
    throw std::logic_error("mapping: an instance of a store the operation does not use");
  }

  static constexpr size_t kPruneUsers = 64;
  // A new instance on a run of several ranks is 1/16 wider on each side.
  static constexpr int64_t kMarginDivisor = 16;
  const bool distributed_ = comm::size() > 1;
  std::vector<std::pair<StoreImpl*, StoreInstance*>> retired_;

  RuntimeImpl& rt_;
  Operation& op_;
  std::shared_ptr<Operation> self_;
  std::vector<std::shared_ptr<WorkItem>> created_;  // copies and fills made here
};

}  // namespace

void RuntimeImpl::map(Operation& op) {
  Mapper(*this, op).run();
  window_->item_finished(op, op.mapping_uid);  // the mapping guard
}

}  // namespace legato::rt
