// Findings as text for the terminal and as JSON for scripts and the report.
#include <sstream>

#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "analysis/units.hpp"

namespace legato::analysis {

std::string format_measure(const Measure& m) {
  if (m.unit == "ns") return short_ns(m.value);
  if (m.unit == "bytes") return human_bytes(m.value);
  if (m.unit == "bytes/s") return human_bytes(m.value) + "/s";
  if (m.unit == "count") return grouped(static_cast<uint64_t>(m.value + 0.5));
  if (m.unit == "share") return short_percent(m.value);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", m.value);
  return buf;
}

std::string finding_where(const Profile& p, const Finding& f) {
  std::string kinds;
  for (LaneKind k : f.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(to_string(k));
  std::string out = f.rank == kAllNodes
                        ? (p.nodes.size() > 1 ? "all nodes" : "")
                        : (p.nodes.size() > 1 ? "node " + std::to_string(f.rank) : "");
  if (!kinds.empty()) out += (out.empty() ? "" : ", ") + kinds;
  const double a = static_cast<double>(f.t0 - p.start), z = static_cast<double>(f.t1 - p.start);
  out += (out.empty() ? "" : ", ") + short_ns(a) + " to " + short_ns(z) + " into the run";
  return out;
}

std::string finding_cost(const Finding& f) {
  if (f.rule == "critical_path") return "";
  std::string out;
  if (f.cost > 0)
    out = short_ns(static_cast<double>(f.cost)) + " (" + short_percent(f.cost_share) +
          " of the program's time)";
  if (f.bytes > 0) out += (out.empty() ? "" : ", ") + human_bytes(static_cast<double>(f.bytes));
  return out;
}

std::string findings_text(const Profile& p, const Findings& all) {
  std::ostringstream out;
  if (!all.note.empty()) out << all.note << "\n";
  if (all.empty_run) return out.str();  // the note says why nothing was checked
  if (all.findings.empty()) out << "No findings: no rule saw a pattern that costs this run.\n";
  int n = 0;
  for (const Finding& f : all.findings) {
    out << "\n"
        << ++n << ". [" << to_string(f.severity) << "] " << f.title << "  (" << f.rule << ")\n";
    out << "   " << f.summary << "\n";
    if (const std::string c = finding_cost(f); !c.empty())
      out << "   cost:     " << c << ", " << f.cost_basis << "\n";
    out << "   where:    " << finding_where(p, f) << "\n";
    if (!f.lines.empty()) {
      out << "   lines:\n";
      for (const CodeLine& l : f.lines) {
        out << "     " << l.where << "  " << grouped(l.items) << " item"
            << (l.items == 1 ? "" : "s");
        if (l.cost > 0) out << ", " << short_ns(static_cast<double>(l.cost));
        if (l.bytes > 0) out << ", " << human_bytes(static_cast<double>(l.bytes));
        if (!l.note.empty()) out << " (" << l.note << ")";
        out << "\n";
      }
    }
    out << "   evidence:";
    for (size_t k = 0; k < f.evidence.size(); ++k)
      out << (k ? "; " : " ") << f.evidence[k].label << " " << format_measure(f.evidence[k]);
    out << "\n";
    if (!f.items.empty()) {
      out << "   for example:\n";
      for (uint32_t i : f.items)
        out << "     #" << i << " " << describe(p, i) << " at "
            << short_ns(static_cast<double>(p.items[i].start - p.start)) << ", "
            << short_ns(static_cast<double>(p.items[i].duration())) << "\n";
    }
    out << "   fix:      " << f.fix << "\n";
  }
  for (const Skipped& s : all.skipped)
    out << "\nnot checked: " << s.rule << ": " << s.reason << "\n";
  return out.str();
}

nlohmann::json findings_json(const Profile& p, const Findings& all) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& f : all.findings) {
    nlohmann::json lines = nlohmann::json::array(), evidence = nlohmann::json::array(),
                   items = nlohmann::json::array(), kinds = nlohmann::json::array();
    for (const CodeLine& l : f.lines)
      lines.push_back({{"where", l.where},
                       {"items", l.items},
                       {"cost_ns", l.cost},
                       {"bytes", l.bytes},
                       {"note", l.note}});
    for (const Measure& m : f.evidence)
      evidence.push_back(
          {{"label", m.label}, {"value", m.value}, {"unit", m.unit}, {"text", format_measure(m)}});
    for (uint32_t i : f.items)
      items.push_back({{"item", i},
                       {"what", describe(p, i)},
                       {"start_ns", Time{p.items[i].start}},
                       {"stop_ns", p.items[i].stop()}});
    for (LaneKind k : f.kinds) kinds.push_back(std::string(to_string(k)));
    nlohmann::json lanes = nlohmann::json::array();
    for (uint32_t l : f.lanes)
      lanes.push_back({{"lane", l}, {"node", p.lanes[l].rank}, {"name", p.lanes[l].name}});
    list.push_back({{"rule", f.rule},
                    {"title", f.title},
                    {"summary", f.summary},
                    {"severity", std::string(to_string(f.severity))},
                    {"cost_ns", f.cost},
                    {"cost_share", f.cost_share},
                    {"cost_basis", f.cost_basis},
                    {"root_cause", f.root_cause},
                    {"bytes", f.bytes},
                    {"node", f.rank == kAllNodes ? nlohmann::json() : nlohmann::json(f.rank)},
                    {"kinds", kinds},
                    {"lanes", lanes},
                    {"start_ns", f.t0},
                    {"stop_ns", f.t1},
                    {"where", finding_where(p, f)},
                    {"lines", lines},
                    {"evidence", evidence},
                    {"items", items},
                    {"fix", f.fix}});
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const Skipped& s : all.skipped) skipped.push_back({{"rule", s.rule}, {"reason", s.reason}});
  return {{"findings", list},
          {"not_checked", skipped},
          {"span_ns", all.span},
          {"note", all.note},
          {"empty_run", all.empty_run}};
}

}  // namespace legato::analysis
