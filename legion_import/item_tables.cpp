// ItemTables: each decoded processor item into the Legato record it becomes
// (LEGION_FORMAT.md §6).
#include <string>

#include "legion_import/header.hpp"
#include "legion_import/legato_ids.hpp"

namespace legato::legion {

uint32_t ItemTables::name_slot(Source source, uint64_t kind) {
  const bool app = source == Source::ApplicationCall;
  const uint64_t key = app ? kind : uint64_t{static_cast<uint8_t>(source)} << 32 | kind;
  if (!app && key == last_key_) return last_slot_;
  const auto [slot, added] = (app ? app_slots_ : slots_).try_emplace(key, 0);
  if (added) {
    names.push_back(NameKey{source, kind});
    *slot = static_cast<uint32_t>(names.size());
  }
  if (!app) {
    last_key_ = key;
    last_slot_ = *slot;
  }
  return *slot;
}

void ItemTables::add(const ProcItem& it, uint32_t node) {
  const bool task = is_task(it.source);
  if ((task ? tasks.size() : metas.size()) >= kMetaRef)
    throw ImportError("more than 2^31 " + std::string(task ? "tasks" : "meta tasks and calls") +
                      ", more than this importer reads from one file; profile a shorter run");
  const auto ref = static_cast<ItemRef>(task ? tasks.size() : kMetaRef | metas.size());
  const bool own = owns_event(it.source);
  Uid uid = 0;
  if (own && it.fevent != 0) {
    uid = event_uid(it.fevent);
  } else {
    if (synthetic == 0) uid_node = node;
    mixed_nodes = mixed_nodes || node != uid_node;
    uid = synthetic_uid(node, synthetic++);
  }
  if (own) {
    path.items.push_back(TimedItem{it.fevent, it.creator, it.critical, it.create, it.stop});
    path.uids.push_back(uid);
    path_refs.push_back(ref);
    path_keys.push_back(task ? wait_key(false, it.op, 0) : wait_key(true, it.op, it.kind));
  }
  const uint32_t proc = proc_resource(it.proc);
  if (it.proc != last_proc_) {
    last_proc_ = it.proc;
    procs_used.insert(it.proc);
  }
  if (task) {
    tasks.push_back(trace::TaskRecord{uid, it.op, proc, it.kind, it.variant, to_time(it.start),
                                      to_time(it.stop), to_time(it.ready), to_time(it.create)});
    if (it.source == Source::GpuTask) {
      // The device side: gpu_start..gpu_stop on the GPU's device lane
      // (legion_prof clamps gpu_start > gpu_stop to gpu_stop - 1 ns).
      const uint64_t start = it.gpu_start <= it.gpu_stop ? it.gpu_start
                             : it.gpu_stop > 0           ? it.gpu_stop - 1
                                                         : 0;
      kernels.push_back(trace::GpuKernelRecord{
          uid, trace::make_resource_id(node_of_proc(it.proc), kDeviceLane | index_of_proc(it.proc)),
          name_slot(it.source, it.kind), 0, to_time(start), to_time(it.gpu_stop)});
      kernel_tasks.push_back(static_cast<uint32_t>(tasks.size() - 1));
    }
    return;
  }
  if (is_call(it.source) && it.fevent != 0)
    calls.push_back(Call{it.fevent, static_cast<uint32_t>(metas.size()), proc});
  // legion_prof's check: a message's spawn is stamped on the sending node.
  if (it.source == Source::Message && it.extra != 0) {
    ++messages;
    slow_messages += it.create > it.extra + 1'000'000;
  }
  trace::MetaTaskRecord r;
  r.uid = uid;
  r.processor = proc;
  r.meta_kind = name_slot(it.source, it.source == Source::ApplicationCall ? it.extra : it.kind);
  // Only meta tasks and mapper calls serve an operation; a prof task only
  // reports on one after the fact.
  r.op =
      it.source == Source::Meta || it.source == Source::Message || it.source == Source::MapperCall
          ? it.op
          : 0;
  r.start = to_time(it.start);
  r.stop = to_time(it.stop);
  r.ready = to_time(it.ready);
  r.create = to_time(it.create);
  metas.push_back(r);
}

}  // namespace legato::legion
