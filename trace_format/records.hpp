// Every record kind of the .prof format v1 (FORMAT.md, "Record kinds"). Times
// are signed nanoseconds since the run's zero time; item uids and the ids of
// processors, memories and channels carry the rank in their high bits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "trace_format/schema.hpp"

namespace legato::trace {

using Time = int64_t;  // ns since the run's zero time
using Uid = uint64_t;  // item uid: (rank << 48) | per-rank sequence; 0 = none

enum class RecordKind : uint32_t {
  String = 1,
  Processor = 2,
  Memory = 3,
  Channel = 4,
  TaskKind = 5,
  Variant = 6,
  Operation = 10,
  Task = 11,
  Wait = 12,
  MetaTask = 13,
  Copy = 14,
  Instance = 15,
  DepPart = 16,
  GpuKernel = 17,
  Edge = 18,
  UserRange = 19,
  Error = 20,
  RecorderStats = 21,
  ChunkIndex = 30,  // footer only
  KindCount = 31,   // footer only
};

enum class ProcKind : uint8_t {
  Cpu = 1,
  Utility = 2,
  Io = 3,
  GpuHost = 4,
  GpuDevice = 5,
  OpenMp = 6,
  DepPart = 7,
  Profiler = 8,
  Thread = 9,   // a program thread that is not a runtime processor
  Python = 10,  // a Python interpreter processor (Legion logs)
};
enum class MemKind : uint8_t { System = 1, Framebuffer = 2, ZeroCopy = 3, Socket = 4 };
enum class ChannelKind : uint8_t {
  HostCopy = 1,
  HostToDevice = 2,
  DeviceToHost = 3,
  DeviceToDevice = 4,
  PeerToPeer = 5,
  Network = 6,
  Fill = 7,  // fills into one memory (src_memory == dst_memory)
};
enum class CopyKind : uint8_t { Copy = 1, Fill = 2, Gather = 3, Scatter = 4, Reduce = 5 };
enum class OpKind : uint8_t {
  Task = 1,
  Copy = 2,
  Fill = 3,
  Partition = 4,
  Reduction = 5,
  Collective = 6,
  Attach = 7,
  Collect = 8,  // freeing the instances of a store nobody uses any more
};
// MakeValid, FetchMetadata and External: a Legion log's critical path went
// through an index space's make_valid, an instance's fetch_metadata, or
// asynchronous work outside the task (CUDA work, say) that the precondition
// item started.
enum class EdgeKind : uint8_t {
  Data = 1,
  Anti = 2,
  Copy = 3,
  Instance = 4,
  Control = 5,
  MakeValid = 6,
  FetchMetadata = 7,
  External = 8
};
inline constexpr EdgeKind kLastEdgeKind = EdgeKind::External;
enum class ErrorKind : uint8_t { OutOfMemory = 1, Fatal = 2, Warning = 3, Signal = 4 };
enum InstanceFlags : uint8_t { kInstanceAliveAtEnd = 1 };

// Ids of processors, memories and channels: (rank << 16) | local index.
inline constexpr uint32_t make_resource_id(uint32_t rank, uint32_t local) {
  return (rank << 16) | (local & 0xffff);
}
inline constexpr uint32_t rank_of_resource(uint32_t id) {
  return id >> 16;
}
inline constexpr uint32_t kNoResource = 0xffffffff;
inline constexpr Uid make_uid(uint32_t rank, uint64_t seq) {
  return (static_cast<Uid>(rank) << 48) | (seq & 0xffffffffffffULL);
}
inline constexpr uint32_t rank_of_uid(Uid uid) {
  return static_cast<uint32_t>(uid >> 48);
}

// The name of an enumerator as `legate_prof dump` and the tools print it.
std::string_view to_string(RecordKind k);
std::string_view to_string(ProcKind k);
std::string_view to_string(MemKind k);
std::string_view to_string(ChannelKind k);
std::string_view to_string(CopyKind k);
std::string_view to_string(OpKind k);
std::string_view to_string(EdgeKind k);
std::string_view to_string(ErrorKind k);

#define LEGATO_RECORD(Type, Kind, Name)                 \
  static constexpr RecordKind kKind = RecordKind::Kind; \
  static constexpr std::string_view kName = Name;       \
  bool operator==(const Type&) const = default

// An interned string. Defined in the same chunk as its first use, or earlier.
struct StringRecord {
  LEGATO_RECORD(StringRecord, String, "string");
  uint32_t id = 0;
  std::string text;
  static constexpr auto fields() {
    return std::tuple{Field{"id", &StringRecord::id, delta()}, Field{"text", &StringRecord::text}};
  }
};

// What tools show for a string id that no string record of its file
// defines (a lost frame, a damaged record): "<string 123 undefined>".
inline std::string undefined_string_text(uint32_t id) {
  return "<string " + std::to_string(id) + " undefined>";
}

struct ProcessorRecord {
  LEGATO_RECORD(ProcessorRecord, Processor, "processor");
  uint32_t id = 0;
  ProcKind proc_kind = ProcKind::Cpu;
  uint32_t index = 0;  // per rank and kind: c0, c1, ... u0, ...
  uint32_t name = 0;
  uint32_t peer = kNoResource;  // GPU host <-> device lane of one GPU
  static constexpr auto fields() {
    using R = ProcessorRecord;
    return std::tuple{Field{"id", &R::id, delta()},
                      Field{"proc_kind", &R::proc_kind, raw(), Role::Enum},
                      Field{"index", &R::index}, Field{"name", &R::name, raw(), Role::String},
                      Field{"peer", &R::peer}};
  }
};

struct MemoryRecord {
  LEGATO_RECORD(MemoryRecord, Memory, "memory");
  uint32_t id = 0;
  MemKind mem_kind = MemKind::System;
  uint64_t capacity = 0;  // bytes
  uint32_t name = 0;
  static constexpr auto fields() {
    using R = MemoryRecord;
    return std::tuple{
        Field{"id", &R::id, delta()}, Field{"mem_kind", &R::mem_kind, raw(), Role::Enum},
        Field{"capacity", &R::capacity}, Field{"name", &R::name, raw(), Role::String}};
  }
};

struct ChannelRecord {
  LEGATO_RECORD(ChannelRecord, Channel, "channel");
  uint32_t id = 0;
  ChannelKind channel_kind = ChannelKind::HostCopy;
  uint32_t src_memory = 0;
  uint32_t dst_memory = 0;
  uint32_t name = 0;
  static constexpr auto fields() {
    using R = ChannelRecord;
    return std::tuple{Field{"id", &R::id, delta()},
                      Field{"channel_kind", &R::channel_kind, raw(), Role::Enum},
                      Field{"src_memory", &R::src_memory}, Field{"dst_memory", &R::dst_memory},
                      Field{"name", &R::name, raw(), Role::String}};
  }
};

struct TaskKindRecord {
  LEGATO_RECORD(TaskKindRecord, TaskKind, "task_kind");
  uint32_t id = 0;
  uint32_t name = 0;
  static constexpr auto fields() {
    using R = TaskKindRecord;
    return std::tuple{Field{"id", &R::id, delta()}, Field{"name", &R::name, raw(), Role::String}};
  }
};

struct VariantRecord {
  LEGATO_RECORD(VariantRecord, Variant, "variant");
  uint32_t task_kind = 0;
  uint32_t id = 0;
  ProcKind proc_kind = ProcKind::Cpu;
  uint32_t name = 0;
  static constexpr auto fields() {
    using R = VariantRecord;
    return std::tuple{Field{"task_kind", &R::task_kind}, Field{"id", &R::id},
                      Field{"proc_kind", &R::proc_kind, raw(), Role::Enum},
                      Field{"name", &R::name, raw(), Role::String}};
  }
};

// One operation issued by the program (an array API call, a copy, ...).
struct OperationRecord {
  LEGATO_RECORD(OperationRecord, Operation, "operation");
  Uid uid = 0;
  Uid parent = 0;
  OpKind op_kind = OpKind::Task;
  uint32_t task_kind = 0;  // 0 unless op_kind is Task
  uint32_t name = 0;
  uint32_t provenance = 0;  // "file:line" of the user's call
  static constexpr auto fields() {
    using R = OperationRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"parent", &R::parent, delta(), Role::Item},
                      Field{"op_kind", &R::op_kind, raw(), Role::Enum},
                      Field{"task_kind", &R::task_kind},
                      Field{"name", &R::name, raw(), Role::String},
                      Field{"provenance", &R::provenance, raw(), Role::String}};
  }
};

// A point task on a processor. Columns: start is predicted by the previous
// row's stop (the gap), stop/ready by start, create by ready.
struct TaskRecord {
  LEGATO_RECORD(TaskRecord, Task, "task");
  Uid uid = 0;
  Uid op = 0;
  uint32_t processor = 0;
  uint32_t task_kind = 0;
  uint32_t variant = 0;
  Time start = 0, stop = 0, ready = 0, create = 0;
  static constexpr auto fields() {
    using R = TaskRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"op", &R::op, delta(), Role::Item},
                      Field{"processor", &R::processor, delta()},
                      Field{"task_kind", &R::task_kind},
                      Field{"variant", &R::variant},
                      Field{"start", &R::start, prev_row(6), Role::Time},
                      Field{"stop", &R::stop, same_row(5), Role::Time},
                      Field{"ready", &R::ready, same_row(5), Role::Time},
                      Field{"create", &R::create, same_row(7), Role::Time}};
  }
};

// A task blocked between start and end, waiting for `event`; ready is when
// the event triggered (the task could resume).
struct WaitRecord {
  LEGATO_RECORD(WaitRecord, Wait, "wait");
  Uid task = 0;
  Time start = 0, ready = 0, end = 0;
  Uid event = 0;
  static constexpr auto fields() {
    using R = WaitRecord;
    return std::tuple{Field{"task", &R::task, delta(), Role::Item},
                      Field{"start", &R::start, delta(), Role::Time},
                      Field{"ready", &R::ready, same_row(1), Role::Time},
                      Field{"end", &R::end, same_row(2), Role::Time},
                      Field{"event", &R::event, same_row(0), Role::Item}};
  }
};

// Runtime work on a utility (or other) processor: dependence analysis,
// mapping, instance collection... `meta_kind` is a string id.
struct MetaTaskRecord {
  LEGATO_RECORD(MetaTaskRecord, MetaTask, "meta_task");
  Uid uid = 0;
  uint32_t processor = 0;
  uint32_t meta_kind = 0;
  Uid op = 0;  // the operation served; 0 = none
  Time start = 0, stop = 0, ready = 0, create = 0;
  static constexpr auto fields() {
    using R = MetaTaskRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"processor", &R::processor, delta()},
                      Field{"meta_kind", &R::meta_kind, raw(), Role::String},
                      Field{"op", &R::op, delta(), Role::Item},
                      Field{"start", &R::start, prev_row(5), Role::Time},
                      Field{"stop", &R::stop, same_row(4), Role::Time},
                      Field{"ready", &R::ready, same_row(4), Role::Time},
                      Field{"create", &R::create, same_row(6), Role::Time}};
  }
};

// A copy or fill on a channel. Fills have no source instance.
struct CopyRecord {
  LEGATO_RECORD(CopyRecord, Copy, "copy");
  Uid uid = 0;
  Uid op = 0;
  uint32_t channel = 0;
  CopyKind copy_kind = CopyKind::Copy;
  uint64_t bytes = 0;
  Uid src_instance = 0, dst_instance = 0;
  Time start = 0, stop = 0, ready = 0, create = 0;
  static constexpr auto fields() {
    using R = CopyRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"op", &R::op, delta(), Role::Item},
                      Field{"channel", &R::channel, delta()},
                      Field{"copy_kind", &R::copy_kind, raw(), Role::Enum},
                      Field{"bytes", &R::bytes},
                      Field{"src_instance", &R::src_instance, delta(), Role::Item},
                      Field{"dst_instance", &R::dst_instance, delta(), Role::Item},
                      Field{"start", &R::start, prev_row(8), Role::Time},
                      Field{"stop", &R::stop, same_row(7), Role::Time},
                      Field{"ready", &R::ready, same_row(7), Role::Time},
                      Field{"create", &R::create, same_row(9), Role::Time}};
  }
};

// A physical instance of a store in a memory: created (allocation requested),
// ready (allocated and usable), destroyed.
struct InstanceRecord {
  LEGATO_RECORD(InstanceRecord, Instance, "instance");
  Uid uid = 0;
  uint32_t memory = 0;
  Uid op = 0;  // the operation that created it
  uint64_t bytes = 0;
  uint64_t store = 0;
  uint32_t name = 0;        // the store's name, e.g. "b"
  uint32_t provenance = 0;  // where the store was allocated, "file:line"
  Time create = 0, ready = 0, destroy = 0;
  uint8_t flags = 0;  // InstanceFlags
  static constexpr auto fields() {
    using R = InstanceRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"memory", &R::memory, delta()},
                      Field{"op", &R::op, delta(), Role::Item},
                      Field{"bytes", &R::bytes},
                      Field{"store", &R::store, delta()},
                      Field{"name", &R::name, raw(), Role::String},
                      Field{"provenance", &R::provenance, raw(), Role::String},
                      Field{"create", &R::create, delta(), Role::Time},
                      Field{"ready", &R::ready, same_row(7), Role::Time},
                      Field{"destroy", &R::destroy, same_row(8), Role::Time},
                      Field{"flags", &R::flags}};
  }
};

// A dependent-partitioning operation (e.g. computing nonzero indices).
struct DepPartRecord {
  LEGATO_RECORD(DepPartRecord, DepPart, "dep_part");
  Uid uid = 0;
  Uid op = 0;
  uint32_t processor = 0;
  uint32_t part_kind = 0;  // string id
  Time start = 0, stop = 0, ready = 0, create = 0;
  static constexpr auto fields() {
    using R = DepPartRecord;
    return std::tuple{Field{"uid", &R::uid, delta(), Role::Item},
                      Field{"op", &R::op, delta(), Role::Item},
                      Field{"processor", &R::processor, delta()},
                      Field{"part_kind", &R::part_kind, raw(), Role::String},
                      Field{"start", &R::start, prev_row(5), Role::Time},
                      Field{"stop", &R::stop, same_row(4), Role::Time},
                      Field{"ready", &R::ready, same_row(4), Role::Time},
                      Field{"create", &R::create, same_row(6), Role::Time}};
  }
};

// A GPU kernel's device execution, linked to the task that launched it.
struct GpuKernelRecord {
  LEGATO_RECORD(GpuKernelRecord, GpuKernel, "gpu_kernel");
  Uid task = 0;
  uint32_t processor = 0;  // the GPU device lane
  uint32_t name = 0;
  uint32_t stream = 0;
  Time start = 0, stop = 0;
  static constexpr auto fields() {
    using R = GpuKernelRecord;
    return std::tuple{Field{"task", &R::task, delta(), Role::Item},
                      Field{"processor", &R::processor, delta()},
                      Field{"name", &R::name, raw(), Role::String},
                      Field{"stream", &R::stream},
                      Field{"start", &R::start, prev_row(5), Role::Time},
                      Field{"stop", &R::stop, same_row(4), Role::Time}};
  }
};

// `item` could not start before `precondition` finished.
struct EdgeRecord {
  LEGATO_RECORD(EdgeRecord, Edge, "edge");
  Uid item = 0;
  Uid precondition = 0;
  EdgeKind edge_kind = EdgeKind::Data;
  static constexpr auto fields() {
    using R = EdgeRecord;
    return std::tuple{Field{"item", &R::item, delta(), Role::Item},
                      Field{"precondition", &R::precondition, same_row(0), Role::Item},
                      Field{"edge_kind", &R::edge_kind, raw(), Role::Enum}};
  }
};

// A range the user (or a library) marked by name on a processor.
struct UserRangeRecord {
  LEGATO_RECORD(UserRangeRecord, UserRange, "user_range");
  uint32_t processor = 0;
  uint32_t name = 0;
  uint32_t provenance = 0;
  Time start = 0, stop = 0;
  static constexpr auto fields() {
    using R = UserRangeRecord;
    return std::tuple{Field{"processor", &R::processor, delta()},
                      Field{"name", &R::name, raw(), Role::String},
                      Field{"provenance", &R::provenance, raw(), Role::String},
                      Field{"start", &R::start, delta(), Role::Time},
                      Field{"stop", &R::stop, same_row(3), Role::Time}};
  }
};

// A marker for a failure: out of memory (with the whole report as text), a
// fatal error, a warning, or a signal that ended the process.
struct ErrorRecord {
  LEGATO_RECORD(ErrorRecord, Error, "error");
  Time time = 0;
  ErrorKind error_kind = ErrorKind::Fatal;
  Uid op = 0;
  uint32_t resource = kNoResource;  // the memory or processor concerned
  uint32_t text = 0;
  static constexpr auto fields() {
    using R = ErrorRecord;
    return std::tuple{Field{"time", &R::time, delta(), Role::Time},
                      Field{"error_kind", &R::error_kind, raw(), Role::Enum},
                      Field{"op", &R::op, raw(), Role::Item}, Field{"resource", &R::resource},
                      Field{"text", &R::text, raw(), Role::String}};
  }
};

// The recorder's own counters at `time` (cumulative since start).
struct RecorderStatsRecord {
  LEGATO_RECORD(RecorderStatsRecord, RecorderStats, "recorder_stats");
  Time time = 0;
  uint64_t records = 0;
  uint64_t dropped = 0;
  uint64_t flushes = 0;
  uint64_t bytes = 0;
  uint64_t wait_ns = 0;  // producers' time spent waiting for a free buffer
  static constexpr auto fields() {
    using R = RecorderStatsRecord;
    return std::tuple{
        Field{"time", &R::time, delta(), Role::Time}, Field{"records", &R::records, delta()},
        Field{"dropped", &R::dropped, delta()},       Field{"flushes", &R::flushes, delta()},
        Field{"bytes", &R::bytes, delta()},           Field{"wait_ns", &R::wait_ns, delta()}};
  }
};

// Footer: where each frame of the file starts.
struct ChunkIndexRecord {
  LEGATO_RECORD(ChunkIndexRecord, ChunkIndex, "chunk_index");
  uint64_t offset = 0;
  uint8_t frame_type = 0;
  uint32_t sequence = 0;
  uint32_t records = 0;
  uint32_t stored_size = 0;
  Time t_min = 0, t_max = 0;
  static constexpr auto fields() {
    using R = ChunkIndexRecord;
    return std::tuple{Field{"offset", &R::offset, delta()},
                      Field{"frame_type", &R::frame_type},
                      Field{"sequence", &R::sequence, delta()},
                      Field{"records", &R::records},
                      Field{"stored_size", &R::stored_size},
                      Field{"t_min", &R::t_min, delta(), Role::Time},
                      Field{"t_max", &R::t_max, same_row(5), Role::Time}};
  }
};

// Footer: how many records of each kind the file holds.
struct KindCountRecord {
  LEGATO_RECORD(KindCountRecord, KindCount, "kind_count");
  uint32_t record_kind = 0;
  uint64_t count = 0;
  static constexpr auto fields() {
    using R = KindCountRecord;
    return std::tuple{Field{"record_kind", &R::record_kind}, Field{"count", &R::count}};
  }
};

#undef LEGATO_RECORD

// Every record kind this version knows, in kind order.
using AllRecordTypes =
    std::tuple<StringRecord, ProcessorRecord, MemoryRecord, ChannelRecord, TaskKindRecord,
               VariantRecord, OperationRecord, TaskRecord, WaitRecord, MetaTaskRecord, CopyRecord,
               InstanceRecord, DepPartRecord, GpuKernelRecord, EdgeRecord, UserRangeRecord,
               ErrorRecord, RecorderStatsRecord, ChunkIndexRecord, KindCountRecord>;

template <class F>
constexpr void for_each_record_type(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f(std::type_identity<std::tuple_element_t<I, AllRecordTypes>>{}), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<AllRecordTypes>>{});
}

}  // namespace legato::trace
