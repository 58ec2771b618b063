// The conversion of one Legion log's tables (LogData) into Legato records,
// internal to legion_import/: convert.cpp holds the machine, names,
// operations and processor items; convert_links.cpp the waits and call
// nesting, instances, channels and the critical path.
#pragma once

#include <charconv>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "legion_import/critical_path.hpp"
#include "legion_import/id_map.hpp"
#include "legion_import/import.hpp"

namespace legato::legion::detail {

using trace::Time;
using trace::Uid;

// Local parts of resource ids (trace::make_resource_id(node, local)): a
// processor's is its Realm index (0..0xfff), the others lie above.
constexpr uint32_t kDeviceLane = 0x1000;   // + GPU index: its device lane
constexpr uint32_t kMemoryLane = 0x2000;   // + memory index (+ 0x100 for IB memories)
constexpr uint32_t kDepPartLane = 0x3000;  // the node's dependent-partitioning lane
constexpr uint32_t kChannelLane = 0x4000;  // + channel sequence
constexpr uint32_t kMaxChannels = 0xbfff;
// Item uids of items without an event of their own (calls, prof tasks)
// carry this bit, which Realm event ids never set in the uid's sequence.
constexpr uint64_t kSyntheticBit = uint64_t{1} << 47;

// Item uids from Realm event ids, so that items of different nodes' files
// refer to each other: the creator node and the event's own bits (LEGION_FORMAT.md §3).
inline Uid event_uid(uint64_t e) {
  if (e == 0) return 0;
  if (e >> 63)
    return trace::make_uid(static_cast<uint32_t>((e >> 47) & 0xffff), e & (kSyntheticBit - 1));
  // Barriers and other ids: node in 59..44.
  return trace::make_uid(static_cast<uint32_t>((e >> 44) & 0xffff),
                         kSyntheticBit | (uint64_t{1} << 46) | (e & ((uint64_t{1} << 44) - 1)));
}

inline Time to_time(uint64_t t) {
  return t > static_cast<uint64_t>(std::numeric_limits<Time>::max())
             ? std::numeric_limits<Time>::max()
             : static_cast<Time>(t);
}

// Writes "0x" and v in lowercase hex at `at` (room for 18 characters);
// returns the end.
inline char* write_hex(char* at, uint64_t v) {
  *at++ = '0';
  *at++ = 'x';
  return std::to_chars(at, at + 16, v, 16).ptr;
}
inline std::string hex(uint64_t v) {
  char buf[18];
  return std::string(buf, write_hex(buf, v));
}

// Adds the critical-path edges of files whose links are pending, resolved
// over all of them together.
void resolve_links(const std::vector<analysis::RankTrace*>& files);

class Converter {
 public:
  Converter(LogData& d, analysis::RankTrace& t) : d_(d), t_(t) {}
  // Every step, in order: each fills part of the trace's records.
  void run();

 private:
  uint32_t str(std::string_view s);  // the file's string id of s (0 for "")
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

  // One pass over the processor items before the steps: what names(),
  // operations(), message_latencies() and waits() would otherwise each
  // find in a pass of their own.
  struct Survey {
    std::vector<uint32_t> task_ids;  // of the tasks, sorted, unique
    IdMap<uint32_t> task_of_op;      // op -> task_id: the first task naming it
    std::vector<size_t> messages;    // items that are messages with a spawn time
    std::vector<size_t> calls;       // calls with an fevent (they nest in its item)
    // Tasks and meta tasks whose (meta, op, kind) some wait names.
    struct Candidate {
      uint64_t op;
      uint32_t kind;
      bool meta;
      uint64_t start, stop;
      size_t item;
    };
    HugeVector<Candidate> candidates;
  };
  void survey();

  // convert.cpp
  void processors();
  void memories();
  std::string task_name(uint32_t task_id) const;
  // Every task id gets a name: its TaskKind's, else "task <id>".
  void names();
  void operations();
  std::string item_name(const ProcItem& it) const;
  // The string id of item_name(it), looked up once per source and kind.
  uint32_t item_name_id(const ProcItem& it);
  void items();

  // convert_links.cpp
  // legion_prof's check: a message's spawn is stamped on the sending node,
  // so slow messages show network trouble or clocks that disagree.
  void message_latencies();
  // Recorded waits go to the task or meta task that waited and to each of
  // its calls (nested in it by fevent) that contains the wait; calls are
  // not waits of what they nest in (LEGION_FORMAT.md §6).
  void waits();
  void add_wait(size_t item, uint64_t start, uint64_t ready, uint64_t end, uint64_t event);
  void instances();
  std::string mem_label(uint64_t mem) const;
  // The channel of copies of this kind from src to dst (named when first used).
  uint32_t channel(trace::CopyKind copy, uint64_t src, uint64_t dst);
  trace::ChannelKind copy_channel_kind(uint64_t src, uint64_t dst) const;
  // Copies and fills go on channels chosen by their CopyInstInfo /
  // FillInstInfo (one item per run of the same src, dst and indirection;
  // none without any), partitions on the node's dependent-partitioning lane.
  void channels();
  // The critical path's inputs, in t_.legion_links (resolve_links).
  void links();

  LogData& d_;
  analysis::RankTrace& t_;
  uint32_t node_ = 0;
  uint64_t next_synthetic_ = 0;
  std::unordered_map<std::string_view, uint32_t> strings_;  // views t_.strings' texts
  std::unordered_map<uint64_t, std::string> mem_name_;
  std::unordered_map<uint64_t, bool> mem_device_;
  Survey survey_;
  IdSet seen_events_;                 // fevents that gave an item its uid
  std::shared_ptr<PathInputs> path_;  // the critical path's inputs (items(), links())
  IdMap<uint32_t> item_names_;        // Source << 32 | kind -> string id
  std::vector<Uid> uids_;             // per d_.items
  std::vector<Uid> channel_uids_;     // per d_.channel_items; 0: not drawn
  // (copy kind, src, dst): a gather or scatter between two memories is not
  // their direct copies' channel.
  std::map<std::tuple<int, uint64_t, uint64_t>, uint32_t> channels_;
};

}  // namespace legato::legion::detail
