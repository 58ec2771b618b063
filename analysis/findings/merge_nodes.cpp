// One finding per pattern, not per node: the same rule firing on the same
// kinds of several nodes becomes one finding that names the costliest node
// and how many show it, so a 64-rank run does not list 64 copies.
#include <algorithm>
#include <map>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"

namespace legato::analysis::findings {
namespace {

bool same_pattern(const Finding& a, const Finding& b) {
  return a.rule == b.rule && a.kinds == b.kinds && a.rank != kAllNodes && b.rank != kAllNodes &&
         a.rank != b.rank;
}

// Per line: items and bytes add up over the nodes; the cost is the largest
// (nodes run at the same time, as the finding's cost is).
std::vector<CodeLine> merged_lines(const std::vector<const Finding*>& group) {
  std::map<std::string, CodeLine> by_where;
  for (const Finding* f : group)
    for (const CodeLine& l : f->lines) {
      CodeLine& m = by_where[l.where];
      if (m.where.empty()) {
        m = l;
        continue;
      }
      m.items += l.items;
      m.bytes += l.bytes;
      m.cost = std::max(m.cost, l.cost);
    }
  std::vector<CodeLine> out;
  for (auto& [where, line] : by_where) out.push_back(std::move(line));
  std::stable_sort(out.begin(), out.end(), [](const CodeLine& a, const CodeLine& b) {
    if (a.cost != b.cost) return a.cost > b.cost;
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.items > b.items;
  });
  if (out.size() > 8) out.resize(8);
  return out;
}

Finding merge(const Profile& p, const std::vector<const Finding*>& group) {
  const Finding* top = *std::max_element(group.begin(), group.end(), [](auto* a, auto* b) {
    return a->cost != b->cost ? a->cost < b->cost : a->bytes < b->bytes;
  });
  Finding m = *top;
  const std::string nodes = std::to_string(group.size()) + " nodes";
  const std::string suffix = where_node(p, top->rank);
  if (const size_t at = m.title.rfind(suffix); !suffix.empty() && at != std::string::npos)
    m.title.replace(at, suffix.size(), " on " + nodes);
  m.summary =
      "On node " + std::to_string(top->rank) + ", the costliest of the " + nodes + ": " + m.summary;
  m.cost_basis += " (on the costliest node; the nodes run at the same time)";
  m.rank = kAllNodes;
  m.lines = merged_lines(group);
  m.evidence.insert(m.evidence.begin(), {"nodes", static_cast<double>(group.size()), "count"});
  for (const Finding* f : group) {
    if (f == top) continue;
    m.severity = std::max(m.severity, f->severity);
    m.t0 = std::min(m.t0, f->t0);
    m.t1 = std::max(m.t1, f->t1);
    m.lanes.insert(m.lanes.end(), f->lanes.begin(), f->lanes.end());
    m.provenances.insert(m.provenances.end(), f->provenances.begin(), f->provenances.end());
  }
  std::sort(m.provenances.begin(), m.provenances.end());
  m.provenances.erase(std::unique(m.provenances.begin(), m.provenances.end()), m.provenances.end());
  return m;
}

}  // namespace

void merge_nodes(const Profile& p, std::vector<Finding>& findings) {
  std::vector<Finding> out;
  std::vector<bool> used(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    if (used[i]) continue;
    std::vector<const Finding*> group{&findings[i]};
    for (size_t j = i + 1; j < findings.size(); ++j) {
      if (used[j] || !same_pattern(findings[i], findings[j])) continue;
      if (std::any_of(group.begin(), group.end(),
                      [&](const Finding* g) { return g->rank == findings[j].rank; }))
        continue;
      group.push_back(&findings[j]);
      used[j] = true;
    }
    out.push_back(group.size() == 1 ? std::move(findings[i]) : merge(p, group));
  }
  findings = std::move(out);
}

}  // namespace legato::analysis::findings
