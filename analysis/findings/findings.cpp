// Runs every rule and orders the findings; the helpers the rules share.
#include <algorithm>
#include <array>
#include <iterator>

#include "analysis/build.hpp"
#include "analysis/details.hpp"
#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"
#include "base/parallel.hpp"

namespace legato::analysis {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::High:
      return "high";
    case Severity::Medium:
      return "medium";
    case Severity::Low:
      return "low";
    case Severity::Info:
      break;
  }
  return "info";
}

namespace findings {

Context::Context(const Profile& prof, const Thresholds& th)
    : p(prof), t(th), span(std::max<Time>(1, prof.stop - prof.start)) {
  top_level_op.assign(p.operations.size(), 0);
  std::vector<uint8_t> has_children(p.operations.size(), 0);
  for (const Operation& op : p.operations) {
    if (op.parent < has_children.size()) has_children[op.parent] = 1;
    if (op.provenance != 0) has_provenance_ = true;
  }
  for (size_t o = 0; o < p.operations.size(); ++o)
    top_level_op[o] = p.operations[o].parent == kNone && has_children[o];
  op_runtime.assign(p.operations.size(), 0);
  for (const Item& it : p.items)
    if (it.kind == ItemKind::MetaTask && it.op != kNone) op_runtime[it.op] += it.duration();
  std::unordered_map<uint32_t, std::vector<std::pair<Time, Time>>> running;
  std::unordered_map<uint32_t, uint32_t> rank_of_program;  // top-level operation -> node
  Time program_start = INT64_MAX, program_stop = INT64_MIN;
  for (const Lane& lane : p.lanes) {
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (p.items[i].kind != ItemKind::Task || !top_level(i)) continue;
      program_start = std::min(program_start, Time{p.items[i].start});
      program_stop = std::max(program_stop, p.items[i].stop());
      rank_of_program[p.items[i].op] = lane.rank;
      if (programs_[lane.rank].item == kNone) programs_[lane.rank].item = i;
      auto& spans = running[lane.rank];
      Time from = p.items[i].start;
      const auto [w, wend] = p.waits_of(i);
      for (const Wait* x = w; x != wend; ++x) {
        spans.emplace_back(from, x->start);
        from = std::max(from, x->end);
      }
      spans.emplace_back(from, p.items[i].stop());
    }
  }
  for (auto& [rank, spans] : running) programs_[rank].running = Spans(std::move(spans));
  // Costs are shares of the program's time, from its start to its end on
  // the last node: the runtime's startup and shutdown around it (seconds
  // on a GPU, where making contexts and freeing the framebuffer take that)
  // are not the program's to fix.
  if (program_stop > program_start) span = program_stop - program_start;
  for (const Operation& op : p.operations)
    if (const auto it = rank_of_program.find(op.parent); it != rank_of_program.end())
      ++programs_[it->second].operations;
}

const Context::Program& Context::program(uint32_t rank) const {
  static const Program none;
  const auto it = programs_.find(rank);
  return it == programs_.end() ? none : it->second;
}

Spans::Spans(std::vector<std::pair<Time, Time>> spans) {
  if (!std::is_sorted(spans.begin(), spans.end())) std::sort(spans.begin(), spans.end());
  for (const auto& [a, b] : spans) {
    if (b <= a) continue;
    if (!ends_.empty() && a <= ends_.back()) {
      const Time grow = std::max<Time>(0, b - ends_.back());
      ends_.back() += grow;
      prefix_.back() += grow;
      continue;
    }
    starts_.push_back(a);
    ends_.push_back(b);
    prefix_.push_back((prefix_.empty() ? 0 : prefix_.back()) + (b - a));
  }
}

Time Spans::covered(Time a, Time b) const {
  if (b <= a || starts_.empty()) return 0;
  // Covered length of (-inf, t).
  const auto upto = [&](Time t) -> Time {
    const size_t k =
        static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), t) - starts_.begin());
    if (k == 0) return 0;
    const Time before = k >= 2 ? prefix_[k - 2] : 0;
    return before + std::min(t, ends_[k - 1]) - starts_[k - 1];
  };
  return upto(b) - upto(a);
}

const std::vector<uint32_t>& Context::run_chain() const {
  std::call_once(chain_done_, [this] { find_chain(); });
  return chain_;
}

void Context::find_chain() const {
  uint32_t last = kNone;
  for (const Lane& lane : p.lanes) {
    if (is_memory(lane.kind) || lane.kind == LaneKind::Profiler) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      // Not the program itself, nor runtime work, nor an item no operation
      // launched (a Legion log's external thread).
      const Item& it = p.items[i];
      if (top_level(i) || it.kind == ItemKind::MetaTask || it.op == kNone) continue;
      if (last == kNone || p.items[i].stop() > p.items[last].stop()) last = i;
    }
  }
  std::vector<uint8_t> seen(p.items.size(), 0);
  for (uint32_t cur = last; cur != kNone && !seen[cur]; cur = chain_step(cur)) {
    seen[cur] = 1;
    chain_.push_back(cur);
  }
}

uint32_t Context::issuer(uint32_t item) const {
  const uint32_t op = p.items[item].op;
  if (op == kNone || p.operations[op].parent == kNone || !top_level_op[p.operations[op].parent])
    return kNone;
  const uint32_t lane = p.lane_of(item);
  return lane == kNone ? kNone : program(p.lanes[lane].rank).item;
}

uint32_t Context::chain_step(uint32_t item) const {
  const uint32_t pre = last_precondition(p, item);
  const Time ready_from = pre == kNone ? INT64_MIN : p.items[pre].stop();
  const Time issued = p.create_of(item);
  const uint32_t top = issuer(item);
  if (issued <= ready_from || top == kNone) return pre;
  // The program issued it after its preconditions finished: what held the
  // program up was the last thing it waited for before issuing it.
  const auto [w, wend] = p.waits_of(top);
  const Wait* last =
      std::upper_bound(w, wend, issued, [](Time t, const Wait& x) { return t < x.end; });
  if (last == w) return pre;
  --last;
  return last->event != kNone && last->end > ready_from ? last->event : pre;
}

std::vector<uint32_t> in_start_order(const Profile& p, const Lane& lane) {
  std::vector<uint32_t> v(lane.end - lane.begin);
  for (uint32_t i = lane.begin; i < lane.end; ++i) v[i - lane.begin] = i;
  if (lane.rows.size() > 1)
    std::stable_sort(v.begin(), v.end(),
                     [&](uint32_t a, uint32_t b) { return p.items[a].start < p.items[b].start; });
  return v;
}

Time lane_busy(const Context& ctx, uint32_t l, Time t0, Time t1, TopLevel top_level) {
  const Lane& lane = ctx.p.lanes[l];
  const bool skip_top = top_level == TopLevel::LeftOut;
  Time busy = 0;
  if (lane.rows.size() == 1) {  // one row: nothing overlaps
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (skip_top && ctx.top_level(i)) continue;
      const Item& it = ctx.p.items[i];
      busy += std::max<Time>(0, std::min<Time>(it.stop(), t1) - std::max<Time>(it.start, t0));
    }
    return busy;
  }
  std::vector<std::pair<Time, Time>> spans;
  for (uint32_t i = lane.begin; i < lane.end; ++i) {
    if (skip_top && ctx.top_level(i)) continue;
    const Item& it = ctx.p.items[i];
    if (it.stop() > t0 && it.start < t1)
      spans.emplace_back(std::max<Time>(it.start, t0), std::min<Time>(it.stop(), t1));
  }
  return union_length(spans);
}

void merge_appended(std::vector<std::pair<Time, Time>>& spans, size_t from) {
  const auto mid = spans.begin() + static_cast<std::ptrdiff_t>(from);
  if (!std::is_sorted(mid, spans.end())) std::sort(mid, spans.end());
  std::inplace_merge(spans.begin(), mid, spans.end());
}

Time union_length(std::vector<std::pair<Time, Time>>& spans) {
  if (!std::is_sorted(spans.begin(), spans.end())) std::sort(spans.begin(), spans.end());
  Time total = 0, lo = 0, hi = 0;
  bool open = false;
  for (const auto& [a, b] : spans) {
    if (b <= a) continue;
    if (open && a <= hi) {
      hi = std::max(hi, b);
      continue;
    }
    if (open) total += hi - lo;
    lo = a;
    hi = b;
    open = true;
  }
  if (open) total += hi - lo;
  return total;
}

Severity severity_of_share(double share) {
  if (share >= 0.2) return Severity::High;
  if (share >= 0.05) return Severity::Medium;
  if (share >= 0.01) return Severity::Low;
  return Severity::Info;
}

std::vector<CodeLine> LineTally::ranked(const Profile& p, size_t limit, Time total) const {
  std::vector<std::pair<uint32_t, Entry>> v;
  Time sum = 0;
  for_each([&](uint32_t id, const Entry& e) {
    v.emplace_back(id, e);
    sum += e.cost;
  });
  std::sort(v.begin(), v.end(), [&](const auto& a, const auto& b) {
    if (a.second.cost != b.second.cost) return a.second.cost > b.second.cost;
    if (a.second.bytes != b.second.bytes) return a.second.bytes > b.second.bytes;
    if (a.second.items != b.second.items) return a.second.items > b.second.items;
    return p.str(a.first) < p.str(b.first);
  });
  if (v.size() > limit) v.resize(limit);
  std::vector<CodeLine> out;
  for (const auto& [id, e] : v) {
    Time cost = e.cost;
    if (total >= 0 && sum > 0)
      cost = static_cast<Time>(static_cast<double>(e.cost) / static_cast<double>(sum) *
                               static_cast<double>(total));
    out.push_back({p.str(id), e.items, cost, e.bytes, ""});
  }
  return out;
}

std::vector<uint32_t> LineTally::ids() const {
  std::vector<uint32_t> v;
  for_each([&](uint32_t id, const Entry&) { v.push_back(id); });
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<uint32_t> spread(const Profile& p, const std::vector<uint32_t>& items, size_t n) {
  std::vector<uint32_t> out;
  if (items.size() <= n) {
    out = items;
  } else {
    // The items starting nearest n evenly spaced times over their span (the
    // list is often grouped by lane, not in time order).
    Time lo = INT64_MAX, hi = INT64_MIN;
    for (uint32_t i : items) {
      lo = std::min<Time>(lo, p.items[i].start);
      hi = std::max<Time>(hi, p.items[i].start);
    }
    // One pass notes each stretch's earliest and latest item (stretch j:
    // from target j to target j + 1); the item nearest a target is the
    // earliest at or after it or the latest before it.
    const double step = static_cast<double>(hi - lo) / static_cast<double>(n - 1);
    const auto start = [&](uint32_t i) { return p.items[i].start; };
    std::vector<uint32_t> first(n, kNone), last(n, kNone);
    for (uint32_t i : items) {
      const auto j = std::min(
          n - 1, static_cast<size_t>(step > 0 ? static_cast<double>(start(i) - lo) / step : 0));
      if (first[j] == kNone || start(i) < start(first[j])) first[j] = i;
      if (last[j] == kNone || start(i) > start(last[j])) last[j] = i;
    }
    for (size_t k = 0; k < n; ++k) {
      const Time target = lo + static_cast<Time>(step * static_cast<double>(k));
      uint32_t best = kNone;
      const auto consider = [&](uint32_t i) {
        if (i != kNone &&
            (best == kNone || std::abs(start(i) - target) < std::abs(start(best) - target)))
          best = i;
      };
      for (size_t j = k; j < n; ++j)
        if (first[j] != kNone) {
          consider(first[j]);
          break;
        }
      for (size_t j = k; j-- > 0;)
        if (last[j] != kNone) {
          consider(last[j]);
          break;
        }
      if (std::find(out.begin(), out.end(), best) == out.end()) out.push_back(best);
    }
  }
  std::sort(out.begin(), out.end(),
            [&](uint32_t a, uint32_t b) { return p.items[a].start < p.items[b].start; });
  return out;
}

std::vector<uint32_t> lanes_of(const Profile& p, uint32_t rank,
                               std::initializer_list<LaneKind> kinds) {
  std::vector<uint32_t> out;
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    const Lane& lane = p.lanes[l];
    if (rank != kAllNodes && lane.rank != rank) continue;
    if (std::find(kinds.begin(), kinds.end(), lane.kind) != kinds.end()) out.push_back(l);
  }
  return out;
}

std::string where_node(const Profile& p, uint32_t rank) {
  if (p.nodes.size() <= 1 || rank == kAllNodes) return "";
  return " on node " + std::to_string(rank);
}

}  // namespace findings

namespace {

// A run with nothing timed in it: nothing a rule could look at.
Findings nothing_to_check(const Profile& p) {
  Findings f;
  f.empty_run = true;
  std::string files;
  for (const RankInfo& r : p.ranks) files += (files.empty() ? "" : ", ") + r.file;
  const std::string holds =
      p.records == 0 ? "no records" : "no tasks, copies, instances or other timed records";
  f.note = "Nothing to check: the run holds " + holds + (files.empty() ? "" : " (" + files + ")") +
           ", so no rule could look at it; this says nothing about whether it ran well.";
  std::string all;
  for (const RuleInfo& r : rules()) all += (all.empty() ? "" : ", ") + std::string(r.id);
  f.skipped.push_back({all, "the run holds " + holds});
  return f;
}

}  // namespace

Findings find(const Profile& p, const Thresholds& t) {
  if (p.items.empty()) return nothing_to_check(p);
  Findings out;
  const findings::Context ctx(p, t);
  out.span = ctx.span;
  using Rule = void (*)(const findings::Context&, findings::Found&);
  static constexpr Rule kRules[] = {
      findings::tiny_tasks,        findings::runtime_bound,
      findings::blocked_top_level, findings::idle_processors,
      findings::load_imbalance,    findings::micro_copies,
      findings::index_copies,      findings::dep_part_churn,
      findings::memory_pressure,   findings::duplicate_instances,
      findings::temporaries,       findings::out_of_memory,
      findings::shared_gpu,        findings::critical_path_breakdown,
  };
  // The rules read the model only, each into its own list, on every core;
  // their lists are joined in the rules' order, as one thread would leave them.
  constexpr size_t kCount = std::size(kRules);
  std::array<findings::Found, kCount> found;
  base::parallel_for(kCount, threads_or_cores(0),
                     [&](unsigned, size_t k) { kRules[k](ctx, found[k]); });
  for (findings::Found& f : found) {
    std::move(f.findings.begin(), f.findings.end(), std::back_inserter(out.findings));
    std::move(f.skipped.begin(), f.skipped.end(), std::back_inserter(out.skipped));
  }
  findings::merge_nodes(p, out.findings);
  // What several rules left out for one reason is said once, naming them.
  std::vector<Skipped> said;
  for (Skipped& s : out.skipped) {
    const auto same = std::find_if(said.begin(), said.end(),
                                   [&](const Skipped& x) { return x.reason == s.reason; });
    if (same == said.end()) {
      said.push_back(std::move(s));
    } else {
      same->rule += ", " + s.rule;
    }
  }
  out.skipped = std::move(said);
  if (!ctx.any_provenance())
    out.skipped.push_back({"code lines",
                           "the trace names no lines of the program (no operation carries a "
                           "provenance), so findings give no lines"});
  for (Finding& f : out.findings) f.cost_share = ctx.share(f.cost);
  if (const Time trace = p.stop - p.start; ctx.span < trace - trace / 10) {
    out.note = "The program ran " + short_ns(static_cast<double>(ctx.span)) + " of the trace's " +
               short_ns(static_cast<double>(trace)) +
               " (the rest is the runtime starting and stopping); shares are of the program's "
               "time.";
  }
  std::stable_sort(out.findings.begin(), out.findings.end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     if (a.root_cause != b.root_cause) return a.root_cause;
                     if (a.cost != b.cost) return a.cost > b.cost;
                     return a.bytes > b.bytes;
                   });
  return out;
}

bool belongs(const Profile& p, const Finding& f, uint32_t item) {
  if (std::find(f.items.begin(), f.items.end(), item) != f.items.end()) return true;
  const Item& it = p.items[item];
  if (std::find(f.item_kinds.begin(), f.item_kinds.end(), it.kind) == f.item_kinds.end())
    return false;
  if (it.stop() < f.t0 || it.start > f.t1) return false;
  if (!f.provenances.empty()) {
    uint32_t prov = it.op == kNone ? 0 : p.operations[it.op].provenance;
    if (const InstanceInfo* info = p.instance_of(it)) prov = info->provenance;
    if (!std::binary_search(f.provenances.begin(), f.provenances.end(), prov)) return false;
  }
  const uint32_t lane = p.lane_of(item);
  return std::find(f.lanes.begin(), f.lanes.end(), lane) != f.lanes.end();
}

}  // namespace legato::analysis
