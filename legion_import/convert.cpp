// LogData -> analysis::RankTrace: Legion's processors, memories, names,
// operations and processor items as Legato records (LEGION_FORMAT.md §6),
// and the run's identity and metadata.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "legion_import/converter.hpp"

namespace legato::legion {

namespace detail {

namespace {

constexpr uint64_t kNoParent = ~uint64_t{0};

// Legion MemKind -> Legato's memory kind and a lane name prefix; nullopt-like
// (prefix empty) for kinds Legato does not draw unless they hold instances.
struct MemMap {
  trace::MemKind kind;
  const char* prefix;
  bool device;
};
// k in today's numbering (from NO_MEMKIND = 0).
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

}  // namespace

void Converter::run() {
  node_ = d_.node;
  next_synthetic_ = d_.items.synthetic;
  next_string_ = static_cast<uint32_t>(d_.items.names.size()) + 1;
  survey();
  merge_older_instances();
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
  // The items' records, once no step reads them any more.
  out<trace::TaskRecord>() = std::move(d_.items.tasks);
  out<trace::MetaTaskRecord>() = std::move(d_.items.metas);
  out<trace::GpuKernelRecord>() = std::move(d_.items.kernels);
}

uint32_t Converter::str(std::string_view s) {
  if (s.empty()) return 0;
  if (const auto it = strings_.find(s); it != strings_.end()) return it->second;
  const uint32_t id = new_str(s);
  // The key views the text the trace keeps (its map's nodes never move).
  strings_.emplace(t_.strings.at(id), id);
  return id;
}

uint32_t Converter::new_str(std::string_view s) {
  if (s.empty()) return 0;
  const uint32_t id = next_string_++;
  t_.strings.emplace(id, s);
  return id;
}

void Converter::survey() {
  const ItemTables& items = d_.items;
  task_of_op_.reserve(d_.multi_tasks.size() + items.tasks.size());
  // Ops and keys are spread over their tables: each slot is prefetched
  // ahead of its lookup.
  base::IdSet ids;
  base::for_each_prefetched(
      items.tasks.size(), [&](size_t a) { task_of_op_.prefetch(items.tasks[a].op); },
      [&](size_t k) {
        const trace::TaskRecord& t = items.tasks[k];
        task_of_op_.try_emplace(t.op, t.task_kind);
        if (ids.insert(t.task_kind)) task_ids_.push_back(t.task_kind);
      });
  base::IdSet waited;
  waited.reserve(d_.waits.size());
  // Few items are waited on: a filter of the waits' keys, small enough for
  // a core's cache, passes those (and about 3% of the others) to the set;
  // a passing item's slot, path entry and record are prefetched ahead of
  // their reads.
  base::IdFilter maybe_waited(32 * d_.waits.size());
  for (const WaitInfo& w : d_.waits) {
    const uint64_t key = wait_key(w.meta, w.op, w.meta ? w.kind : 0);
    waited.insert(key);
    maybe_waited.add(key);
  }
  const auto ahead = [&](size_t a) {
    if (!maybe_waited.maybe(items.path_keys[a])) return;
    waited.prefetch(items.path_keys[a]);
    base::prefetch(&items.path.items[a].fevent);
    const ItemRef ref = items.path_refs[a];
    if (ref & kMetaRef) {
      prefetch_record(items.metas[ref & ~kMetaRef]);
    } else {
      prefetch_record(items.tasks[ref]);
    }
  };
  base::for_each_prefetched(items.path_keys.size(), ahead, [&](size_t k) {
    if (!maybe_waited.maybe(items.path_keys[k]) || !waited.contains(items.path_keys[k])) return;
    const ItemRef ref = items.path_refs[k];
    const uint64_t fevent = items.path.items[k].fevent;
    if (!(ref & kMetaRef)) {
      const trace::TaskRecord& t = items.tasks[ref];
      candidates_.push_back(Candidate{t.op, 0, false, static_cast<uint64_t>(t.start),
                                      static_cast<uint64_t>(t.stop), fevent, ref, t.processor});
      return;
    }
    // Meta tasks and messages: the others own no event.
    const trace::MetaTaskRecord& m = items.metas[ref & ~kMetaRef];
    candidates_.push_back(Candidate{m.op, static_cast<uint32_t>(items.name_of(m).kind), true,
                                    static_cast<uint64_t>(m.start), static_cast<uint64_t>(m.stop),
                                    fevent, ref, m.processor});
  });
}

// A file may describe every node's processors and memories (Legion of 2023
// and older logs the whole machine in each node's file): each is a lane of
// the node its id names, described by that node's file, so this file
// describes only its own node's and those its own records use.
void Converter::processors() {
  for (const auto& [id, kind] : d_.procs) {
    const uint32_t idx = index_of_proc(id), node = node_of_proc(id);
    if (node != node_ && !d_.items.procs_used.contains(id)) continue;
    trace::ProcessorRecord p;
    p.id = proc_resource(id);
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
    out<trace::ProcessorRecord>().push_back(p);
  }
}

namespace {

// Realm numbered memory kinds from GLOBAL_MEM = 0 until April 2021, then
// from NO_MEMKIND = 0. Where the header does not say (Collector), the
// memories do: every node has a system memory (today kind 2; before, kind
// 1, when 2 was registered memory, which only some runs have), and every
// GPU a framebuffer (today 6; before, 5, when 6 was disk). So a log with a
// kind 0, with a kind 1 but no kind 2, or with GPUs, a kind 5 and no kind 6
// numbers from GLOBAL_MEM (LEGION_FORMAT.md §4).
bool numbered_from_global(const LogData& d) {
  if (d.mem_kinds != MemKindNumbering::FromRecords)
    return d.mem_kinds == MemKindNumbering::FromGlobal;
  std::set<int32_t> kinds;
  for (const auto& [id, kc] : d.mems) kinds.insert(kc.first);
  const bool gpus = std::any_of(d.procs.begin(), d.procs.end(),
                                [](const auto& p) { return p.second == kGpuProc; });
  return kinds.count(0) || (kinds.count(1) && !kinds.count(2)) ||
         (gpus && kinds.count(5) && !kinds.count(6));
}

}  // namespace

void Converter::memories() {
  base::IdSet used;  // memories with instances in this file
  for (const auto& in : d_.instances) used.insert(in.mem);
  const bool from_global = numbered_from_global(d_);
  if (from_global) {
    d_.mem_kinds = MemKindNumbering::FromGlobal;
  } else if (d_.mem_kinds == MemKindNumbering::FromRecords) {
    d_.mem_kinds = MemKindNumbering::Current;
  }
  for (const auto& [id, kc] : d_.mems) {
    MemMap m = mem_map(from_global ? kc.first + 1 : kc.first);
    const bool own = node_of_mem(id) == node_;
    const bool only_when_used = *m.prefix == '\0';  // disk, file, caches
    if (only_when_used) m.prefix = "mem";
    const std::string name = std::string(m.prefix) + std::to_string(index_of_mem(id));
    // Another node's memory is named by its node in this file's channels.
    mem_name_[id] = own ? name : "node " + std::to_string(node_of_mem(id)) + " " + name;
    mem_device_[id] = m.device;
    // Another node's memory, or a disk, file or cache memory: a lane only
    // with instances of this file.
    if ((!own || only_when_used) && !used.contains(id)) continue;
    trace::MemoryRecord r;
    r.id = mem_res(id);
    r.mem_kind = m.kind;
    // A GPU's dynamic pool has no fixed size: like a capacity the log does
    // not give (0), the model draws it against its instances' bytes, as
    // legion_prof does, and judges no fullness of it (Lane::capacity_given).
    r.capacity = !from_global && kc.first == kGpuDynamicMem ? 0 : kc.second;
    r.name = str(mem_name_[id]);
    out<trace::MemoryRecord>().push_back(r);
  }
}

std::string Converter::task_name(uint32_t task_id) const {
  const auto it = d_.task_names.find(task_id);
  return it == d_.task_names.end() ? "task " + std::to_string(task_id) : it->second.first;
}

// Every task id gets a name: its TaskKind's, else "task <id>".
void Converter::names() {
  std::map<uint32_t, bool> ids;
  for (const auto& [id, name] : d_.task_names) ids[id] = true;
  for (const auto& [key, name] : d_.variants) ids[key.first] = true;
  for (const uint32_t id : task_ids_) ids[id] = true;
  for (const auto& [id, named] : ids)
    out<trace::TaskKindRecord>().push_back(trace::TaskKindRecord{id, str(task_name(id))});
  for (const auto& [key, name] : d_.variants) {
    out<trace::VariantRecord>().push_back(
        trace::VariantRecord{key.first, key.second, trace::ProcKind::Cpu, str(name)});
  }
}

void Converter::operations() {
  base::IdMap<uint32_t>& task_of_op = task_of_op_;
  for (const auto& [op, task] : d_.multi_tasks) task_of_op.try_emplace(op, task);
  base::reserve_huge(out<trace::OperationRecord>(), d_.ops.size());
  // Kinds, task names and provenances are few, their operations many: each
  // named once.
  struct KindName {
    trace::OpKind kind;
    uint32_t name;
  };
  std::unordered_map<uint32_t, KindName> kinds;
  std::unordered_map<uint32_t, uint32_t> task_names, provenances;
  // Legion before 2022-08 logs no operation's parent. The program's
  // operations are then taken as issued by its top-level task, the run's
  // first task (a program whose tasks launch tasks of their own is shown
  // flatter than it ran), so that the findings know the program's task.
  uint64_t top_level = 0;
  if (!d_.ops_name_parents) {
    const trace::TaskRecord* first = nullptr;
    for (const trace::TaskRecord& t : d_.items.tasks)
      if (t.op != 0 && (!first || std::make_pair(t.create, t.start) <
                                      std::make_pair(first->create, first->start)))
        first = &t;
    if (first) top_level = first->op;
  }
  for (size_t k = 0; k < d_.ops.size(); ++k) {
    if (k + base::kPrefetchAhead < d_.ops.size())
      task_of_op.prefetch(d_.ops[k + base::kPrefetchAhead].op);
    const OpInfo& o = d_.ops[k];
    trace::OperationRecord r;
    r.uid = o.op;
    r.parent = o.parent == kNoParent ? 0 : o.parent;
    if (top_level != 0 && o.op != top_level) r.parent = top_level;
    if (const uint32_t* task = task_of_op.find(o.op)) {
      r.op_kind = trace::OpKind::Task;
      r.task_kind = *task;
      const auto [name, added] = task_names.try_emplace(*task, 0);
      if (added) name->second = str(task_name(*task));
      r.name = name->second;
    } else {
      const auto [kind, added] = kinds.try_emplace(o.kind, KindName{});
      if (added) {
        const auto known = d_.op_kinds.find(o.kind);
        const std::string kind_name =
            known == d_.op_kinds.end() ? "operation kind " + std::to_string(o.kind) : known->second;
        kind->second = KindName{op_kind(kind_name), str(kind_name)};
      }
      r.op_kind = kind->second.kind;
      r.name = kind->second.name;
    }
    if (o.provenance != 0) {
      const auto [text, added] = provenances.try_emplace(o.provenance, 0);
      if (added) {
        const auto p = d_.provenances.find(o.provenance);
        if (p != d_.provenances.end()) text->second = str(readable_provenance(p->second));
      }
      r.provenance = text->second;
    }
    out<trace::OperationRecord>().push_back(r);
  }
}

std::string Converter::item_name(const ItemTables::NameKey& it) const {
  const auto lookup = [](const std::map<uint32_t, std::string>& m, uint32_t k) {
    const auto f = m.find(k);
    return f == m.end() ? "kind " + std::to_string(k) : f->second;
  };
  switch (it.source) {
    case Source::Message:
      if (d_.messages_by_kind) {
        const auto f = d_.message_names.find(static_cast<uint32_t>(it.kind));
        return f == d_.message_names.end() ? "message " + std::to_string(it.kind) : f->second;
      }
      [[fallthrough]];
    case Source::Meta: {
      const auto f = d_.meta_names.find(static_cast<uint32_t>(it.kind));
      return f == d_.meta_names.end() ? "meta task " + std::to_string(it.kind) : f->second.first;
    }
    case Source::MapperCall:
      return "Mapper Call " + lookup(d_.mapper_calls, static_cast<uint32_t>(it.kind));
    case Source::RuntimeCall:
      return "Runtime Call " + lookup(d_.runtime_calls, static_cast<uint32_t>(it.kind));
    case Source::ApplicationCall: {
      const auto p = d_.provenances.find(it.kind);
      return p == d_.provenances.end() ? "Application Call"
                                       : std::string(readable_provenance(p->second));
    }
    case Source::ProfTask:
      return "ProfTask";
    default:
      return task_name(static_cast<uint32_t>(it.kind));
  }
}

void Converter::items() {
  ItemTables& items = d_.items;
  // Synthetic uids made before MachineDesc named the node, or with a node
  // convert() replaced, carry this file's node.
  if (items.synthetic > 0 && (items.mixed_nodes || items.uid_node != node_)) {
    const auto restamp = [&](Uid& uid) {
      if (is_synthetic(uid)) uid = trace::make_uid(node_, uid);
    };
    for (auto& r : items.tasks) restamp(r.uid);
    for (auto& r : items.metas) restamp(r.uid);
    for (auto& r : items.kernels) restamp(r.task);
    for (Uid& uid : items.path.uids) restamp(uid);
  }
  // An fevent is one item's: a later item naming it again (a damaged log)
  // gets a uid of its own, as do copies naming it (channels()).
  const size_t n = items.path.items.size();
  repeated_events_ = base::repeated_ids(n + d_.channel_items.size(), [&](size_t k) {
    return k < n ? items.path.items[k].fevent : d_.channel_items[k - n].fevent;
  });
  bool repeated = false;
  for (const size_t k : repeated_events_) {
    if (k >= n) break;
    repeated = true;
    items.path.uids[k] = items.uid(items.path_refs[k]) = synthetic_uid();
  }
  if (repeated) {
    for (size_t k = 0; k < items.kernels.size(); ++k)
      items.kernels[k].task = items.tasks[items.kernel_tasks[k]].uid;
  }
  // The name slots' texts, now that every name the log gives is known.
  for (size_t k = 0; k < items.names.size(); ++k)
    t_.strings.emplace(static_cast<uint32_t>(k + 1), item_name(items.names[k]));
  path_ = std::make_shared<RunLinks>(std::move(items.path));
}

}  // namespace detail

namespace {

// What a RuntimeConfig flag means, in words, with the switch that sets it.
std::string runtime_config_flag(const std::string& flag) {
  static const std::map<std::string, std::string> kWords = {
      {"debug", "a debug build of Legion (DEBUG_LEGION)"},
      {"spy", "Legion Spy logging (-lg:spy)"},
      {"gc", "garbage-collection logging (LEGION_GC)"},
      {"inorder", "in-order execution (-lg:inorder)"},
      {"safe_mapper", "mapper checks (-lg:safe_mapper)"},
      {"safe_runtime", "runtime checks (-lg:safe_runtime)"},
      {"safe_ctrlrepl", "control-replication checks (-lg:safe_ctrlrepl)"},
      {"part_checks", "partition checks (-lg:partcheck)"},
      {"bounds_checks", "bounds checks (LEGION_BOUNDS_CHECKS)"},
      {"resilient", "resilience (-lg:resilient)"}};
  const auto w = kWords.find(flag);
  return w == kWords.end() ? flag : w->second;
}

// A log without MachineDesc (Legion before 2023-03) names its node only in
// its ids: its items ran on its own node's processors, and it describes
// every node's processors.
void infer_machine(LogData& d) {
  std::map<uint32_t, uint64_t> ran;  // node -> processors of it that ran items
  for (const auto& [id, kind] : d.procs)
    if (d.items.procs_used.contains(id)) ++ran[node_of_proc(id)];
  if (ran.size() == 1) d.node = ran.begin()->first;
  for (const auto& [id, kind] : d.procs) d.nodes = std::max(d.nodes, node_of_proc(id) + 1);
  d.nodes = std::max(d.nodes, d.node + 1);
}

// What of the file this importer reads otherwise than it is written, into
// `problems`: a format newer than the newest it knows, record kinds it
// does not know, an absurd node (then read as node 0 of 1).
void check_input(LogData& d, const std::string& path, const DecodeFacts& facts,
                 std::vector<std::string>& problems) {
  std::string kinds;
  uint64_t unknown = 0;
  for (const auto& [name, count] : d.unknown_kinds) {
    kinds += (kinds.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
    unknown += count;
  }
  if (facts.format > kNewestKnownFormat) {
    // One warning says it all: what the log is, what was read, what not.
    problems.push_back(
        path + ": Legion Prof format " + std::to_string(facts.format) +
        " is newer than the newest this importer knows (" + std::to_string(kNewestKnownFormat) +
        "): read by the layouts its header declares, as " + std::to_string(kNewestKnownFormat) +
        " is read; " +
        (unknown == 0 ? std::string("it holds no record kind this importer does not interpret")
                      : "record kinds not interpreted: " + kinds + ", " + std::to_string(unknown) +
                            " records skipped"));
  } else if (unknown > 0) {
    problems.push_back(path + ": skipped " + std::to_string(unknown) +
                       " records of kinds this importer does not know: " + kinds);
  }
  if (d.node > 0xffff || d.nodes > 0x10000) {  // Realm ids hold 16 bits of node
    problems.push_back(path + ": MachineDesc gives an absurd node " + std::to_string(d.node) +
                       " of " + std::to_string(d.nodes) +
                       " (a damaged file?); read as node 0 of 1");
    d.node = 0;
    d.nodes = 1;
  }
}

// The run's identity: its node of how many, host, process, a name for what
// ran and an id (`format`: the log's format number, 0 where it names none).
void describe_run(trace::RunInfo& run, std::vector<std::string>& problems, const LogData& d,
                  const std::string& path, const DecodeFacts& facts, uint32_t format) {
  run.rank = d.node;
  run.ranks = std::max<uint32_t>(1, d.nodes);
  if (run.rank >= run.ranks) {
    problems.push_back(path + ": MachineDesc names node " + std::to_string(d.node) + " of " +
                       std::to_string(d.nodes) + "; read as node " + std::to_string(d.node) +
                       " of " + std::to_string(d.node + 1));
    run.ranks = d.node + 1;
  }
  run.host = d.hostname;
  run.pid = d.process_id;
  // Legion logs do not name the program: say what ran (the format and
  // Legion's version where the log gives them), where.
  std::string what;
  if (format > 0) what = "format " + std::to_string(format);
  if (const std::string& v = facts.legion_version; !v.empty())
    what += (what.empty() ? "" : ", ") + (v.rfind("legion", 0) == 0 ? v : "Legion version " + v);
  run.program = "Legion run" + (what.empty() ? "" : " (" + what + ")") +
                (d.process_id ? ", pid " + std::to_string(d.process_id) : "") +
                (d.hostname.empty() ? "" : " on " + d.hostname);
  run.start_unix_ns = d.zero_time;
  if (d.has_zero_time) {
    run.id = "legion-" + std::to_string(run.ranks) + "n-" + std::to_string(d.zero_time);
  } else {
    run.id = "legion-" + (d.hostname.empty() ? std::string("unknown") : d.hostname) + "-" +
             std::to_string(d.process_id);
  }
}

// The metadata's "legion": what the file and its machine description say
// of the log and the Legion that wrote it.
nlohmann::json legion_metadata(const LogData& d, const DecodeFacts& facts, uint32_t format) {
  nlohmann::json legion = {{"first_line", facts.first_line},
                           {"record_layouts", facts.layouts},
                           {"header_bytes", facts.header_bytes},
                           {"records", facts.records},
                           {"bytes_decoded", facts.bytes},
                           {"compressed", facts.compressed},
                           {"damaged", facts.damaged},
                           {"node_id", d.node},
                           {"num_nodes", d.nodes},
                           {"host_id", detail::hex(d.host_id)},
                           {"process_id", d.process_id},
                           {"max_dim", d.max_dim},
                           {"record_counts", d.counts}};
  if (format > 0) legion["format"] = format;
  if (!facts.legion_version.empty()) legion["legion_version"] = facts.legion_version;
  legion["memory_kinds"] = d.mem_kinds == MemKindNumbering::FromGlobal
                               ? "numbered from GLOBAL_MEM = 0 (Realm before April 2021)"
                               : "numbered from NO_MEMKIND = 0";
  if (d.has_zero_time) legion["zero_time_ns"] = d.zero_time;
  legion["calibration_err_ns"] = d.calibration_err;
  return legion;
}

// RuntimeConfig's debug and safety flags: all in "legion", those set in
// "config", and a warning naming them (legion_prof warns too): such a run
// is slower than the same run without them.
void note_runtime_config(analysis::RankTrace& t, const LogData& d, const std::string& path) {
  if (d.runtime_config.empty()) return;
  t.metadata["legion"]["runtime_config"] = d.runtime_config;
  nlohmann::json set = nlohmann::json::object();
  std::string named;
  for (const auto& [flag, on] : d.runtime_config) {
    if (!on) continue;
    set[flag] = true;
    named += (named.empty() ? "" : ", ") + runtime_config_flag(flag);
  }
  if (!set.empty()) {
    t.metadata["config"] = set;
    t.problems.push_back(path + ": this run had Legion's checking and debugging on (" + named +
                         "); its times include that work, so it runs slower than it would "
                         "without them: profile a build and run without them");
  }
}

}  // namespace

analysis::RankTrace convert(LogData& d, const std::string& path, const DecodeFacts& facts,
                            Links links) {
  analysis::RankTrace t;
  t.file = path;
  t.readable = true;
  t.records = facts.records;
  t.problems = facts.problems;
  t.finished_cleanly = facts.clean_end;
  t.data_lost = facts.damaged;  // part of the file could not be used: exit status 1
  check_input(d, path, facts, t.problems);
  if (!d.has_machine) infer_machine(d);
  detail::Converter(d, t).run();
  if (links == Links::FileAlone) {
    detail::resolve_links({&t});
    detail::write_links(t);
  }
  // The format number: the first line's (1009 on), else MachineDesc's
  // (1000 to 1008), else none (Legion before 2023-11).
  const uint32_t format = facts.format > 0 ? facts.format : d.has_machine ? d.version : 0;
  describe_run(t.run, t.problems, d, path, facts, format);
  t.metadata = {{"run", t.run.to_json()},
                {"clock",
                 {{"units", "ns"},
                  {"source", "legion"},
                  // Realm puts every node on one zero: never shifted (LEGION_FORMAT.md §8).
                  {"offset_to_reference_ns", 0}}},
                {"legion", legion_metadata(d, facts, format)}};
  if (d.has_zero_time) t.metadata["clock"]["zero_unix_ns"] = d.zero_time;
  note_runtime_config(t, d, path);
  return t;
}

}  // namespace legato::legion
