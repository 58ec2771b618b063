// The profile model: every rank's trace loaded into lanes of time-sorted,
// compact items that the desktop viewer, the HTML report and the command-line
// tools all read. Nothing outside analysis/ parses trace files.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/huge_pages.hpp"
#include "trace_format/records.hpp"

namespace legato::analysis {

using trace::Time;
using trace::Uid;

inline constexpr uint32_t kNone = 0xffffffff;
inline constexpr uint32_t kFoldBlock = 32;    // items per fold_blocks and lead_blocks entry
inline constexpr uint32_t kLeadGroup = 1024;  // items per lead_groups entry (32 fold blocks)

// Times in the model lie within +-kTimeLimit ns (52 days) of the run's zero,
// so differences and sums of a few never overflow; the loader clamps
// (damaged) times beyond it.
inline constexpr Time kTimeLimit = Time{1} << 52;
inline Time saturating_add(Time a, Time b) {
  Time r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

// What a lane shows. Processors first, then memories, then channels; the
// order is the order kinds are listed under a node.
enum class LaneKind : uint8_t {
  Cpu,
  GpuDevice,
  GpuHost,
  Utility,
  Io,
  OpenMp,
  Python,
  DepPart,
  Profiler,
  Thread,
  SystemMemory,
  Framebuffer,
  ZeroCopy,
  SocketMemory,
  Channel,
  Count,  // not a kind: the number of kinds above; stays last
};
inline constexpr int kLaneKinds = static_cast<int>(LaneKind::Count);
// "CPU", "GPU Device", "Utility", "Zero-Copy", ...
std::string_view to_string(LaneKind k);
inline bool is_memory(LaneKind k) {
  return k >= LaneKind::SystemMemory && k <= LaneKind::SocketMemory;
}

enum class ItemKind : uint8_t {
  Task,
  MetaTask,
  Copy,
  Fill,
  Instance,
  DepPart,
  GpuKernel,
  UserRange  // the last: kItemKinds counts up to it
};
inline constexpr int kItemKinds = static_cast<int>(ItemKind::UserRange) + 1;
static_assert(kItemKinds <= 8, "Item::kind holds an ItemKind in 3 bits");
std::string_view to_string(ItemKind k);
// "reduction copy", "gather copy", "scatter copy"; empty for plain copies
// and fills (named by their ItemKind).
std::string_view copy_kind_name(trace::CopyKind k);

// String indices an item's name can hold (Item::name is 26 bits); the
// loader names items past that many distinct strings with a placeholder.
inline constexpr uint32_t kMaxStrings = uint32_t{1} << 26;
enum ItemFlags : uint8_t { kItemHasWaits = 1, kItemAliveAtEnd = 2, kItemLongSpan = 4 };

namespace detail {
class Builder;
}
struct CopyInfo;

// A T stored byte by byte, so that the compact tables below (Item,
// Precondition) need no padding and no packed attribute. It reads and
// writes as a T, but no T& can bind to it, since such a reference would be
// misaligned: std::min(t, item.start) does not compile; write
// std::min<Time>(t, item.start).
template <class T>
class Unaligned {
 public:
  constexpr Unaligned(T v = T{})  // NOLINT: converts from T, as a T field would
      : bytes_(std::bit_cast<Bytes>(v)) {}
  constexpr operator T() const { return std::bit_cast<T>(bytes_); }  // NOLINT: reads as a T

 private:
  using Bytes = std::array<unsigned char, sizeof(T)>;
  Bytes bytes_;
};

// One interval on a lane, in 28 bytes: the model holds one per task,
// meta-task, call, copy, instance and kernel. Instances span
// create..destroy (their allocation time, ready - create, is kept in the
// instance table). ready_of() and create_of() give an item's ready and
// create times.
//
// The item keeps its start and the low 32 bits of its duration. An item of
// 2^32 ns (4.3 s) or longer is flagged kItemLongSpan: to_ready then holds
// the duration's high bits and its ready and create times are in
// Profile::timing_overflow. set_span() is the one way to set the times.
struct Item {
  Unaligned<Time> start = 0;
  uint32_t span_lo = 0;    // the duration's low 32 bits; read stop() or duration()
  uint32_t name : 26 = 0;  // string index: task kind, meta-task kind, store name, ...
  ItemKind kind : 3 = ItemKind::Task;
  uint32_t flags : 3 = 0;  // ItemFlags
  uint32_t op = kNone;     // index into Profile::operations
  // start - ready, saturated at kSaturated (exact value in timing_overflow);
  // the duration's high bits for a kItemLongSpan item.
  uint32_t to_ready = 0;

  Time duration() const {
    const uint64_t high = (flags & kItemLongSpan) ? uint64_t{to_ready} << 32 : 0;
    return static_cast<Time>(high | span_lo);
  }
  Time stop() const { return start + duration(); }
  // Every field alike (the private one too).
  bool operator==(const Item&) const = default;
  // Sets start and stop (stop >= start) of an item being staged: the
  // builder then sets to_ready, or keeps a long item's ready and create
  // times in the overflow table.
  void set_span(Time first, Time last) {
    start = first;
    const auto d = static_cast<uint64_t>(last - first);
    span_lo = static_cast<uint32_t>(d);
    if (d >> 32) {
      flags |= kItemLongSpan;
      to_ready = static_cast<uint32_t>(d >> 32);
    } else {
      flags &= ~uint32_t{kItemLongSpan};
    }
  }

 private:
  // The model's own (its builder writes it, Profile reads it): per kind,
  // copies and fills, instances, kernels: the index into the table of
  // their kind (Profile::copy_of, instance_of, kernel_of); user ranges: the
  // provenance string (Profile::range_provenance); tasks, meta-tasks and
  // dependent partitions: ready - create (Profile::create_of).
  uint32_t extra = kNone;
  friend class detail::Builder;
  friend struct Profile;

  // Where an item's ready - create is kept: extra for tasks, meta-tasks
  // and dependent partitions, its copy's entry for copies and fills; null
  // for the others, whose ready - create is always 0 (instances, kernels,
  // user ranges: ready and create are their start). Const or not as `it`
  // and `copies` are.
  template <class ItemT, class Copies>
  static auto to_create_slot(ItemT& it, Copies& copies) -> decltype(&it.extra) {
    switch (it.kind) {
      case ItemKind::Task:
      case ItemKind::MetaTask:
      case ItemKind::DepPart:
        return &it.extra;
      case ItemKind::Copy:
      case ItemKind::Fill:
        return &copies[it.extra].to_create;
      default:
        return nullptr;
    }
  }
};
static_assert(sizeof(Item) == 28);
inline constexpr uint32_t kSaturated = 0xffffffff;
// Whether an item's ready and create times are in Profile::timing_overflow.
inline bool has_timing_overflow(const Item& it) {
  return it.to_ready == kSaturated || (it.flags & kItemLongSpan);
}
// 24 bytes: the name's string index and the kind share one word.
struct Operation {
  Uid uid = 0;
  uint32_t parent = kNone;  // the operation that issued it
  uint32_t name : 27 = 0;
  trace::OpKind kind : 5 = trace::OpKind::Task;
  uint32_t provenance = 0;
  uint32_t last_meta = kNone;  // the runtime work for it (mapping...) that finished last
};
static_assert(sizeof(Operation) == 24);

struct CopyInfo {
  uint64_t bytes = 0;
  uint32_t src_instance = kNone, dst_instance = kNone;  // item indices
  trace::CopyKind kind = trace::CopyKind::Copy;
  uint32_t to_create = 0;  // ready - create; kSaturated where the item's times overflow
};
struct InstanceInfo {
  uint64_t bytes = 0;
  uint64_t store = 0;
  Time ready = 0;
  uint32_t provenance = 0;
};
struct KernelInfo {
  uint32_t task = kNone;  // the launching task (item index)
  uint32_t stream = 0;
};

// A task blocked from start to end; it could resume at ready.
struct Wait {
  uint32_t item = 0;
  uint32_t event = kNone;  // the item it waited for, when known
  Time start = 0, ready = 0, end = 0;
};

// Why an item could not start earlier: an edge to another item, or the
// runtime work (dependence analysis, mapping) that prepared it.
// Six bytes per edge instead of eight.
struct Precondition {
  Unaligned<uint32_t> item = 0;
  uint8_t kind = 0;  // trace::EdgeKind, or kMappedBy
  uint8_t at = 0;    // recorded edges: the waiting item's place in its block (Profile::pre_block)
};
static_assert(sizeof(Precondition) == 6);
// Recorded edges are indexed per block of this many items.
inline constexpr uint32_t kPreBlock = 64;
inline constexpr uint8_t kMappedBy = 0;

// Overlapping items of a lane stack into rows; within a row items are sorted
// by start and do not overlap, so their stops are sorted too.
struct Row {
  uint32_t begin = 0, end = 0;  // item indices
};

struct Lane {
  LaneKind kind = LaneKind::Cpu;
  uint32_t rank = 0;
  uint32_t resource = trace::kNoResource;  // processor, memory or channel id
  std::string name;                        // "c0", "u1", "sysmem", "sysmem -> fbmem"
  uint64_t capacity = 0;                   // memories: bytes
  // Memories: whether the trace gave the capacity. One whose descriptor
  // gives none (a Legion log's capacity 0, a GPU's dynamic pool) is drawn
  // against the bytes of all its instances, as legion_prof draws it, and no
  // rule judges how full it is; one never described has capacity 0.
  bool capacity_given = false;
  uint32_t begin = 0, end = 0;  // item indices, rows in order
  std::vector<Row> rows;
};

// node (rank) -> kind -> lanes
struct KindGroup {
  LaneKind kind = LaneKind::Cpu;
  std::vector<uint32_t> lanes;
};
struct Node {
  uint32_t rank = 0;
  std::string host;
  std::vector<KindGroup> kinds;
};

struct RankInfo {
  uint32_t rank = 0;
  std::string file;
  std::string host;
  nlohmann::json metadata;
  Time clock_shift = 0;  // added to this rank's times to align them with rank 0
  bool finished_cleanly = true;
  uint64_t records = 0;
  uint64_t dropped = 0;  // records the recorder dropped (drop mode)
};

struct ErrorMark {
  Time time = 0;
  uint32_t rank = 0;
  trace::ErrorKind kind = trace::ErrorKind::Fatal;
  uint32_t op = kNone;
  uint32_t lane = kNone;
  uint32_t text = 0;
};

// A stretch of a node's time whose records were lost to damage (a corrupt
// frame, missing frames): drawn as such, never as idle time.
struct LostSpan {
  uint32_t rank = 0;  // the node, as lanes name it (RankInfo::rank)
  Time from = 0, to = 0;
  uint64_t records = 0;  // records the lost frames claimed (0: unknown)
  std::string why;
};

struct Profile {
  std::vector<std::string> strings{""};  // index 0 is the empty string
  // Grouped by lane, then row, then start. Resizing leaves new items
  // uninitialized (the loader writes every one).
  base::UninitializedVector<Item> items;
  std::vector<Lane> lanes;
  std::vector<Node> nodes;
  std::vector<Operation> operations;
  std::vector<CopyInfo> copies;
  std::vector<InstanceInfo> instances;
  std::vector<KernelInfo> kernels;
  std::vector<Wait> waits;  // sorted by item
  // Text some waits carry (an imported Legion log's backtrace of where the
  // item waited): wait index and string, sorted by wait index.
  std::vector<std::pair<uint32_t, uint32_t>> wait_notes;
  // GPU kernels named by their short names (kernel_names.hpp): short name
  // and whole signature, as string ids, sorted by short name.
  std::vector<std::pair<uint32_t, uint32_t>> kernel_signatures;
  std::vector<RankInfo> ranks;
  std::vector<ErrorMark> errors;
  std::vector<LostSpan> lost;         // by rank, then time
  std::vector<std::string> warnings;  // problems found while loading, one line each
  // Files given that could not be read at all, or only in part (a corrupt
  // frame, a file cut inside a frame); also reported in warnings. What the
  // command-line tools' exit status says.
  std::vector<std::string> incomplete_files;
  std::string run_id;
  std::string program;
  int64_t ranks_expected = 1;
  // Ranks of the run left out on purpose (view --nodes), ascending.
  std::vector<int64_t> ranks_left_out;
  Time start = 0, stop = 0;  // the span of everything recorded
  uint64_t records = 0;      // records read from the files
  // The part of the run loaded on purpose (view --range): the items
  // recorded beside those in [from, to] (a frame's, or a slice of a file's
  // tables), the others left out, with the edges and waits naming them.
  // origin: the run's start (its first item), the zero of the range.
  struct Window {
    Time origin = 0, from = 0, to = 0;
    uint64_t items_left_out = 0;
  };
  std::optional<Window> window;

  // Preconditions of an item: its recorded edges, then (kMappedBy) the
  // runtime work that prepared it, derived rather than stored.
  template <class F>
  void for_each_precondition(uint32_t item, F&& f) const {
    const auto [first, last] = recorded_preconditions(item);
    for (const Precondition* c = first; c != last; ++c) f(*c);
    if (const uint32_t m = mapped_by(item); m != kNone) f(Precondition{m, kMappedBy});
  }
  // An item's recorded edges, in record order.
  std::pair<const Precondition*, const Precondition*> recorded_preconditions(uint32_t item) const;
  // The meta-task of its operation that finished last, if that was before
  // the item started (tasks, copies, fills; not meta-tasks or instances).
  uint32_t mapped_by(uint32_t item) const {
    const Item& it = items[item];
    if (it.op == kNone || it.kind == ItemKind::MetaTask || it.kind == ItemKind::Instance)
      return kNone;
    const uint32_t meta = operations[it.op].last_meta;
    return meta != kNone && items[meta].stop() <= it.start ? meta : kNone;
  }
  // Whether item i folds with the item before it when drawn: its duration or
  // its gap after that item, whichever is larger (fold_blocks).
  Time fold_key(uint32_t i) const {
    const Time d = items[i].duration();
    return i == 0 ? d : std::max(d, items[i].start - items[i - 1].stop());
  }
  const std::string& str(uint32_t id) const { return strings[id]; }
  // What to call an item: its name, else its operation's, else its kind.
  std::string label(uint32_t item) const;
  // Its kind in words: to_string(ItemKind), a copy's more exactly
  // (copy_kind_name).
  std::string_view kind_name(uint32_t item) const;
  // "Node 1 (host, clock ±2.500 us)": where a node ran and, for the ranks of
  // a multi-rank run, how well its clock was aligned to rank 0's.
  std::string node_label(const Node& n) const;
  uint32_t lane_of(uint32_t item) const;
  uint32_t row_of(uint32_t lane, uint32_t item) const;
  Time ready_of(uint32_t item) const;
  Time create_of(uint32_t item) const;
  // An item's entry in the table of its kind; null for an item of another
  // kind (and for an instance the model has no entry for).
  const CopyInfo* copy_of(const Item& it) const {
    return it.kind == ItemKind::Copy || it.kind == ItemKind::Fill ? &copies[it.extra] : nullptr;
  }
  const InstanceInfo* instance_of(const Item& it) const {
    return it.kind == ItemKind::Instance && it.extra != kNone ? &instances[it.extra] : nullptr;
  }
  const KernelInfo* kernel_of(const Item& it) const {
    return it.kind == ItemKind::GpuKernel ? &kernels[it.extra] : nullptr;
  }
  // A user range's provenance (string id); 0 for other items.
  uint32_t range_provenance(const Item& it) const {
    return it.kind == ItemKind::UserRange ? it.extra : 0;
  }
  // The waits of an item, in time order.
  std::pair<const Wait*, const Wait*> waits_of(uint32_t item) const;
  // The whole signature of a kernel named `name` by its short name, 0 for none.
  uint32_t kernel_signature(uint32_t name) const;
  // The string id of a wait's note (wait_notes), 0 for none.
  uint32_t wait_note(const Wait* w) const;
  // Total duration of items [begin, end) (contiguous indices), in O(1).
  Time busy_between(uint32_t begin, uint32_t end) const;
  // Bytes the model holds (items, lanes, tables, strings, indexes).
  size_t memory_bytes() const;

  // Indexes the loader fills.
  std::vector<Precondition> pre;    // recorded edges, by item
  std::vector<uint32_t> pre_block;  // per block of kPreBlock items, and one past: its first edge
  std::vector<Time> busy_blocks;    // busy_blocks[k]: total duration of items [0, 16 k)
  // fold_blocks[k]: over items [32 k, 32 k + 32), the largest of each item's
  // duration and gap after the item before it, rounded up; lets drawing skip
  // runs of tiny items that fold into one box without reading them.
  std::vector<float> fold_blocks;
  // What folded items ran (fold_summary.hpp): lead_blocks[k] is the offset
  // in items [32 k, 32 k + 32) of the first item of the name and kind that
  // weighs most there; lead_groups[g] the offset in items [1024 g, 1024 g +
  // 1024) of the lead of its blocks' leads, each weighing its block's weight.
  std::vector<uint8_t> lead_blocks;
  std::vector<uint16_t> lead_groups;
  std::unordered_map<uint32_t, std::pair<Time, Time>> timing_overflow;  // item -> ready, create
};

}  // namespace legato::analysis
