#include "legion_import/run_links.hpp"

#include <array>

#include "legion_import/critical_path.hpp"
#include "legion_import/legato_ids.hpp"

namespace legato::legion::detail {

namespace {

// The kind of an item's link: the Realm work the event graph went through
// to its precondition, Data for the graph's other steps, Control for a
// creator.
trace::EdgeKind edge_kind(const PathStep& step) {
  if (!step.from_critical) return trace::EdgeKind::Control;
  switch (step.via) {
    case EventNode::MakeValid:
      return trace::EdgeKind::MakeValid;
    case EventNode::FetchMetadata:
      return trace::EdgeKind::FetchMetadata;
    case EventNode::External:
      return trace::EdgeKind::External;
    default:
      return trace::EdgeKind::Data;
  }
}

// Edge records given at once: small enough to stay in a core's cache.
constexpr size_t kBlock = 512;

}  // namespace

void RunLinks::for_each_block(const std::function<void(Block)>& block) const {
  if (!in_.resolved) return;
  std::array<trace::EdgeRecord, kBlock> buffer;
  size_t n = 0;
  for (size_t k = 0; k < in_.items.size(); ++k) {
    if (in_.precondition(k) == 0) continue;
    buffer[n++] = in_.link(k);
    if (n == kBlock) {
      block(Block(buffer.data(), n));
      n = 0;
    }
  }
  if (n > 0) block(Block(buffer.data(), n));
}

// One link per item: the item that determined its start (LEGION_FORMAT.md
// §7), over the event graphs of all the files together, kept in place in
// each file's path inputs (PathInputs::set_link). The steps never read an
// item's creator and critical event again once it is resolved.
void resolve_links(const std::vector<analysis::RankTrace*>& files) {
  std::vector<PathInputs*> inputs;
  for (const analysis::RankTrace* t : files) {
    if (auto* links = dynamic_cast<RunLinks*>(t->late_edges.get())) {
      inputs.push_back(&links->inputs());
    }
  }
  critical_path_steps(inputs, [&](size_t file, size_t k, const PathStep& step) {
    PathInputs& in = *inputs[file];
    const Uid uid = in.uids[k];
    const Uid pre = step.fevent == 0 ? 0 : event_uid(step.fevent);
    in.set_link(k, uid == 0 || pre == uid ? 0 : pre, edge_kind(step));
  });
  for (PathInputs* in : inputs) {
    base::HugeVector<EventNode>().swap(in->events);
    in->resolved = true;
  }
}

void write_links(analysis::RankTrace& t) {
  if (!t.late_edges) return;
  auto& edges = t.all.get<trace::EdgeRecord>();
  base::reserve_huge(edges, edges.size() + t.late_edges->size_bound());
  t.late_edges->for_each_block(
      [&](analysis::LateEdges::Block b) { edges.insert(edges.end(), b.begin(), b.end()); });
  t.late_edges.reset();
}

}  // namespace legato::legion::detail
