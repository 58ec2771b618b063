// What one Legion Prof log holds that the timeline needs, collected from
// the record stream into compact tables (descriptors deduplicated, names
// overwritten as the log says). References between records (waits to their
// task, calls to their item, copies to their instances) are resolved only
// after the whole file is read, because the writer guarantees no order
// (LEGION_FORMAT.md §5).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/huge_pages.hpp"
#include "base/id_map.hpp"
#include "trace_format/records.hpp"

namespace legato::legion {

// Realm id layouts (LEGION_FORMAT.md §3).
inline uint32_t node_of_proc(uint64_t proc) {
  return static_cast<uint32_t>((proc >> 40) & 0xffff);
}
inline uint32_t index_of_proc(uint64_t proc) {
  return static_cast<uint32_t>(proc & 0xfff);
}
inline uint32_t node_of_mem(uint64_t mem) {
  return static_cast<uint32_t>((mem >> 40) & 0xffff);
}
inline uint32_t index_of_mem(uint64_t mem) {
  return static_cast<uint32_t>(mem & 0xff);
}

// Legion's ProcKind values, and the MemKind values the importer singles out.
enum LegionProcKind : int32_t {
  kGpuProc = 1,
  kCpuProc = 2,
  kUtilProc = 3,
  kIoProc = 4,
  kProcGroup = 5,
  kProcSet = 6,
  kOmpProc = 7,
  kPyProc = 8
};
inline constexpr int32_t kGpuDynamicMem = 14;

// Everything that occupies time on a processor.
enum class Source : uint8_t {
  Task,
  ImplicitTask,
  GpuTask,
  Meta,
  Message,
  MapperCall,
  RuntimeCall,
  ApplicationCall,
  ProfTask
};
inline bool is_task(Source s) {
  return s == Source::Task || s == Source::ImplicitTask || s == Source::GpuTask;
}
inline bool is_call(Source s) {
  return s == Source::MapperCall || s == Source::RuntimeCall || s == Source::ApplicationCall;
}
// Whether an item's fevent is its own completion event: calls share their
// item's, and prof tasks point at the item they report on.
inline bool owns_event(Source s) {
  return !is_call(s) && s != Source::ProfTask;
}

// One decoded processor item (TaskInfo, MetaInfo, MapperCallInfo...):
// ItemTables converts it as it arrives; no table of them is kept.
struct ProcItem {
  uint64_t proc = 0, op = 0, fevent = 0, creator = 0, critical = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint64_t extra = 0;  // mapper_proc of mapper calls, provenance of application calls,
                       // spawn of messages
  uint64_t gpu_start = 0, gpu_stop = 0;  // GPU tasks' kernel time (GPUTaskInfo)
  uint32_t kind = 0;                     // task_id, lg_id, mapping/runtime call kind
  uint32_t variant = 0;                  // task variant; mapper id of mapper calls
  Source source = Source::Task;
};

struct WaitInfo {
  bool meta = false;  // MetaWaitInfo (else TaskWaitInfo)
  uint64_t op = 0;
  uint32_t kind = 0;  // lg_id of meta waits, task_id of task waits
  uint64_t start = 0, ready = 0, end = 0, event = 0;
};

// A wait's (meta, op, kind) as one hash (a task wait's kind counts as 0),
// for a set of the keys waits name: a collision only adds a candidate.
inline uint64_t wait_key(bool meta, uint64_t op, uint32_t kind) {
  return ((op * 0x9E3779B97F4A7C15ull) ^ (uint64_t{kind} << 1) ^ (meta ? 1 : 0)) | 1;
}

// EventWaitInfo: the item whose fevent it names waited on `event` at the
// place BacktraceDesc `backtrace` gives.
// EventWaitInfo: where an item waited on an event; provenance (1010 on):
// the Provenance record of the program's call it waited in, 0 for none.
struct WaitSite {
  uint64_t fevent = 0, event = 0, backtrace = 0, provenance = 0;
};

struct InstInfo {
  uint64_t inst_uid = 0, inst_id = 0, mem = 0, size = 0, op = 0;
  uint64_t create = 0, ready = 0, destroy = 0, creator = 0;
};

// CopyInfo, FillInfo and PartitionInfo. src and dst: the memories an
// older CopyInfo or FillInfo names itself (before 2022-10, when
// CopyInstInfo and FillInstInfo came to name them), else 0.
struct ChannelItem {
  enum Type : uint8_t { Copy, Fill, DepPart } type = Copy;
  uint64_t op = 0, size = 0, fevent = 0, creator = 0, critical = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint64_t src = 0, dst = 0;
  uint32_t part_op = 0;
  uint32_t redop = 0;  // a reduction copy's operator (1011 on), 0 for none
};

// CopyInstInfo and FillInstInfo (src = 0 for fills).
struct InstRef {
  uint64_t fevent = 0, src = 0, dst = 0, src_inst = 0, dst_inst = 0;
  bool indirect = false;
};

// An Event*Info record: `result` was produced by the item whose fevent is
// `performer` at `performed`, after its preconditions.
// MakeValid, FetchMetadata and External (1012; External in some 1008 logs
// too): Realm work an item started (an index space's make_valid, an
// instance's fetch_metadata, asynchronous work such as CUDA's), triggered
// at `performed`, with no preconditions. Handshake: a barrier arrival from
// outside Legion (BarrierArrivalInfo whose fevent is its result), no item's.
struct EventNode {
  enum Type : uint8_t {
    Merge,
    Trigger,
    Poison,
    Barrier,
    Reservation,
    Instance,
    CompletionQueue,
    MakeValid,
    FetchMetadata,
    External,
    Handshake
  };
  Type type = Merge;
  // The critical path's own (critical_path.cpp), in what would be padding:
  // whether the event is being or has been resolved. Once it has,
  // `performed` and `performer` hold what it resolved to, and `via` the
  // type of the record whose own performer that is.
  uint8_t resolution = 0;
  uint8_t via = 0;
  uint64_t result = 0, performer = 0, performed = 0;
  uint64_t pre[4] = {0, 0, 0, 0};
};

// An item that owns its completion event (fevent). Once its step on the
// critical path is resolved, nothing reads its creator and critical event
// again: they hold its link instead (PathInputs::resolved).
struct TimedItem {
  uint64_t fevent = 0, creator = 0, critical = 0;
  uint64_t create = 0, stop = 0;
};

// What one file contributes to its run's critical path: its items (with the
// uid each became, 0 for one not drawn) and its event graph. Resolving the
// path (detail::resolve_links) frees the graph and keeps each item's link
// in place of its creator and critical event, so that the model reads the
// links where they are instead of from a table of edge records.
struct PathInputs {
  base::HugeVector<TimedItem> items;
  base::HugeVector<uint64_t> uids;
  base::HugeVector<EventNode> events;
  bool resolved = false;

  // After resolution: the uid of item k's precondition on the path (0: none,
  // or the item is not drawn), and its link as an edge record (Data where
  // the event graph gave it, or the Realm work it went through; Control
  // where its creator did).
  uint64_t precondition(size_t k) const { return items[k].creator; }
  trace::EdgeRecord link(size_t k) const {
    return trace::EdgeRecord{uids[k], items[k].creator,
                             static_cast<trace::EdgeKind>(items[k].critical)};
  }
  void set_link(size_t k, uint64_t precondition, trace::EdgeKind kind) {
    items[k].creator = precondition;
    items[k].critical = static_cast<uint64_t>(kind);
  }
};

// Where a converted processor item is: an index into ItemTables::tasks, or
// kMetaRef | an index into ItemTables::metas.
using ItemRef = uint32_t;
inline constexpr ItemRef kMetaRef = ItemRef{1} << 31;

// The processor items, converted into the Legato records they become as
// the Collector decodes them (add), so that a large log's items are
// written once. Uids are final except where an fevent repeats (a damaged
// log: the converter gives the later item a uid of its own) and where the
// node was not known yet (uid_node).
class ItemTables {
 public:
  // Items of one source and kind (of an application call: its provenance)
  // share a name, made once the whole log is read (names are overwritten
  // late): slot k of `names` is the file's string id k + 1.
  struct NameKey {
    Source source;
    uint64_t kind;
  };
  // A call with an fevent: it nests in the item that owns that event.
  struct Call {
    uint64_t fevent;
    uint32_t meta;       // index into metas
    uint32_t processor;  // its record's
  };

  std::vector<trace::TaskRecord> tasks;         // task_kind: the task id
  std::vector<trace::MetaTaskRecord> metas;     // meta_kind: a name slot's string id
  std::vector<trace::GpuKernelRecord> kernels;  // GPU tasks' device side; name: a slot's id
  std::vector<uint32_t> kernel_tasks;           // per kernel: its task, an index into tasks
  std::vector<NameKey> names;
  // The items that own their event (owns_event), in record order: the
  // critical path's (uid: the event's, synthetic without one), and where
  // each one's record is.
  PathInputs path;
  base::HugeVector<ItemRef> path_refs;
  base::HugeVector<uint64_t> path_keys;  // the wait_key a wait would name each by
  std::vector<Call> calls;
  // The processors the items ran on (a file may describe every node's
  // processors; its own items run on its node's).
  base::IdSet procs_used;
  uint64_t messages = 0, slow_messages = 0;  // messages with a spawn time; over 1 ms of it
  // Synthetic uids given so far (the converter goes on from there), and the
  // node they carry; mixed_nodes: MachineDesc came between items.
  uint64_t synthetic = 0;
  uint32_t uid_node = 0;
  bool mixed_nodes = false;

  // Converts one item of the log of node `node`. Throws ImportError past
  // 2^31 items of one table.
  void add(const ProcItem& it, uint32_t node);
  const NameKey& name_of(const trace::MetaTaskRecord& m) const { return names[m.meta_kind - 1]; }
  trace::Uid& uid(ItemRef ref) {
    return ref & kMetaRef ? metas[ref & ~kMetaRef].uid : tasks[ref].uid;
  }
  uint32_t processor(ItemRef ref) const {
    return ref & kMetaRef ? metas[ref & ~kMetaRef].processor : tasks[ref].processor;
  }

 private:
  uint32_t name_slot(Source source, uint64_t kind);
  base::IdMap<uint32_t> slots_;       // Source << 32 | kind -> slot's string id
  base::IdMap<uint32_t> app_slots_;   // application calls: provenance -> slot's string id
  uint64_t last_key_ = ~uint64_t{0};  // items come in runs of one kind
  uint32_t last_slot_ = 0;
  uint64_t last_proc_ = 0;  // and of one processor
};

struct OpInfo {
  uint64_t op = 0, parent = 0, provenance = 0;
  uint32_t kind = 0;
};

// InstUsageInfo (before 2022-10): the memory and size of an instance whose
// InstTimelineInfo names neither.
struct InstUsage {
  uint64_t inst_id = 0, mem = 0, size = 0, op = 0;
};

// How the log numbers memory kinds. Realm numbered them from GLOBAL_MEM = 0
// until April 2021, when NO_MEMKIND took 0 and every kind moved up by one
// (LEGION_FORMAT.md §4 says how the importer tells them apart).
enum class MemKindNumbering : uint8_t { FromRecords, Current, FromGlobal };

struct LogData {
  // Run and machine.
  bool has_machine = false;
  MemKindNumbering mem_kinds = MemKindNumbering::FromRecords;
  // MessageInfo names its message by a MessageDesc kind (before 2020-05)
  // rather than a MetaDesc lg_id.
  bool messages_by_kind = false;
  // OperationInstance names each operation's parent (Legion from 2022-08).
  bool ops_name_parents = true;
  uint32_t node = 0, nodes = 1, version = 0, process_id = 0;
  std::string hostname;
  uint64_t host_id = 0;
  bool has_zero_time = false;
  int64_t zero_time = 0, calibration_err = 0;
  uint32_t max_dim = 0;
  std::map<std::string, bool> runtime_config;
  // Descriptors (deduplicated).
  std::map<uint64_t, int32_t> procs;                            // proc_id -> ProcKind
  std::map<uint64_t, std::pair<int32_t, uint64_t>> mems;        // mem_id -> kind, capacity
  std::map<uint32_t, std::pair<std::string, bool>> task_names;  // task_id -> name, overwritten
  std::map<std::pair<uint32_t, uint32_t>, std::string> variants;
  std::map<uint32_t, std::pair<std::string, bool>> meta_names;  // lg_id -> name, message
  std::map<uint32_t, std::string> message_names;                // MessageDesc: kind -> name
  std::map<uint32_t, std::string> mapper_calls, runtime_calls, op_kinds;
  std::map<std::pair<uint32_t, uint64_t>, std::string> mapper_names;  // mapper id, proc
  std::map<uint64_t, std::string> provenances;
  std::map<uint64_t, uint32_t> multi_tasks;    // op -> task_id (index launches)
  std::map<uint64_t, std::string> backtraces;  // BacktraceDesc: id -> text
  // Timeline.
  base::HugeVector<OpInfo> ops;
  ItemTables items;
  base::HugeVector<WaitInfo> waits;
  base::HugeVector<WaitSite> wait_sites;
  base::HugeVector<InstInfo> instances;
  std::vector<InstUsage> inst_usages;                       // InstUsageInfo
  std::vector<std::pair<uint64_t, uint64_t>> inst_creates;  // InstCreateInfo: inst_id, create
  base::HugeVector<ChannelItem> channel_items;
  base::HugeVector<InstRef> inst_refs;
  base::HugeVector<EventNode> events;
  // Records per kind name, and those of kinds this importer does not know.
  std::map<std::string, uint64_t> counts;
  std::map<std::string, uint64_t> unknown_kinds;
};

}  // namespace legato::legion
