// The rules, their parameters with documented defaults, and the parsing of
// a user's "--threshold rule.param=value".
#include <cmath>
#include <cstdlib>

#include "analysis/findings.hpp"

namespace legato::analysis {

const std::vector<RuleInfo>& rules() {
  static const std::vector<RuleInfo> list = {
      {"tiny_tasks", "Many tiny tasks",
       "processors of a kind running mostly tasks far shorter than the ~1 ms rule of thumb, "
       "idle between them"},
      {"runtime_bound", "The runtime is the bottleneck",
       "processors idle while the runtime (dependence analysis, mapping) prepares their next "
       "task"},
      {"blocked_top_level", "The program waits for results",
       "the top-level task blocked again and again on values it reads (item(), sizes of "
       "nonzero, printing)"},
      {"idle_processors", "Processors idle",
       "windows with every processor of a kind idle, and what the critical path did meanwhile"},
      {"load_imbalance", "Load imbalance",
       "processors of one kind, or nodes, busy for very different times"},
      {"critical_path", "Where the critical path spends its time",
       "the chain of preconditions that ends the run, broken down by kind"},
      {"micro_copies", "Many tiny copies",
       "copies far smaller than a channel moves efficiently, at a fraction of its bandwidth"},
      {"index_copies", "Gathers and scatters through index arrays",
       "copies through index arrays (nonzero + fancy indexing) instead of masks"},
      {"dep_part_churn", "Dependent partitioning churn",
       "many partitioning operations (from slices, masks and index arrays)"},
      {"memory_pressure", "Memory nearly full", "a memory's peak use against its capacity"},
      {"duplicate_instances", "Several instances of one array",
       "one store with several instances alive at once in a memory"},
      {"temporaries", "Full-size temporaries",
       "large arrays that live only briefly: results of expressions that out= could reuse"},
      {"out_of_memory", "Out of memory",
       "a run that failed to allocate: the ramp before it and the arrays holding the memory"},
      {"shared_gpu", "Ranks share a GPU without MPS",
       "ranks of a run on one GPU without CUDA MPS, which runs one rank's work at a time"},
  };
  return list;
}

const std::vector<RuleParam>& rule_params() {
  static const std::vector<RuleParam> list = {
      {"tiny_tasks", "max_task_us", 100, "us",
       "a task shorter than this is tiny (ten times below the ~1 ms rule of thumb)"},
      {"tiny_tasks", "min_tasks", 100, "count",
       "fewest tiny tasks of one processor kind on a node to report"},
      {"tiny_tasks", "min_share", 0.5, "share", "share of that kind's tasks that are tiny"},
      {"runtime_bound", "min_share", 0.1, "share",
       "share of the processors' time in the window spent idle, waiting for the runtime to "
       "prepare their next task"},
      {"runtime_bound", "min_tasks", 50, "count", "fewest tasks that waited for the runtime"},
      {"blocked_top_level", "min_waits", 20, "count", "fewest waits of the top-level task"},
      {"blocked_top_level", "min_share", 0.05, "share",
       "share of the program's time the top-level task spent blocked"},
      {"idle_processors", "min_gap_us", 1000, "us",
       "shortest window with every processor of a kind idle that counts"},
      {"idle_processors", "min_share", 0.1, "share",
       "share of the program's time such windows must add up to"},
      {"idle_processors", "min_work_share", 0.1, "share",
       "share of a node's task time (tasks and kernels) a processor kind must run to be judged"},
      {"load_imbalance", "max_over_mean", 1.5, "ratio",
       "busiest processor (or node) over the mean of its kind"},
      {"load_imbalance", "min_busy_share", 0.1, "share",
       "share of the program's time the busiest one must be busy"},
      {"load_imbalance", "min_work_share", 0.1, "share",
       "share of a node's task time (tasks and kernels) a processor kind must run to be judged"},
      {"micro_copies", "max_bytes", 65536, "bytes", "a copy smaller than this is tiny"},
      {"micro_copies", "min_copies", 100, "count", "fewest tiny copies on a node to report"},
      {"micro_copies", "min_share", 0.5, "share", "share of the node's copies that are tiny"},
      {"index_copies", "min_copies", 50, "count", "fewest gathers and scatters on a node"},
      {"dep_part_churn", "min_count", 100, "count", "fewest partitioning operations on a node"},
      {"memory_pressure", "max_peak_share", 0.9, "share",
       "peak use over capacity from which a memory counts as nearly full"},
      {"duplicate_instances", "min_bytes", 1048576, "bytes",
       "smallest extra instance of a store that counts"},
      {"temporaries", "min_bytes", 1048576, "bytes", "smallest temporary that counts"},
      {"temporaries", "max_life_share", 0.05, "share",
       "longest life (share of the program's time) of an array that counts as temporary"},
      {"temporaries", "min_count", 3, "count", "fewest temporaries on a node to report"},
  };
  return list;
}

namespace {

size_t index_of(std::string_view rule, std::string_view param) {
  const auto& list = rule_params();
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].rule == rule && list[i].param == param) return i;
  return list.size();
}

}  // namespace

Thresholds::Thresholds() {
  for (const auto& r : rule_params()) values_.push_back(r.value);
}

double Thresholds::get(std::string_view rule, std::string_view param) const {
  const size_t i = index_of(rule, param);
  return i < values_.size() ? values_[i] : 0;
}

std::string Thresholds::set(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  const size_t dot = assignment.find('.');
  if (eq == std::string_view::npos || dot == std::string_view::npos || dot > eq)
    return "'" + std::string(assignment) +
           "' is not rule.param=value (for example tiny_tasks.max_task_us=50)";
  const auto rule = assignment.substr(0, dot);
  const auto param = assignment.substr(dot + 1, eq - dot - 1);
  const size_t i = index_of(rule, param);
  if (i == values_.size()) {
    std::string known;
    for (const auto& r : rule_params()) {
      if (r.rule != rule) continue;
      known += (known.empty() ? "" : ", ") + std::string(r.param);
    }
    if (!known.empty())
      return "rule " + std::string(rule) + " has no parameter '" + std::string(param) +
             "'; it has " + known;
    return "no rule is called '" + std::string(rule) +
           "' (legate_prof findings --list-rules lists the rules and their parameters)";
  }
  const std::string text(assignment.substr(eq + 1));
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0)
    return "the value of " + std::string(assignment.substr(0, eq)) +
           " must be a number >= 0, not '" + text + "'";
  if (rule_params()[i].unit == "share" && v > 1)
    return std::string(assignment.substr(0, eq)) + " is a share between 0 and 1, not " + text;
  values_[i] = v;
  return "";
}

}  // namespace legato::analysis
