// What one Legion Prof log holds that the timeline needs, collected from
// the record stream into compact tables (descriptors deduplicated, names
// overwritten as the log says). References between records (waits to their
// task, calls to their item, copies to their instances) are resolved only
// after the whole file is read, because the writer guarantees no order
// (LEGION_FORMAT.md §5).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "trace_format/huge_pages.hpp"

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
inline constexpr size_t kSources = static_cast<size_t>(Source::ProfTask) + 1;
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

// 96 bytes: the largest table, read by every conversion step.
struct ProcItem {
  uint64_t proc = 0, op = 0, fevent = 0, creator = 0, critical = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint64_t extra = 0;    // mapper_proc of mapper calls, provenance of application calls,
                         // spawn of messages, index into LogData::gpu_times of GPU tasks
  uint32_t kind = 0;     // task_id, lg_id, mapping/runtime call kind
  uint32_t variant = 0;  // task variant; mapper id of mapper calls
  Source source = Source::Task;
};

// A GPU task's kernel time (GPUTaskInfo's gpu_start, gpu_stop).
struct GpuTime {
  uint64_t start = 0, stop = 0;
};

struct WaitInfo {
  bool meta = false;  // MetaWaitInfo (else TaskWaitInfo)
  uint64_t op = 0;
  uint32_t kind = 0;  // lg_id of meta waits, task_id of task waits
  uint64_t start = 0, ready = 0, end = 0, event = 0;
};

// EventWaitInfo: the item whose fevent it names waited on `event` at the
// place BacktraceDesc `backtrace` gives.
struct WaitSite {
  uint64_t fevent = 0, event = 0, backtrace = 0;
};

struct InstInfo {
  uint64_t inst_uid = 0, inst_id = 0, mem = 0, size = 0, op = 0;
  uint64_t create = 0, ready = 0, destroy = 0, creator = 0;
};

// CopyInfo, FillInfo and PartitionInfo.
struct ChannelItem {
  enum Type : uint8_t { Copy, Fill, DepPart } type = Copy;
  uint64_t op = 0, size = 0, fevent = 0, creator = 0, critical = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint32_t part_op = 0;
};

// CopyInstInfo and FillInstInfo (src = 0 for fills).
struct InstRef {
  uint64_t fevent = 0, src = 0, dst = 0, src_inst = 0, dst_inst = 0;
  bool indirect = false;
};

// An Event*Info record: `result` was produced by the item whose fevent is
// `performer` at `performed`, after its preconditions.
struct EventNode {
  enum Type : uint8_t { Merge, Trigger, Poison, Barrier, Reservation, Instance, CompletionQueue };
  Type type = Merge;
  uint64_t result = 0, performer = 0, performed = 0;
  uint64_t pre[4] = {0, 0, 0, 0};
};

struct OpInfo {
  uint64_t op = 0, parent = 0, provenance = 0;
  uint32_t kind = 0;
};

struct LogData {
  // Run and machine.
  bool has_machine = false;
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
  std::map<uint32_t, std::string> mapper_calls, runtime_calls, op_kinds;
  std::map<std::pair<uint32_t, uint64_t>, std::string> mapper_names;  // mapper id, proc
  std::map<uint64_t, std::string> provenances;
  std::map<uint64_t, uint32_t> multi_tasks;    // op -> task_id (index launches)
  std::map<uint64_t, std::string> backtraces;  // BacktraceDesc: id -> text
  // Timeline.
  HugeVector<OpInfo> ops;
  HugeVector<ProcItem> items;
  std::array<size_t, kSources> items_by_source{};
  // How many items have a source for which `of` holds.
  size_t items_of(bool (*of)(Source)) const {
    size_t n = 0;
    for (size_t s = 0; s < kSources; ++s) n += of(static_cast<Source>(s)) ? items_by_source[s] : 0;
    return n;
  }
  std::vector<GpuTime> gpu_times;  // per GPU task, in order
  HugeVector<WaitInfo> waits;
  HugeVector<WaitSite> wait_sites;
  HugeVector<InstInfo> instances;
  HugeVector<ChannelItem> channel_items;
  HugeVector<InstRef> inst_refs;
  HugeVector<EventNode> events;
  // Records per kind name, and those of kinds this importer does not know.
  std::map<std::string, uint64_t> counts;
  std::map<std::string, uint64_t> unknown_kinds;
};

}  // namespace legato::legion
