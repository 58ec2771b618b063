// The critical path of Legion items from the log's event graph (1007+:
// `critical` fields and Event*Info records) or, without it, from `creator`
// links (LEGION_FORMAT.md §7).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "legion_import/log_data.hpp"

namespace legato::legion {

// Per item: the fevent of the item that determined its start (0: none),
// whether it came from the event graph (else from the creator link), and
// the type of the event record the graph reached that item through (its
// own make_valid, fetch_metadata or external work), or kNoVia.
struct PathStep {
  static constexpr uint8_t kNoVia = 0xff;
  uint64_t fevent = 0;
  bool from_critical = false;
  uint8_t via = kNoVia;
};

// Gives each item of the files, in order (each file's items, file after
// file), its step back along the critical path, over all their event
// graphs together: step(file, item, its step). Never recurses on the graph
// (iterative), so any depth is safe; a cycle is cut where it closes.
// Resolving rewrites the files' event records: each one resolved keeps what
// it resolved to in place of its performer (EventNode::resolution).
void critical_path_steps(const std::vector<PathInputs*>& files,
                         const std::function<void(size_t, size_t, const PathStep&)>& step);

}  // namespace legato::legion
