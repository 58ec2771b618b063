// What every rule reads besides the profile (internal to the findings): the
// thresholds, the run's span, the top-level task and per-line tallies.
#pragma once

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/findings.hpp"

namespace legato::analysis::findings {

// Disjoint, sorted intervals with the time they cover inside any window.
class Spans {
 public:
  Spans() = default;
  explicit Spans(std::vector<std::pair<Time, Time>> spans);  // any order, may overlap
  Time covered(Time a, Time b) const;                        // length of [a, b) they cover
  Time total() const { return prefix_.empty() ? 0 : prefix_.back(); }

 private:
  std::vector<Time> starts_, ends_, prefix_;  // prefix_[k]: length of spans [0, k]
};

// What one rule found, and what it could not check and why.
struct Found {
  std::vector<Finding> findings;
  std::vector<Skipped> skipped;
  void skip(std::string rule, std::string reason) {
    skipped.push_back({std::move(rule), std::move(reason)});
  }
};

struct Context {
  Context(const Profile& p, const Thresholds& t);
  const Profile& p;
  const Thresholds& t;
  // The program's span (its top-level tasks' first start to last stop), or
  // the run's where no top-level task is known; at least 1 ns. Costs are
  // shares of it.
  Time span = 0;
  // Operations that issued others and have no parent: the program's
  // top-level task(s).
  std::vector<uint8_t> top_level_op;  // per operation
  std::vector<Time> op_runtime;       // per operation: its meta-tasks' total time
  // Per node: when its top-level task ran (not blocked in a wait), and the
  // operations it issued.
  struct Program {
    Spans running;
    uint64_t operations = 0;
    uint32_t item = kNone;  // its top-level task
  };
  const Program& program(uint32_t rank) const;
  // The top-level task that issued an item's operation, or kNone.
  uint32_t issuer(uint32_t item) const;
  double param(std::string_view rule, std::string_view name) const { return t.get(rule, name); }
  // A parameter in microseconds as nanoseconds, and one in bytes as bytes,
  // saturated: a threshold past what the type holds means "no limit", never
  // a value wrapped around by the cast.
  Time param_us_as_ns(std::string_view rule, std::string_view name) const {
    return saturated<Time>(param(rule, name) * 1e3);
  }
  uint64_t param_bytes(std::string_view rule, std::string_view name) const {
    return saturated<uint64_t>(param(rule, name));
  }
  // Time `share` of the program's time, saturated likewise.
  Time share_of_span(double share) const {
    return saturated<Time>(share * static_cast<double>(span));
  }
  template <class T>
  static T saturated(double v) {
    // 2^63 and 2^64 are exact doubles; anything at or past them does not fit.
    constexpr double kLimit = static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
    if (!(v > 0)) return 0;
    return v >= kLimit ? std::numeric_limits<T>::max() : static_cast<T>(v);
  }
  bool top_level(uint32_t item) const {
    const uint32_t op = p.items[item].op;
    return op != kNone && top_level_op[op];
  }
  // An item's operation; a GPU kernel's is its launching task's.
  uint32_t op_of(uint32_t item) const {
    const Item& it = p.items[item];
    if (it.op != kNone || it.kind != ItemKind::GpuKernel) return it.op;
    const uint32_t task = p.kernel_of(it)->task;
    return task == kNone ? kNone : p.items[task].op;
  }
  // The provenance string id of an item's operation (0 for none).
  uint32_t provenance(uint32_t item) const {
    const uint32_t op = op_of(item);
    return op == kNone ? 0 : p.operations[op].provenance;
  }
  bool any_provenance() const { return has_provenance_; }
  // The run's critical path, latest first: the program's item that finished
  // last (a task, copy, fill, partitioning or kernel of an operation; not the
  // top-level task), then for each item the precondition that finished last, or,
  // when the program issued the item after that, what the program had
  // waited for before issuing it (the item of its last wait).
  const std::vector<uint32_t>& run_chain() const;
  double share(Time t) const { return static_cast<double>(t) / static_cast<double>(span); }

 private:
  bool has_provenance_ = false;
  std::unordered_map<uint32_t, Program> programs_;
  uint32_t chain_step(uint32_t item) const;
  void find_chain() const;
  mutable std::vector<uint32_t> chain_;
  mutable std::once_flag chain_done_;  // rules on several threads ask for it
};

// Severity from the share of the program's time a finding costs: high from 20%,
// medium from 5%, low from 1%, info below.
Severity severity_of_share(double share);

// Tallies items per code line, then ranks the lines.
class LineTally {
 public:
  void add(uint32_t provenance, Time cost, uint64_t bytes = 0) {
    Entry& e = entry(provenance);
    ++e.items;
    e.cost += cost;
    e.bytes += bytes;
  }
  // The lines, most costly (then most bytes, then most items) first, at
  // most `limit`; lines' costs scaled so they sum to `total` when given.
  std::vector<CodeLine> ranked(const Profile& p, size_t limit = 8, Time total = -1) const;
  // The provenance ids tallied (for Finding::provenances), 0 left out.
  std::vector<uint32_t> ids() const;

 private:
  struct Entry {
    uint64_t items = 0;
    Time cost = 0;
    uint64_t bytes = 0;
  };
  // Rules tally millions of items: small string ids (every line of a
  // program, in practice) index a table, others a hash map.
  static constexpr uint32_t kDense = 1 << 16;
  Entry& entry(uint32_t id) {
    if (id >= kDense) return by_line_[id];
    if (id >= dense_.size())
      dense_.resize(std::min<size_t>(kDense, std::max<size_t>(id + 1, 2 * dense_.size())));
    return dense_[id];
  }
  // Every tallied line but id 0 (no provenance).
  template <class F>
  void for_each(F&& f) const {
    for (uint32_t id = 1; id < dense_.size(); ++id)
      if (dense_[id].items) f(id, dense_[id]);
    for (const auto& [id, e] : by_line_) f(id, e);
  }
  std::vector<Entry> dense_;
  std::unordered_map<uint32_t, Entry> by_line_;
};

// The median of values (reorders them); 0 for none.
template <class T>
T median(std::vector<T>& v) {
  if (v.empty()) return T{};
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

// Up to n items spread evenly over the time the listed items span
// (representative evidence), in time order.
std::vector<uint32_t> spread(const Profile& p, const std::vector<uint32_t>& items, size_t n = 5);

// The lanes of a node (kAllNodes: every node) whose kind is one of kinds.
std::vector<uint32_t> lanes_of(const Profile& p, uint32_t rank,
                               std::initializer_list<LaneKind> kinds);

// A lane's items in start order (rows merged).
std::vector<uint32_t> in_start_order(const Profile& p, const Lane& lane);

// The total length of the union of [start, stop) intervals (sorts them
// unless they are sorted already).
Time union_length(std::vector<std::pair<Time, Time>>& spans);

// Keeps spans sorted after spans[from..] were appended (one lane's items,
// usually in order already): linear for sorted input.
void merge_appended(std::vector<std::pair<Time, Time>>& spans, size_t from);

// The time a lane's items cover inside [t0, t1), overlapping items once; the
// program's own (top-level) task counted or left out.
enum class TopLevel { Counted, LeftOut };
Time lane_busy(const Context& ctx, uint32_t lane, Time t0, Time t1, TopLevel top_level);

// "on node 0" or "" for a single-node run.
std::string where_node(const Profile& p, uint32_t rank);

// Merges the findings of one rule on the same kinds of several nodes into
// one (merge_nodes.cpp).
void merge_nodes(const Profile& p, std::vector<Finding>& findings);

// The rules, each appending what it found to its own `out` (they run on
// several threads, reading the context only).
void tiny_tasks(const Context& ctx, Found& out);
void runtime_bound(const Context& ctx, Found& out);
void blocked_top_level(const Context& ctx, Found& out);
void idle_processors(const Context& ctx, Found& out);
void load_imbalance(const Context& ctx, Found& out);
void critical_path_breakdown(const Context& ctx, Found& out);
void micro_copies(const Context& ctx, Found& out);
void index_copies(const Context& ctx, Found& out);
void dep_part_churn(const Context& ctx, Found& out);
void memory_pressure(const Context& ctx, Found& out);
void duplicate_instances(const Context& ctx, Found& out);
void temporaries(const Context& ctx, Found& out);
void out_of_memory(const Context& ctx, Found& out);
void shared_gpu(const Context& ctx, Found& out);

}  // namespace legato::analysis::findings
