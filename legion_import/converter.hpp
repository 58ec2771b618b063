// The conversion of one Legion log's tables (LogData) into Legato records,
// internal to legion_import/: convert.cpp holds the machine, names,
// operations and processor items; convert_links.cpp the waits and call
// nesting, instances, channels and the critical path.
#pragma once

#include <charconv>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/id_map.hpp"
#include "base/prefetch.hpp"
#include "legion_import/critical_path.hpp"
#include "legion_import/header.hpp"
#include "legion_import/import.hpp"
#include "legion_import/legato_ids.hpp"
#include "legion_import/run_links.hpp"

namespace legato::legion::detail {

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

// Legion's provenance strings are "human-readable$machine-readable"
// (Legate: "prog.py:130$OpCode,ADD|Provenance,prog.py:130"): the part a
// user reads, as legion_prof shows it.
inline std::string_view readable_provenance(std::string_view text) {
  const size_t dollar = text.find('$');
  return dollar == std::string_view::npos || dollar == 0 ? text : text.substr(0, dollar);
}

// Starts loading the fields of a task or meta task record that a later
// step reads: the record is at most 64 bytes, so they lie on its first line
// and its stop's. Always inlined, or the prefetches are dropped
// (base::IdMap::prefetch).
template <class R>
[[gnu::always_inline]] inline void prefetch_record(const R& r) {
  base::prefetch(&r);
  base::prefetch(&r.stop);
}

class Converter {
 public:
  Converter(LogData& d, analysis::RankTrace& t) : d_(d), t_(t) {}
  // Every step, in order: each fills part of the trace's records.
  void run();

 private:
  uint32_t str(std::string_view s);  // the file's string id of s (0 for "")
  // A new string id for s, not looked up: for texts that cannot repeat
  // (should one, the model merges equal texts of all files anyway).
  uint32_t new_str(std::string_view s);
  Uid synthetic_uid() { return legion::synthetic_uid(node_, next_synthetic_++); }
  uint32_t mem_res(uint64_t mem) const {
    const uint32_t ib = (mem >> 56) == 0x1a ? 0x100 : 0;
    return trace::make_resource_id(node_of_mem(mem), kMemoryLane | ib | index_of_mem(mem));
  }
  template <class R>
  std::vector<R>& out() {
    return t_.all.get<R>();
  }

  // What names() and operations() need of the tasks, and the tasks and
  // meta tasks whose (meta, op, kind) some wait names (from the keys of
  // the items that own their event).
  struct Candidate {
    uint64_t op;
    uint32_t kind;
    bool meta;
    uint64_t start, stop, fevent;
    ItemRef item;
    uint32_t processor;  // its record's
  };
  void survey();

  // convert.cpp
  void processors();
  void memories();
  std::string task_name(uint32_t task_id) const;
  // Every task id gets a name: its TaskKind's, else "task <id>".
  void names();
  void operations();
  std::string item_name(const ItemTables::NameKey& key) const;
  // Synthetic uids where the node changed after items were converted; a
  // uid of its own for each item whose fevent an earlier one owns; the
  // items' names and the critical path's inputs.
  void items();

  // convert_links.cpp
  // legion_prof's check: a message's spawn is stamped on the sending node,
  // so slow messages show network trouble or clocks that disagree.
  void message_latencies() const;
  // Recorded waits go to the task or meta task that waited and to each of
  // its calls (nested in it by fevent) that contains the wait; calls are
  // not waits of what they nest in (LEGION_FORMAT.md §6).
  void waits();
  // waits()'s steps. A wait's task or meta task (the index of its
  // candidate) where that one owns its fevent, and its processor: the calls
  // that nest in it are those with its fevent on that processor
  // (candidates are fewer than 2^32: tasks and meta tasks are each under
  // 2^31).
  struct WaitOwner {
    uint32_t candidate, processor;
  };
  // A call of an item that waited (the index of its candidate: owner).
  struct NestedCall {
    size_t owner;
    uint64_t start, stop;
    ItemRef call;
  };
  // Where each wait happened (EventWaitInfo + BacktraceDesc, and from 1010
  // the program's call it waited in): by the waiting item's fevent and the
  // event waited on.
  struct WaitSites {
    base::HugeVector<WaitSite> sorted;  // d_.wait_sites by (fevent, event)
    // (BacktraceDesc id, Provenance id) -> the note's string id, each made once.
    std::map<std::pair<uint64_t, uint64_t>, uint32_t> notes;
  };
  // Sorts the candidates by (meta, op, kind, start) and finds the one each
  // wait blocked (owner_of; left SIZE_MAX where none), putting those that
  // own their fevent into owners and maybe_owned.
  void find_wait_owners(std::vector<size_t>& owner_of, base::IdMap<WaitOwner>& owners,
                        base::IdFilter& maybe_owned);
  // The calls of the items in owners, grouped by owner, by start (the
  // longer of two that start together first: it holds the other).
  std::vector<NestedCall> owned_calls(const base::IdMap<WaitOwner>& owners,
                                      const base::IdFilter& maybe_owned) const;
  WaitSites wait_sites() const;  // with no note made yet
  // The note of a wait on `event` by the item with that fevent: where it
  // happened, as a string id (0: none known).
  uint32_t wait_note(WaitSites& sites, uint64_t fevent, uint64_t event);
  // Adds each wait that has an owner as a wait of it and of each of its
  // calls that contains the wait, with its note; returns how many waits
  // had an owner.
  size_t record_waits(const std::vector<size_t>& owner_of, const std::vector<NestedCall>& calls);
  void add_wait(ItemRef item, uint64_t start, uint64_t ready, uint64_t end, uint64_t event);
  void merge_older_instances();  // InstCreateInfo and InstUsageInfo into d_.instances
  void instances();
  std::string mem_label(uint64_t mem) const;
  // The channel of copies of this kind from src to dst (named when first used).
  uint32_t channel(trace::CopyKind copy, uint64_t src, uint64_t dst);
  trace::ChannelKind copy_channel_kind(uint64_t src, uint64_t dst) const;
  // Copies and fills go on channels chosen by their CopyInstInfo /
  // FillInstInfo (one item per run of the same src, dst and indirection;
  // none without any), partitions on the node's dependent-partitioning lane.
  void channels();
  // The critical path's inputs, in t_.late_edges (RunLinks).
  void links();

  LogData& d_;
  analysis::RankTrace& t_;
  uint32_t node_ = 0;
  uint64_t next_synthetic_ = 0;
  uint32_t next_string_ = 1;  // after the items' name slots (ItemTables::names)
  std::unordered_map<std::string_view, uint32_t> strings_;  // views t_.strings' texts
  std::unordered_map<uint64_t, std::string> mem_name_;
  std::unordered_map<uint64_t, bool> mem_device_;
  std::vector<uint32_t> task_ids_;    // of the tasks, unique
  base::IdMap<uint32_t> task_of_op_;  // op -> task_id: the first task naming it
  base::HugeVector<Candidate> candidates_;
  // Positions whose fevent an earlier position names, ascending, over the
  // items that own their event (ItemTables::path) followed by
  // d_.channel_items (positions from the path's size on).
  std::vector<size_t> repeated_events_;
  std::shared_ptr<RunLinks> path_;  // the critical path's inputs (items(), links())
  std::vector<Uid> channel_uids_;   // per d_.channel_items; 0: not drawn
  // (copy kind, src, dst): a gather or scatter between two memories is not
  // their direct copies' channel.
  std::map<std::tuple<int, uint64_t, uint64_t>, uint32_t> channels_;
};

}  // namespace legato::legion::detail
