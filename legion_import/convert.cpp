// LogData -> analysis::RankTrace: Legion's processors, memories, items and
// links as Legato records (legion_prof_logs.md §6).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "legion_import/critical_path.hpp"
#include "legion_import/import.hpp"

namespace legato::legion {

namespace {

using trace::Time;
using trace::Uid;

constexpr uint32_t kDeviceLane = 0x1000;   // + GPU index: its device lane
constexpr uint32_t kMemoryLane = 0x2000;   // + memory index (+ 0x100 for IB memories)
constexpr uint32_t kDepPartLane = 0x3000;  // the node's dependent-partitioning lane
constexpr uint32_t kChannelLane = 0x4000;  // + channel sequence
constexpr uint32_t kMaxChannels = 0xbfff;
constexpr uint64_t kSyntheticBit = uint64_t{1} << 47;  // uids of items without an event
constexpr uint64_t kNoParent = ~uint64_t{0};

// Item uids from Realm event ids, so that items of different nodes' files
// refer to each other: the creator node and the event's own bits (§1.4).
Uid event_uid(uint64_t e) {
  if (e == 0) return 0;
  if (e >> 63)
    return trace::make_uid(static_cast<uint32_t>((e >> 47) & 0xffff), e & (kSyntheticBit - 1));
  // Barriers and other ids: node in 59..44.
  return trace::make_uid(static_cast<uint32_t>((e >> 44) & 0xffff),
                         kSyntheticBit | (uint64_t{1} << 46) | (e & ((uint64_t{1} << 44) - 1)));
}

Time to_time(uint64_t t) {
  return t > static_cast<uint64_t>(std::numeric_limits<Time>::max())
             ? std::numeric_limits<Time>::max()
             : static_cast<Time>(t);
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Legion MemKind -> Legato's memory kind and a lane name prefix; nullopt-like
// (prefix empty) for kinds Legato does not draw unless they hold instances.
struct MemMap {
  trace::MemKind kind;
  const char* prefix;
  bool device;
};
MemMap mem_map(int32_t k) {
  switch (k) {
    case 2:
      return {trace::MemKind::System, "sysmem", false};
    case 3:
      return {trace::MemKind::System, "regmem", false};
    case 4:
      return {trace::MemKind::Socket, "socketmem", false};
    case 5:
      return {trace::MemKind::ZeroCopy, "zcmem", false};
    case 6:
      return {trace::MemKind::Framebuffer, "fbmem", true};
    case 13:
      return {trace::MemKind::Framebuffer, "uvmmem", true};
    case 14:
      return {trace::MemKind::Framebuffer, "dynmem", true};
    default:
      return {trace::MemKind::System, "", false};
  }
}

// Realm's dependent-partitioning operation kinds (DepPartOpKind).
std::string dep_part_name(uint32_t k) {
  static constexpr const char* kNames[] = {"Union",
                                           "Unions",
                                           "Union Reduction",
                                           "Intersection",
                                           "Intersections",
                                           "Intersection Reduction",
                                           "Difference",
                                           "Differences",
                                           "Equal Partition",
                                           "Partition by Field",
                                           "Partition by Image",
                                           "Partition by Image Range",
                                           "Partition by Preimage",
                                           "Partition by Preimage Range",
                                           "Association"};
  return k < std::size(kNames) ? kNames[k] : "Dependent Partition " + std::to_string(k);
}

trace::OpKind op_kind(const std::string& name) {
  const auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (has("Fill")) return trace::OpKind::Fill;
  if (has("Copy")) return trace::OpKind::Copy;
  if (has("Partition")) return trace::OpKind::Partition;
  if (has("Attach") || has("Detach")) return trace::OpKind::Attach;
  if (has("Deletion")) return trace::OpKind::Collect;
  if (has("Reduc")) return trace::OpKind::Reduction;
  if (has("Fence") || has("Barrier") || has("Collective") || has("All Reduce"))
    return trace::OpKind::Collective;
  return trace::OpKind::Task;
}

class Converter {
 public:
  Converter(LogData& d, analysis::RankTrace& t) : d_(d), t_(t) {}

  void run() {
    node_ = d_.node;
    processors();
    memories();
    names();
    operations();
    items();
    message_latencies();
    waits();
    instances();
    channels();
    links();
  }

 private:
  uint32_t str(const std::string& s) {
    if (s.empty()) return 0;
    auto [it, added] = strings_.try_emplace(s, static_cast<uint32_t>(strings_.size() + 1));
    if (added) t_.strings[it->second] = s;
    return it->second;
  }
  Uid synthetic_uid() { return trace::make_uid(node_, kSyntheticBit | next_synthetic_++); }
  uint32_t proc_res(uint64_t proc) const {
    return trace::make_resource_id(node_of_proc(proc), index_of_proc(proc));
  }
  uint32_t mem_res(uint64_t mem) const {
    const uint32_t ib = (mem >> 56) == 0x1a ? 0x100 : 0;
    return trace::make_resource_id(node_of_mem(mem), kMemoryLane | ib | index_of_mem(mem));
  }
  template <class R>
  std::vector<R>& out() {
    return t_.all.get<R>();
  }

  void processors() {
    for (const auto& [id, kind] : d_.procs) {
      const uint32_t idx = index_of_proc(id), node = node_of_proc(id);
      trace::ProcessorRecord p;
      p.id = proc_res(id);
      p.index = idx;
      const std::string n = std::to_string(idx);
      switch (kind) {
        case kGpuProc: {
          trace::ProcessorRecord dev = p;
          dev.id = trace::make_resource_id(node, kDeviceLane | idx);
          dev.proc_kind = trace::ProcKind::GpuDevice;
          dev.name = str("g" + n + "d");
          dev.peer = p.id;
          p.proc_kind = trace::ProcKind::GpuHost;
          p.name = str("g" + n + "h");
          p.peer = dev.id;
          proc_kind_[id] = p.proc_kind;
          out<trace::ProcessorRecord>().push_back(p);
          out<trace::ProcessorRecord>().push_back(dev);
          continue;
        }
        case kCpuProc:
          p.proc_kind = trace::ProcKind::Cpu;
          p.name = str("c" + n);
          break;
        case kUtilProc:
          p.proc_kind = trace::ProcKind::Utility;
          p.name = str("u" + n);
          break;
        case kIoProc:
          p.proc_kind = trace::ProcKind::Io;
          p.name = str("i" + n);
          break;
        case kOmpProc:
          p.proc_kind = trace::ProcKind::OpenMp;
          p.name = str("omp" + n);
          break;
        case kPyProc:
          p.proc_kind = trace::ProcKind::Python;
          p.name = str("py" + n);
          break;
        default:  // groups and sets never run items; other kinds: as CPUs
          if (kind == kProcGroup || kind == kProcSet) continue;
          p.proc_kind = trace::ProcKind::Cpu;
          p.name = str("p" + n);
          break;
      }
      proc_kind_[id] = p.proc_kind;
      out<trace::ProcessorRecord>().push_back(p);
    }
  }

  void memories() {
    std::unordered_map<uint64_t, bool> used;
    for (const auto& in : d_.instances) used[in.mem] = true;
    for (const auto& [id, kc] : d_.mems) {
      MemMap m = mem_map(kc.first);
      if (*m.prefix == '\0') {
        if (!used.count(id)) continue;  // a disk, file or cache memory without instances
        m.prefix = "mem";
      }
      trace::MemoryRecord r;
      r.id = mem_res(id);
      r.mem_kind = m.kind;
      r.capacity = kc.second;
      const std::string name = std::string(m.prefix) + std::to_string(index_of_mem(id));
      r.name = str(name);
      mem_name_[id] = name;
      mem_device_[id] = m.device;
      out<trace::MemoryRecord>().push_back(r);
    }
  }

  std::string task_name(uint32_t task_id) const {
    const auto it = d_.task_names.find(task_id);
    return it == d_.task_names.end() ? "task " + std::to_string(task_id) : it->second.first;
  }

  // Every task id gets a name: its TaskKind's, else "task <id>".
  void names() {
    std::map<uint32_t, bool> ids;
    for (const auto& [id, name] : d_.task_names) ids[id] = true;
    for (const auto& [key, name] : d_.variants) ids[key.first] = true;
    for (const auto& it : d_.items) {
      if (is_task(it.source)) ids[it.kind] = true;
    }
    for (const auto& [id, named] : ids)
      out<trace::TaskKindRecord>().push_back(trace::TaskKindRecord{id, str(task_name(id))});
    for (const auto& [key, name] : d_.variants) {
      out<trace::VariantRecord>().push_back(
          trace::VariantRecord{key.first, key.second, trace::ProcKind::Cpu, str(name)});
    }
  }

  void operations() {
    std::unordered_map<uint64_t, uint32_t> task_of_op;
    for (const auto& it : d_.items) {
      if (is_task(it.source)) task_of_op.try_emplace(it.op, it.kind);
    }
    for (const auto& [op, task] : d_.multi_tasks) task_of_op.try_emplace(op, task);
    for (const auto& o : d_.ops) {
      trace::OperationRecord r;
      r.uid = o.op;
      r.parent = o.parent == kNoParent ? 0 : o.parent;
      const auto kind = d_.op_kinds.find(o.kind);
      const std::string kind_name =
          kind == d_.op_kinds.end() ? "operation kind " + std::to_string(o.kind) : kind->second;
      r.op_kind = op_kind(kind_name);
      const auto task = task_of_op.find(o.op);
      if (task != task_of_op.end()) {
        r.op_kind = trace::OpKind::Task;
        r.task_kind = task->second;
        r.name = str(task_name(task->second));
      } else {
        r.name = str(kind_name);
      }
      if (o.provenance != 0) {
        const auto p = d_.provenances.find(o.provenance);
        if (p != d_.provenances.end()) r.provenance = str(p->second);
      }
      out<trace::OperationRecord>().push_back(r);
    }
  }

  std::string item_name(const ProcItem& it) const {
    const auto lookup = [](const std::map<uint32_t, std::string>& m, uint32_t k) {
      const auto f = m.find(k);
      return f == m.end() ? "kind " + std::to_string(k) : f->second;
    };
    switch (it.source) {
      case Source::Meta:
      case Source::Message: {
        const auto f = d_.meta_names.find(it.kind);
        return f == d_.meta_names.end() ? "meta task " + std::to_string(it.kind) : f->second.first;
      }
      case Source::MapperCall:
        return "Mapper Call " + lookup(d_.mapper_calls, it.kind);
      case Source::RuntimeCall:
        return "Runtime Call " + lookup(d_.runtime_calls, it.kind);
      case Source::ApplicationCall: {
        const auto p = d_.provenances.find(it.extra);
        return p == d_.provenances.end() ? "Application Call" : p->second;
      }
      case Source::ProfTask:
        return "ProfTask";
      default:
        return task_name(it.kind);
    }
  }

  void items() {
    uids_.resize(d_.items.size());
    for (size_t i = 0; i < d_.items.size(); ++i) {
      const ProcItem& it = d_.items[i];
      // Calls share their item's fevent and prof tasks point at another's.
      const bool owns_event = !is_call(it.source) && it.source != Source::ProfTask;
      const Uid uid = owns_event && it.fevent != 0 && !seen_events_.count(it.fevent)
                          ? event_uid(it.fevent)
                          : synthetic_uid();
      if (owns_event && it.fevent != 0) seen_events_.emplace(it.fevent, i);
      uids_[i] = uid;
      const uint32_t proc = proc_res(it.proc);
      if (is_task(it.source)) {
        trace::TaskRecord r{uid,
                            it.op,
                            proc,
                            it.kind,
                            it.variant,
                            to_time(it.start),
                            to_time(it.stop),
                            to_time(it.ready),
                            to_time(it.create)};
        out<trace::TaskRecord>().push_back(r);
        if (it.source == Source::GpuTask) {
          // The device side: gpu_start..gpu_stop on the GPU's device lane
          // (legion_prof clamps gpu_start > gpu_stop to gpu_stop - 1 ns).
          const uint64_t gstart =
              it.gpu_start <= it.gpu_stop ? it.gpu_start : (it.gpu_stop > 0 ? it.gpu_stop - 1 : 0);
          out<trace::GpuKernelRecord>().push_back(trace::GpuKernelRecord{
              uid,
              trace::make_resource_id(node_of_proc(it.proc), kDeviceLane | index_of_proc(it.proc)),
              str(task_name(it.kind)), 0, to_time(gstart), to_time(it.gpu_stop)});
        }
      } else {
        trace::MetaTaskRecord r;
        r.uid = uid;
        r.processor = proc;
        r.meta_kind = str(item_name(it));
        // Only meta tasks and mapper calls serve an operation; a prof task
        // only reports on one after the fact.
        r.op = it.source == Source::Meta || it.source == Source::Message ||
                       it.source == Source::MapperCall
                   ? it.op
                   : 0;
        r.start = to_time(it.start);
        r.stop = to_time(it.stop);
        r.ready = to_time(it.ready);
        r.create = to_time(it.create);
        out<trace::MetaTaskRecord>().push_back(r);
      }
    }
  }

  // legion_prof's check: a message's spawn is stamped on the sending node,
  // so slow messages show network trouble or clocks that disagree.
  void message_latencies() {
    uint64_t messages = 0, slow = 0;
    for (const ProcItem& it : d_.items) {
      if (it.source != Source::Message || it.extra == 0) continue;
      ++messages;
      if (it.create > it.extra + 1'000'000) ++slow;  // over 1 ms
    }
    if (messages > 0 && slow * 20 > messages) {
      t_.problems.push_back(t_.file + ": " + std::to_string(slow) + " of " +
                            std::to_string(messages) +
                            " messages took over 1 ms from sender to receiver (more than 5%): "
                            "a slow network, or nodes' clocks that disagree");
    }
  }

  // Calls nest in the item whose fevent they carry, and in each other; each
  // becomes a wait of what it nests in, and every recorded wait goes to the
  // innermost call containing it, so no time counts twice (§3.1).
  void waits() {
    std::unordered_map<uint64_t, std::vector<size_t>> calls_of;  // owner item -> calls
    for (size_t i = 0; i < d_.items.size(); ++i) {
      const ProcItem& c = d_.items[i];
      if (!is_call(c.source) || c.fevent == 0) continue;
      const auto owner = seen_events_.find(c.fevent);
      if (owner == seen_events_.end() || d_.items[owner->second].proc != c.proc) continue;
      calls_of[owner->second].push_back(i);
    }
    std::vector<uint32_t> depth(d_.items.size(), 0);
    for (auto& [owner, calls] : calls_of) {
      std::sort(calls.begin(), calls.end(), [&](size_t a, size_t b) {
        const ProcItem &x = d_.items[a], &y = d_.items[b];
        return x.start < y.start || (x.start == y.start && x.stop > y.stop);
      });
      std::vector<size_t> open;
      for (size_t c : calls) {
        const ProcItem& call = d_.items[c];
        while (!open.empty() && d_.items[open.back()].stop < call.stop) open.pop_back();
        const size_t parent = open.empty() ? owner : open.back();
        depth[c] = open.empty() ? 1 : depth[parent] + 1;
        add_wait(parent, call.start, call.stop, call.stop, 0);
        open.push_back(c);
      }
    }
    // Recorded waits: a TaskWaitInfo belongs to the task of its op_id, a
    // MetaWaitInfo to the meta task of its (op_id, lg_id), whichever of them
    // ran over the wait (record order does not matter).
    std::map<std::pair<uint64_t, uint32_t>, std::vector<size_t>> tasks, metas;
    for (size_t i = 0; i < d_.items.size(); ++i) {
      const ProcItem& it = d_.items[i];
      if (is_task(it.source)) tasks[{it.op, 0}].push_back(i);
      if (it.source == Source::Meta || it.source == Source::Message)
        metas[{it.op, it.kind}].push_back(i);
    }
    const auto by_start = [&](size_t a, size_t b) { return d_.items[a].start < d_.items[b].start; };
    for (auto* m : {&tasks, &metas}) {
      for (auto& [key, v] : *m) std::stable_sort(v.begin(), v.end(), by_start);
    }
    uint64_t lost = 0;
    for (const WaitInfo& w : d_.waits) {
      const auto found = w.meta ? metas.find({w.op, w.kind}) : tasks.find({w.op, 0});
      if (found == (w.meta ? metas.end() : tasks.end())) {
        ++lost;
        continue;
      }
      // The latest-starting candidate that ran over the wait (looking back a
      // bounded number), else the latest one that started before it.
      const auto& c = found->second;
      const auto after = std::upper_bound(
          c.begin(), c.end(), w.start, [&](uint64_t t, size_t i) { return t < d_.items[i].start; });
      size_t best = after == c.begin() ? SIZE_MAX : *(after - 1);
      for (auto it = after; it != c.begin() && after - it < 64;) {
        --it;
        if (w.end <= d_.items[*it].stop) {
          best = *it;
          break;
        }
      }
      if (best == SIZE_MAX) {
        ++lost;
        continue;
      }
      size_t owner = best;
      if (const auto c = calls_of.find(best); c != calls_of.end()) {
        for (size_t call : c->second) {
          const ProcItem& x = d_.items[call];
          if (x.start <= w.start && w.end <= x.stop &&
              (owner == best || depth[call] > depth[owner]))
            owner = call;
        }
      }
      add_wait(owner, w.start, w.ready, w.end, w.event);
    }
    if (lost > 0)
      t_.problems.push_back(t_.file + ": " + std::to_string(lost) +
                            " waits name no task or meta task of this file; left out");
  }

  void add_wait(size_t item, uint64_t start, uint64_t ready, uint64_t end, uint64_t event) {
    out<trace::WaitRecord>().push_back(
        trace::WaitRecord{uids_[item], to_time(start), to_time(std::max(ready, start)),
                          to_time(std::max(end, start)), event_uid(event)});
  }

  void instances() {
    for (const InstInfo& in : d_.instances) {
      trace::InstanceRecord r;
      r.uid = in.inst_uid != 0 ? event_uid(in.inst_uid) : synthetic_uid();
      r.memory = mem_res(in.mem);
      r.op = in.op;
      r.bytes = in.size;
      r.store = in.inst_id;
      r.name = str("Instance " + hex(in.inst_id));
      r.create = to_time(in.create);
      r.ready = to_time(std::max(in.ready, in.create));
      r.destroy = to_time(std::max(in.destroy, in.ready));
      out<trace::InstanceRecord>().push_back(r);
    }
  }

  std::string mem_label(uint64_t mem) const {
    const auto n = mem_name_.find(mem);
    return n != mem_name_.end() ? n->second : "mem " + hex(mem);
  }

  uint32_t channel(trace::ChannelKind kind, uint64_t src, uint64_t dst, const std::string& name) {
    const auto key = std::make_tuple(static_cast<int>(kind), src, dst);
    const auto it = channels_.find(key);
    if (it != channels_.end()) return it->second;
    const uint32_t seq = std::min<uint32_t>(static_cast<uint32_t>(channels_.size()), kMaxChannels);
    const uint32_t id = trace::make_resource_id(node_, kChannelLane + seq);
    channels_[key] = id;
    out<trace::ChannelRecord>().push_back(trace::ChannelRecord{
        id, kind, src ? mem_res(src) : mem_res(dst), mem_res(dst ? dst : src), str(name)});
    return id;
  }

  trace::ChannelKind copy_channel_kind(uint64_t src, uint64_t dst) const {
    if (src && dst && node_of_mem(src) != node_of_mem(dst)) return trace::ChannelKind::Network;
    const auto dev = [&](uint64_t m) {
      const auto f = mem_device_.find(m);
      return f != mem_device_.end() && f->second;
    };
    const bool s = dev(src), t = dev(dst);
    if (s && t) return trace::ChannelKind::DeviceToDevice;
    if (s) return trace::ChannelKind::DeviceToHost;
    if (t) return trace::ChannelKind::HostToDevice;
    return trace::ChannelKind::HostCopy;
  }

  // Copies and fills go on channels chosen by their CopyInstInfo /
  // FillInstInfo (one item per run of the same src, dst and indirection;
  // none without any), partitions on the node's dependent-partitioning lane.
  void channels() {
    std::unordered_map<uint64_t, std::vector<const InstRef*>> refs;
    for (const InstRef& r : d_.inst_refs) refs[r.fevent].push_back(&r);
    bool dep_lane = false;
    for (const ChannelItem& c : d_.channel_items) {
      const Uid uid =
          c.fevent != 0 && !seen_events_.count(c.fevent) ? event_uid(c.fevent) : synthetic_uid();
      seen_events_.emplace(c.fevent, SIZE_MAX);
      if (c.type == ChannelItem::DepPart) {
        const uint32_t lane = trace::make_resource_id(node_, kDepPartLane);
        if (!dep_lane) {
          dep_lane = true;
          out<trace::ProcessorRecord>().push_back(trace::ProcessorRecord{
              lane, trace::ProcKind::DepPart, 0, str("dp0"), trace::kNoResource});
        }
        out<trace::DepPartRecord>().push_back(
            trace::DepPartRecord{uid, c.op, lane, str(dep_part_name(c.part_op)), to_time(c.start),
                                 to_time(c.stop), to_time(c.ready), to_time(c.create)});
        channel_uids_.push_back(uid);
        continue;
      }
      const auto found = refs.find(c.fevent);
      Uid item_uid = uid;
      if (found != refs.end()) {
        const InstRef* prev = nullptr;
        for (const InstRef* r : found->second) {
          if (prev && !r->indirect && !prev->indirect && r->src == prev->src && r->dst == prev->dst)
            continue;  // the same run
          prev = r;
          trace::CopyRecord cr;
          cr.uid = item_uid;
          cr.op = c.op;
          cr.bytes = c.size;
          cr.src_instance = event_uid(r->src_inst);
          cr.dst_instance = event_uid(r->dst_inst);
          cr.start = to_time(c.start);
          cr.stop = to_time(c.stop);
          cr.ready = to_time(c.ready);
          cr.create = to_time(c.create);
          if (c.type == ChannelItem::Fill) {
            cr.copy_kind = trace::CopyKind::Fill;
            cr.channel =
                channel(trace::ChannelKind::Fill, r->dst, r->dst, "fill " + mem_label(r->dst));
          } else if (r->indirect && r->src) {
            cr.copy_kind = trace::CopyKind::Gather;
            cr.channel = channel(copy_channel_kind(r->src, r->dst), r->src, r->dst,
                                 "gather " + mem_label(r->src) + " -> " + mem_label(r->dst));
          } else if (r->indirect) {
            cr.copy_kind = trace::CopyKind::Scatter;
            cr.channel = channel(copy_channel_kind(r->src, r->dst), r->src, r->dst,
                                 "scatter " + mem_label(r->src) + " -> " + mem_label(r->dst));
          } else {
            cr.channel = channel(copy_channel_kind(r->src, r->dst), r->src, r->dst,
                                 mem_label(r->src) + " -> " + mem_label(r->dst));
          }
          out<trace::CopyRecord>().push_back(cr);
          item_uid = synthetic_uid();
        }
      }
      channel_uids_.push_back(found == refs.end() ? 0 : uid);  // not drawn without its memories
    }
  }

  // One edge per item: the item that determined its start (§3.5).
  void links() {
    std::vector<TimedItem> timed;
    std::vector<Uid> uid_of;
    for (size_t i = 0; i < d_.items.size(); ++i) {
      const ProcItem& it = d_.items[i];
      if (is_call(it.source) || it.source == Source::ProfTask) continue;
      timed.push_back(TimedItem{it.fevent, it.creator, it.critical, it.create, it.stop});
      uid_of.push_back(uids_[i]);
    }
    for (size_t i = 0; i < d_.channel_items.size(); ++i) {
      const ChannelItem& c = d_.channel_items[i];
      timed.push_back(TimedItem{c.fevent, c.creator, c.critical, c.create, c.stop});
      uid_of.push_back(channel_uids_[i]);
    }
    const std::vector<PathStep> steps = critical_path_steps(timed, d_.events);
    for (size_t i = 0; i < steps.size(); ++i) {
      if (uid_of[i] == 0 || steps[i].fevent == 0) continue;
      const Uid pre = event_uid(steps[i].fevent);
      if (pre == uid_of[i]) continue;
      out<trace::EdgeRecord>().push_back(trace::EdgeRecord{
          uid_of[i], pre,
          steps[i].from_critical ? trace::EdgeKind::Data : trace::EdgeKind::Control});
    }
  }

  LogData& d_;
  analysis::RankTrace& t_;
  uint32_t node_ = 0;
  uint64_t next_synthetic_ = 0;
  std::unordered_map<std::string, uint32_t> strings_;
  std::unordered_map<uint64_t, trace::ProcKind> proc_kind_;
  std::unordered_map<uint64_t, std::string> mem_name_;
  std::unordered_map<uint64_t, bool> mem_device_;
  std::unordered_map<uint64_t, size_t> seen_events_;  // fevent -> item index (SIZE_MAX: channel)
  std::vector<Uid> uids_;                             // per d_.items
  std::vector<Uid> channel_uids_;                     // per d_.channel_items; 0: not drawn
  std::map<std::tuple<int, uint64_t, uint64_t>, uint32_t> channels_;
};

}  // namespace

analysis::RankTrace convert(LogData& d, const std::string& path, const DecodeFacts& facts) {
  analysis::RankTrace t;
  t.file = path;
  t.readable = true;
  t.records = facts.records;
  t.problems = facts.problems;
  t.finished_cleanly = facts.clean_end;
  if (!d.unknown_kinds.empty()) {
    std::string kinds;
    uint64_t n = 0;
    for (const auto& [name, count] : d.unknown_kinds) {
      kinds += (kinds.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
      n += count;
    }
    t.problems.push_back(path + ": skipped " + std::to_string(n) +
                         " records of kinds this importer does not know: " + kinds);
  }
  if (d.node > 0xffff || d.nodes > 0x10000) {  // Realm ids hold 16 bits of node
    t.problems.push_back(path + ": MachineDesc gives an absurd node " + std::to_string(d.node) +
                         " of " + std::to_string(d.nodes) +
                         " (a damaged file?); read as node 0 of 1");
    d.node = 0;
    d.nodes = 1;
  }
  Converter(d, t).run();

  trace::RunInfo& run = t.run;
  run.rank = d.node;
  run.ranks = std::max<uint32_t>(1, d.nodes);
  if (run.rank >= run.ranks) {
    t.problems.push_back(path + ": MachineDesc names node " + std::to_string(d.node) + " of " +
                         std::to_string(d.nodes) + "; read as node " + std::to_string(d.node) +
                         " of " + std::to_string(d.node + 1));
    run.ranks = d.node + 1;
  }
  run.host = d.hostname;
  run.pid = d.process_id;
  run.start_unix_ns = d.zero_time;
  if (d.has_zero_time) {
    run.id = "legion-" + std::to_string(run.ranks) + "n-" + std::to_string(d.zero_time);
  } else {
    run.id = "legion-" + (d.hostname.empty() ? std::string("unknown") : d.hostname) + "-" +
             std::to_string(d.process_id);
  }
  nlohmann::json legion = {{"format", facts.first_line},
                           {"record_layouts", facts.layouts},
                           {"header_bytes", facts.header_bytes},
                           {"records", facts.records},
                           {"bytes_decoded", facts.bytes},
                           {"compressed", facts.compressed},
                           {"damaged", facts.damaged},
                           {"node_id", d.node},
                           {"num_nodes", d.nodes},
                           {"host_id", hex(d.host_id)},
                           {"process_id", d.process_id},
                           {"max_dim", d.max_dim},
                           {"record_counts", d.counts}};
  if (d.has_machine) legion["version"] = d.version;
  if (d.has_zero_time) legion["zero_time_ns"] = d.zero_time;
  legion["calibration_err_ns"] = d.calibration_err;
  t.metadata = {{"run", run.to_json()},
                {"clock",
                 {{"units", "ns"},
                  {"source", "legion"},
                  // Realm puts every node on one zero: never shifted (§4.4).
                  {"offset_to_reference_ns", 0}}},
                {"legion", legion}};
  if (d.has_zero_time) t.metadata["clock"]["zero_unix_ns"] = d.zero_time;
  // RuntimeConfig's debug and safety flags: all in "legion", those set in
  // "config", which the tools show (legion_prof warns when any is set).
  if (!d.runtime_config.empty()) {
    t.metadata["legion"]["runtime_config"] = d.runtime_config;
    nlohmann::json set = nlohmann::json::object();
    for (const auto& [flag, on] : d.runtime_config) {
      if (on) set[flag] = true;
    }
    if (!set.empty()) t.metadata["config"] = set;
  }
  return t;
}

}  // namespace legato::legion
