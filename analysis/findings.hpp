// Findings: patterns in a run that cost time or memory, read from the
// profile model, each with what it costs, where it happened, the lines of the
// user's program responsible and the fix the array API offers. Rules are
// linear scans over the model (or sorts of a kind's items), never quadratic.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/profile.hpp"
#include "analysis/utilization.hpp"

namespace legato::analysis {

enum class Severity : uint8_t { Info, Low, Medium, High };
std::string_view to_string(Severity s);

// One number behind a finding, with its unit for formatting: "ns", "bytes",
// "count", "share" (a fraction shown as %), "bytes/s" or "" (a plain number).
struct Measure {
  std::string label;
  double value = 0;
  std::string unit;
};
// "1.2 ms", "8.0 MiB", "1,234", "37%", "1.5 GiB/s".
std::string format_measure(const Measure& m);

// A line of the user's program (an operation's provenance) and its part of
// a finding.
struct CodeLine {
  std::string where;  // "prog.cpp:45"
  uint64_t items = 0;
  Time cost = 0;       // its share of the finding's cost (ns)
  uint64_t bytes = 0;  // memory findings: the bytes it holds
  std::string note;    // more about it: "2 instances, created at prog.cpp:28, prog.cpp:36"
};

struct Finding {
  std::string rule;  // "tiny_tasks": the rule's id, also the prefix of its thresholds
  std::string title;
  std::string summary;  // what was seen, one or two sentences
  Severity severity = Severity::Info;
  Time cost = 0;              // wall time it costs the run, estimated (ns)
  double cost_share = 0;      // cost over the run's span
  std::string cost_basis;     // how the cost was estimated
  uint64_t bytes = 0;         // memory findings: the bytes at issue
  uint32_t rank = kAllNodes;  // the node, or kAllNodes
  std::vector<LaneKind> kinds;
  std::vector<uint32_t> lanes;  // the lanes to unfold and look at
  Time t0 = 0, t1 = 0;          // the time window to zoom to
  std::vector<CodeLine> lines;  // most costly first
  std::vector<Measure> evidence;
  std::vector<uint32_t> items;  // representative items (model indices)
  std::string fix;
  // A setup that stretches what the other findings measure (ranks sharing a
  // GPU without MPS): fixing it first changes their figures, so it comes
  // first among the findings of its severity, whatever their costs.
  bool root_cause = false;
  // Which items the finding is about (belongs()): its representative items,
  // and items of these kinds on its lanes inside its window whose
  // operation's provenance (an instance's: its store's) is one of these
  // string ids (any provenance when empty).
  std::vector<ItemKind> item_kinds;
  std::vector<uint32_t> provenances;
};

// A rule that could not look at this trace, and why ("the trace records no
// instances").
struct Skipped {
  std::string rule;
  std::string reason;
};

struct Findings {
  std::vector<Finding> findings;  // most severe, then root causes, then most costly, first
  std::vector<Skipped> skipped;
  Time span = 0;  // the program's time, which the shares are of (Context::span)
  // "The program ran 20.6 ms of the trace's 87.3 ms (...); shares are of the
  // program's time." where the runtime's starting and stopping took a tenth
  // of the trace or more, else "".
  std::string note;
  // The run holds nothing timed (no records at all, or descriptions only):
  // no rule could look at it, every rule is under skipped and the note says
  // so. Such a run is never called healthy.
  bool empty_run = false;
};

// The rules' parameters: id "rule.param", default, unit and meaning. What
// `legate_prof findings --list-rules` prints and the README lists.
struct RuleParam {
  std::string_view rule, param;
  double value;
  std::string_view unit, meaning;
};
const std::vector<RuleParam>& rule_params();
// The rules: id, title and what each looks for.
struct RuleInfo {
  std::string_view id, title, looks_for;
};
const std::vector<RuleInfo>& rules();

class Thresholds {
 public:
  Thresholds();  // every parameter at its default
  // Applies "rule.param=value"; returns "" or what was wrong with it.
  std::string set(std::string_view assignment);
  double get(std::string_view rule, std::string_view param) const;

 private:
  std::vector<double> values_;  // in rule_params() order
};

// Every rule on the profile.
Findings find(const Profile& p, const Thresholds& t = Thresholds());

// Whether an item is one of the items a finding is about.
bool belongs(const Profile& p, const Finding& f, uint32_t item);

// "node 1, CPU, Utility, 40.2 ms to 268 ms into the run".
std::string finding_where(const Profile& p, const Finding& f);
// "119 ms (85% of the program's time)", and/or bytes; "" for what is not a cost.
std::string finding_cost(const Finding& f);

// For scripts and the report: every finding with numbers, items and lines.
nlohmann::json findings_json(const Profile& p, const Findings& f);
// For the terminal: the findings, most costly first.
std::string findings_text(const Profile& p, const Findings& f);

}  // namespace legato::analysis
