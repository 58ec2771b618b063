// A writer of Legion Prof binary logs ("FileType: BinaryLegionProf v: ..."),
// used only by tests and benchmarks (never installed, never linked into the
// tools). It writes one node's file, plain or gzip, in the layout of a
// Legion version (LogVersion): the header of the real logs of that version,
// line for line (1008: tests/legion_import/data; 1006 derived from it:
// before the critical-path data, no `critical` fields, no event graph, no
// ImplicitTaskInfo, PartitionInfo without fevent, ProfTaskInfo without
// completion, ids renumbered as that version's enum had them; 1009-1012:
// the preambles Legion's own serializer writes,
// tests/legion_import/data/serializer), and from 1011 PhysicalInstanceUsage
// with `redop` written only for reductions, as Legion writes it.
//
// Records are encoded through the version's header, field by field by name:
// each call passes the 1008 fields (and what older layouts name besides:
// a copy's memories), fields the version lacks are left out and fields only
// it has are zeros. Records of kinds the version lacks (the event graph,
// implicit tasks in 1006, CopyInstInfo in V2020) are not written, and the
// call returns false.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace legato::legion::testing {

// Profiling versions 1006 and 1008, and two older, unversioned layouts:
// V2020, Legion of May 2020 (no MachineDesc, ZeroTime or event ids;
// instances in three records; copies and fills naming their memories;
// memory kinds numbered from GLOBAL_MEM = 0), and V2023, Legion of December
// 2023 (MachineDesc of node and node count only, provenance as text in
// OperationInstance, no event ids on processor items). Both logged every
// node's processors and memories in each node's file: the test calls the
// writer to do so.
// 1009-1012: the formats after 1008 (LEGION_FORMAT.md §4), first line
// "v: <format>" and a second line with Legion's version (kWriterLegionVersion).
enum class LogVersion : uint32_t {
  V2020 = 2020,
  V2023 = 2023,
  V1006 = 1006,
  V1008 = 1008,
  V1009 = 1009,
  V1010 = 1010,
  V1011 = 1011,
  V1012 = 1012
};
// The profiling format a version writes (0: the unversioned older layouts).
constexpr uint32_t format_of(LogVersion v) {
  return v == LogVersion::V2020 || v == LogVersion::V2023 ? 0 : static_cast<uint32_t>(v);
}
// Whether it writes the critical-path data (`critical` fields, the event
// graph): 1007 on.
constexpr bool has_event_graph(LogVersion v) {
  return format_of(v) >= 1007;
}
// What the writer puts on the second line of a 1009+ header.
inline constexpr const char* kWriterLegionVersion = "legion-26.03.0-test";

// Realm ids, built as the real ones are (LEGION_FORMAT.md §3).
inline uint64_t proc_id(uint32_t node, uint32_t index) {
  return (uint64_t{0x1d} << 56) | (uint64_t{node & 0xffff} << 40) | (index & 0xfff);
}
inline uint64_t mem_id(uint32_t node, uint32_t index) {
  return (uint64_t{0x1e} << 56) | (uint64_t{node & 0xffff} << 40) | (index & 0xff);
}
// An event created on `node`: bit 63 set, the node in 62..47, a sequence
// number below.
inline uint64_t event_id(uint32_t node, uint64_t seq) {
  return (uint64_t{1} << 63) | (uint64_t{node & 0xffff} << 47) | (seq & ((uint64_t{1} << 47) - 1));
}
// An instance: tag 0b01 in 63..62, owner node in 61..46, its memory's index
// and a sequence number below.
inline uint64_t instance_id(uint32_t node, uint32_t mem_index, uint64_t seq) {
  return (uint64_t{1} << 62) | (uint64_t{node & 0xffff} << 46) |
         (uint64_t{mem_index & 0xff} << 36) | (seq & ((uint64_t{1} << 36) - 1));
}

// Realm's Processor::Kind and Memory::Kind values.
enum WriterProcKind : int32_t {
  kGpu = 1,
  kCpu = 2,
  kUtility = 3,
  kIo = 4,
  kOpenMp = 7,
  kPython = 8
};
enum WriterMemKind : int32_t {
  kGlobalMem = 1,
  kSystemMem = 2,
  kRegisteredMem = 3,
  kSocketMem = 4,
  kZeroCopyMem = 5,
  kFramebufferMem = 6,
  kFileMem = 9,
  kGpuManagedMem = 13,
  kGpuDynamicMem = 14
};

struct MachineInfo {
  uint32_t node = 0, nodes = 1;
  std::string hostname = "synthetic";
  uint64_t host_id = 0x1234abcd;
  uint32_t process_id = 4242;
  int64_t zero_time = 1769621188808901136;  // absolute Unix ns
  int64_t calibration_err = -1000;
};

// TaskInfo, ImplicitTaskInfo and GPUTaskInfo (gpu_start/gpu_stop).
struct TaskTimes {
  uint64_t op = 0;
  uint32_t task_id = 0, variant_id = 0;
  uint64_t proc = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint64_t gpu_start = 0, gpu_stop = 0;
  uint64_t creator = 0, critical = 0, fevent = 0;
};

// MetaInfo and MessageInfo (spawn).
struct MetaTimes {
  uint64_t op = 0;
  uint32_t lg_id = 0;
  uint64_t proc = 0;
  uint64_t spawn = 0, create = 0, ready = 0, start = 0, stop = 0;
  uint64_t creator = 0, critical = 0, fevent = 0;
};

// CopyInfo, FillInfo and PartitionInfo (part_op). src and dst: the
// memories an older CopyInfo or FillInfo names itself (V2020).
struct ChannelTimes {
  uint64_t op = 0, size = 0, src = 0, dst = 0;
  uint64_t create = 0, ready = 0, start = 0, stop = 0;
  uint64_t creator = 0, critical = 0, fevent = 0;
  uint32_t collective = 0, part_op = 0;
  uint32_t redop = 0;  // a reduction copy's operator (1011 on)
};

struct InstanceTimes {
  uint64_t inst_uid = 0, inst_id = 0, mem = 0, size = 0, op = 0;
  uint64_t create = 0, ready = 0, destroy = 0, creator = 0;
};

class LegionLogWriter {
 public:
  // Opens `path` (gzip: one gzip stream) and writes the version's header.
  // Throws std::runtime_error when the file cannot be written.
  LegionLogWriter(const std::string& path, LogVersion version, bool gzip = false,
                  int gzip_level = 6);
  ~LegionLogWriter();
  LegionLogWriter(const LegionLogWriter&) = delete;
  LegionLogWriter& operator=(const LegionLogWriter&) = delete;

  // The header lines of a version (without the first line and the empty
  // line that ends the header).
  static const std::vector<std::string>& header_lines(LogVersion version);

  // Machine and descriptors.
  void machine(const MachineInfo& m);  // MachineDesc, ZeroTime, CalibrationErr, MaxDimDesc
  void runtime_config(bool debug = false);
  void proc(uint64_t proc_id, int32_t kind);
  void memory(uint64_t mem_id, int32_t kind, uint64_t capacity);
  void proc_memory(uint64_t proc_id, uint64_t mem_id, uint32_t bandwidth, uint32_t latency);
  void task_kind(uint32_t task_id, const std::string& name, bool overwrite = true);
  void task_variant(uint32_t task_id, uint32_t variant_id, const std::string& name);
  void meta_desc(uint32_t lg_id, const std::string& name, bool message = false);
  bool message_desc(uint32_t kind, const std::string& name);  // V2020 only (else false)
  void op_desc(uint32_t kind, const std::string& name);
  void mapper_call_desc(uint32_t kind, const std::string& name);
  void runtime_call_desc(uint32_t kind, const std::string& name);
  void mapper_name(uint32_t mapper_id, uint64_t mapper_proc, const std::string& name);
  void provenance(uint64_t id, const std::string& text);
  // OperationInstance; parent ~0 = none.
  void operation(uint64_t op, uint64_t parent, uint32_t kind, uint64_t provenance = 0);
  void multi_task(uint64_t op, uint32_t task_id);

  // Timeline.
  void task(const TaskTimes& t);
  bool implicit_task(const TaskTimes& t);  // false in 1006 (not written)
  void gpu_task(const TaskTimes& t);
  void meta(const MetaTimes& m);
  void message(const MetaTimes& m);
  // Calls carry the fevent of the item they ran in.
  void mapper_call(uint32_t mapper_id, uint64_t mapper_proc, uint32_t kind, uint64_t op,
                   uint64_t start, uint64_t stop, uint64_t proc, uint64_t fevent);
  void runtime_call(uint32_t kind, uint64_t start, uint64_t stop, uint64_t proc, uint64_t fevent);
  void application_call(uint64_t provenance, uint64_t start, uint64_t stop, uint64_t proc,
                        uint64_t fevent);
  void prof_task(uint64_t proc, uint64_t op, uint64_t start, uint64_t stop, uint64_t creator,
                 uint64_t fevent, bool completion = false);
  void task_wait(uint64_t op, uint32_t task_id, uint32_t variant_id, uint64_t start, uint64_t ready,
                 uint64_t end, uint64_t event = 0);
  void meta_wait(uint64_t op, uint32_t lg_id, uint64_t start, uint64_t ready, uint64_t end,
                 uint64_t event = 0);
  void instance(const InstanceTimes& i);
  void copy(const ChannelTimes& c);
  // One per field (run) of a copy: indirect = the field of a gather (src
  // set) or a scatter (src 0).
  // False (not written) where the version has no CopyInstInfo / FillInstInfo.
  bool copy_inst(uint64_t src, uint64_t dst, uint64_t src_inst, uint64_t dst_inst, uint64_t fevent,
                 bool indirect = false, uint32_t src_fid = 0, uint32_t dst_fid = 0,
                 uint32_t num_hops = 1);
  void fill(const ChannelTimes& c);
  bool fill_inst(uint64_t dst, uint64_t dst_inst, uint64_t fevent, uint32_t fid = 0);
  void partition(const ChannelTimes& c);
  // The event graph (1007+): false in 1006 (not written).
  bool event_merger(uint64_t result, uint64_t fevent, uint64_t performed, uint64_t pre0,
                    uint64_t pre1 = 0, uint64_t pre2 = 0, uint64_t pre3 = 0);
  bool event_trigger(uint64_t result, uint64_t fevent, uint64_t precondition, uint64_t performed);
  bool event_poison(uint64_t result, uint64_t fevent, uint64_t performed);
  bool barrier_arrival(uint64_t result, uint64_t fevent, uint64_t precondition, uint64_t performed);
  bool reservation_acquire(uint64_t result, uint64_t fevent, uint64_t precondition,
                           uint64_t performed, uint64_t reservation);
  bool instance_ready(uint64_t result, uint64_t precondition, uint64_t inst_uid,
                      uint64_t performed);
  bool completion_queue(uint64_t result, uint64_t fevent, uint64_t performed, uint64_t pre0,
                        uint64_t pre1 = 0, uint64_t pre2 = 0, uint64_t pre3 = 0);
  // 1012 (ExternalEventInfo also in late 1008 logs): Realm work an item
  // started, triggered at `triggered`; false where the version has none.
  bool make_valid(uint64_t result, uint64_t fevent, uint64_t space, uint64_t created,
                  uint64_t triggered);
  bool fetch_metadata(uint64_t result, uint64_t fevent, uint64_t inst_uid, uint64_t created,
                      uint64_t triggered);
  bool external_event(uint64_t external, uint64_t fevent, uint64_t created, uint64_t triggered,
                      uint64_t provenance);
  // Where an item waited (EventWaitInfo; provenance from 1010) and a
  // backtrace it names.
  void wait_site(uint64_t proc, uint64_t fevent, uint64_t event, uint64_t backtrace_id,
                 uint64_t provenance = 0);
  void backtrace(uint64_t backtrace_id, const std::string& text);
  // An instance used by an item (PhysicalInstanceUsage): from 1011 with the
  // item's fevent, times, field, privilege (mode: 1 read, 2 write, 4
  // reduce, 7 read-write) and, for a reduction, its operator.
  void instance_usage(uint64_t inst_uid, uint64_t fevent, uint64_t op, uint64_t start,
                      uint64_t stop, uint32_t field, uint32_t index, uint32_t mode,
                      uint32_t redop = 0, uint64_t index_expr = 0);

  uint64_t records() const { return records_; }
  LogVersion version() const { return version_; }
  // Flushes and closes the file (also done by the destructor, which cannot
  // report a failure). Throws std::runtime_error when writing failed.
  void finish();

  enum class Kind : uint8_t;  // one per kind any version writes (legion_log_writer.cpp)
  struct Plan;                // how a version encodes a kind (legion_log_writer.cpp)
  struct Value {
    uint64_t u = 0;
    const char* s = nullptr;
    Value(uint64_t v) : u(v) {}  // NOLINT: integers of every width
    Value(int64_t v) : u(static_cast<uint64_t>(v)) {}
    Value(uint32_t v) : u(v) {}
    Value(int32_t v) : u(static_cast<uint64_t>(static_cast<int64_t>(v))) {}
    Value(bool v) : u(v ? 1 : 0) {}
    Value(const std::string& v) : s(v.c_str()) {}
    Value(const char* v) : s(v) {}
  };

 private:
  // Writes a record of `kind` from its 1008 fields in order; false when the
  // version has no such kind.
  bool put(Kind kind, std::initializer_list<Value> fields);
  void flush();

  struct Sink;
  LogVersion version_;
  std::unique_ptr<Sink> sink_;
  const std::vector<Plan>* plans_ = nullptr;
  std::string buf_;
  uint64_t records_ = 0;
  std::map<uint64_t, std::string> provenance_texts_;  // provenance(): id -> text
};

// Writes one multi-node Legate-like GPU run into `dir` (created if needed):
// prof_<node>.prof, or prof_<node>.gz with gzip, each with about
// `records_per_node` records (at least that many; the last operation is
// written whole). Per operation: its OperationInstance, runtime analysis
// and mapping meta tasks on the utility processors with mapper and runtime
// calls in them, a point task on a CPU or the GPU (µs-scale, never
// overlapping on a processor), waits, instances (the task's usage of each,
// a reduction every other one), copies (within and
// between nodes) and the event graph that gates each task on the one
// before it (1007 on). Returns the records written over all nodes.
uint64_t write_synthetic_run(const std::string& dir, uint32_t nodes, uint64_t records_per_node,
                             bool gzip, LogVersion version = LogVersion::V1008);

}  // namespace legato::legion::testing
