// The critical path of Legion items from the log's event graph (1007+:
// `critical` fields and Event*Info records) or, without it, from `creator`
// links (LEGION_FORMAT.md §7).
#pragma once

#include <cstdint>
#include <vector>

#include "legion_import/log_data.hpp"

namespace legato::legion {

// Per item: the fevent of the item that determined its start (0: none),
// and whether it came from the event graph (else from the creator link).
struct PathStep {
  uint64_t fevent = 0;
  bool from_critical = false;
};

// Per item of the files, in order (each file's items, file after file):
// the step back along the critical path, over all their event graphs
// together. Never recurses on the graph (iterative), so any depth is safe;
// a cycle is cut where it closes.
std::vector<PathStep> critical_path_steps(const std::vector<const PathInputs*>& files);

}  // namespace legato::legion
