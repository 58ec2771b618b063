// Everything a popup shows about one item, and the critical path: the
// precondition that finished last ("why did this not start earlier"), and the
// chain of such preconditions back to the start of the run.
#pragma once

#include <string>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::analysis {

// A wait that carries a note (a Legion log's backtrace of where it waited).
struct WaitDetail {
  Time start = 0, ready = 0, end = 0;
  uint32_t event = kNone;  // the item it waited for, when known
  std::string note;
};
inline constexpr size_t kMaxNotedWaits = 20;

struct ItemDetails {
  uint32_t item = kNone;
  ItemKind kind = ItemKind::Task;
  std::string name;
  std::string signature;  // a GPU kernel's whole signature, when its name is short
  std::string lane;       // "c0 (node 0)"
  uint32_t rank = 0;
  std::string operation;   // the operation's name, e.g. "add"
  uint64_t op_id = 0;      // its id in its rank's sequence (a Legion log's op_id)
  std::string provenance;  // "file:line" of the program's call
  Time create = 0, ready = 0, start = 0, stop = 0;
  // Derived: waiting for preconditions (ready - create), waiting for a
  // processor (start - ready), running (stop - start - blocked - resuming),
  // blocked and ready-to-resume inside the item's span.
  Time waiting_for_dependencies = 0, waiting_for_processor = 0, running = 0, blocked = 0,
       resuming = 0;
  uint32_t creator = kNone;   // the operation that issued this item's operation
  uint32_t previous = kNone;  // the item that ran before it on the same lane
  std::vector<Precondition> preconditions;
  uint32_t critical = kNone;          // the precondition that finished last (item index)
  uint8_t critical_kind = kMappedBy;  // its edge's kind
  uint64_t bytes = 0;                 // copies and instances
  double bandwidth = 0;               // copies and fills: bytes per second while it ran
  // Runtime work (dependence analysis, mapping, ...) done for its operation,
  // and its share of it: that over the operation's items (tasks, copies...).
  Time operation_runtime = 0, runtime_overhead = 0;
  std::vector<WaitDetail> noted_waits;  // its first kMaxNotedWaits waits with a note
};

ItemDetails details(const Profile& p, uint32_t item);

// The precondition of item that finished last, or kNone.
uint32_t last_precondition(const Profile& p, uint32_t item);

// item, its last precondition, that one's last precondition, ... back to an
// item with none. Stops at a cycle (damaged traces) and after max_steps.
std::vector<uint32_t> critical_path(const Profile& p, uint32_t item, size_t max_steps = 100000);

// "data", "anti", "copy", "instance", "control", "mapped by".
std::string_view precondition_name(uint8_t kind);

// A one-line description: "add (task) on c0, node 0".
std::string describe(const Profile& p, uint32_t item);

}  // namespace legato::analysis
