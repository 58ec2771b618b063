// A Legion log's critical-path links as the model's late edges: each file's
// path inputs, resolved over all the files of the run together (an event
// in one node's log is often triggered by an item in another's), then read
// by the model in place, as it reads a Legato trace's edge records.
#pragma once

#include <vector>

#include "analysis/rank_trace.hpp"
#include "legion_import/log_data.hpp"

namespace legato::legion::detail {

class RunLinks : public analysis::LateEdges {
 public:
  explicit RunLinks(PathInputs in) : in_(std::move(in)) {}
  PathInputs& inputs() { return in_; }
  size_t size_bound() const override { return in_.resolved ? in_.items.size() : 0; }
  void for_each_block(const std::function<void(Block)>& block) const override;

 private:
  PathInputs in_;
};

// Resolves the links of `files` (RunLinks in their late_edges; others are
// skipped) over all of them together: each item's link is kept in place
// (PathInputs::set_link) and the event graphs are freed.
void resolve_links(const std::vector<analysis::RankTrace*>& files);
// A file's resolved links as edge records (what a Legato trace holds), for
// a log read alone; frees its late edges.
void write_links(analysis::RankTrace& t);

}  // namespace legato::legion::detail
