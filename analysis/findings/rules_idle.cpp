// Rules about time nobody used well: idle processors, load imbalance, and
// where the run's critical path spent its time.
#include <algorithm>
#include <map>
#include <optional>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"

namespace legato::analysis::findings {
namespace {

constexpr LaneKind kComputeKinds[] = {LaneKind::Cpu, LaneKind::GpuDevice, LaneKind::OpenMp};

// The program's work on a node by compute kind: the time its tasks ran on
// the kind's processors (a GPU's: its kernels), not runtime work nor the
// top-level task. In a GPU run the CPUs run runtime work and little else
// (cuPyNumeric's, Legato's tasks without a GPU variant): idle CPUs are its
// design there, not a fault, so the rules about idle and unevenly loaded
// processors judge only the kinds that ran a share of the work.
struct KindWork {
  std::map<LaneKind, Time> work;
  Time total = 0;
  double share(LaneKind k) const {
    const auto w = work.find(k);
    return w == work.end() || total <= 0
               ? 0
               : static_cast<double>(w->second) / static_cast<double>(total);
  }
};

KindWork kind_work(const Context& ctx, uint32_t rank) {
  const Profile& p = ctx.p;
  KindWork w;
  for (const LaneKind kind : kComputeKinds) {
    for (const uint32_t l : lanes_of(p, rank, {kind})) {
      Time& t = w.work[kind];
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
        const ItemKind k = p.items[i].kind;
        if ((k == ItemKind::Task || k == ItemKind::GpuKernel) && !ctx.top_level(i))
          t = saturating_add(t, p.items[i].duration());
      }
    }
  }
  for (const auto& [kind, t] : w.work) w.total = saturating_add(w.total, t);
  return w;
}

// Whether `kind` ran enough of the program's work on the node to be judged
// by `rule` (its min_work_share); says under "not checked" why not, once
// per kind over all nodes (`left_out` collects kind -> nodes and shares).
using LeftOut = std::map<LaneKind, std::vector<std::pair<uint32_t, double>>>;
bool judged(const Context& ctx, const std::string& rule, const KindWork& w, LaneKind kind,
            uint32_t rank, LeftOut& left_out) {
  if (!w.work.count(kind) || w.total <= 0) return false;  // no processors of it, or no work
  const double share = w.share(kind);
  if (share >= ctx.param(rule, "min_work_share")) return true;
  left_out[kind].emplace_back(rank, share);
  return false;
}

void say_left_out(const Context& ctx, const std::string& rule, const LeftOut& left_out,
                  Found& out) {
  // Kinds left out on the same nodes for the same share are one sentence:
  // (what they ran, on which nodes) -> "CPU and OpenMP".
  std::vector<std::pair<std::string, std::string>> said;
  for (const auto& [kind, nodes] : left_out) {
    std::string where;
    double most = 0;
    for (const auto& [rank, share] : nodes) {
      where += (where.empty() ? "" : ", ") + std::to_string(rank);
      most = std::max(most, share);
    }
    const std::string what = " processors not judged (node" +
                             std::string(nodes.size() > 1 ? "s " : " ") + where + "): they ran " +
                             (most == 0 ? std::string("none") : "at most " + short_percent(most));
    const auto same =
        std::find_if(said.begin(), said.end(), [&](const auto& x) { return x.second == what; });
    if (same == said.end()) {
      said.emplace_back(std::string(to_string(kind)), what);
    } else {
      same->first += " and " + std::string(to_string(kind));
    }
  }
  for (const auto& [kinds, what] : said)
    out.skip(rule, kinds + what + " of the task time (tasks and kernels), under min_work_share " +
                       short_percent(ctx.param(rule, "min_work_share")) +
                       "; idle or uneven processors that run little of the program's work are "
                       "the run's design, not a fault");
}

// Time spent along the critical path, by what was happening.
class Breakdown {
 public:
  void add(const std::string& what, Time t) {
    if (t > 0) by_what_[what] += t;
  }
  Time total() const {
    Time s = 0;
    for (const auto& [w, t] : by_what_) s += t;
    return s;
  }
  // Largest first.
  std::vector<std::pair<std::string, Time>> sorted() const {
    std::vector<std::pair<std::string, Time>> v(by_what_.begin(), by_what_.end());
    std::stable_sort(v.begin(), v.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return v;
  }
  // "IO task 60%, waiting for the program to issue work 30%, ..."
  std::string text(size_t n = 3) const {
    const double all = static_cast<double>(std::max<Time>(1, total()));
    std::string out;
    size_t k = 0;
    for (const auto& [w, t] : sorted()) {
      if (k++ == n) break;
      out += (out.empty() ? "" : ", ") + w + " " + short_percent(static_cast<double>(t) / all);
    }
    return out;
  }

 private:
  std::map<std::string, Time> by_what_;
};

// "CPU task", "Channel copy", ...; the program's own task by its role.
std::string activity_name(const Context& ctx, uint32_t item) {
  const Profile& p = ctx.p;
  if (ctx.top_level(item)) return "the program running";
  const uint32_t l = p.lane_of(item);
  const std::string kind(to_string(p.items[item].kind));
  return l == kNone ? kind : std::string(to_string(p.lanes[l].kind)) + " " + kind;
}

// When the run's chain begins: at the start of the program that issued its
// earliest item, or at that item.
Time chain_begin(const Context& ctx) {
  const auto& chain = ctx.run_chain();
  if (chain.empty()) return 0;
  const uint32_t first = chain.back();
  const uint32_t top = ctx.issuer(first);
  return top == kNone ? ctx.p.items[first].start
                      : std::min(ctx.p.items[top].start, ctx.p.items[first].start);
}

// What `item` waited for through its link to `pre`, when that link went
// through Realm work (trace::EdgeKind::MakeValid, FetchMetadata, External);
// nullptr for other links.
const char* realm_work(const Profile& p, uint32_t item, uint32_t pre) {
  const char* what = nullptr;
  p.for_each_precondition(item, [&](const Precondition& c) {
    if (c.item != pre) return;
    switch (static_cast<trace::EdgeKind>(c.kind)) {
      case trace::EdgeKind::MakeValid:
        what = "waiting for an index space to be made valid";
        break;
      case trace::EdgeKind::FetchMetadata:
        what = "waiting for an instance's metadata";
        break;
      case trace::EdgeKind::External:
        what = "waiting for asynchronous work (an external event: CUDA's, say)";
        break;
      default:
        break;
    }
  });
  return what;
}

// What the run's chain was doing over time, as segments in time order: its
// items; between two of them the program still issuing the next one, or the
// next one waiting (for the runtime, a processor, its launch); and before
// its earliest item the program that issued it, running or blocked. Built
// once, so the activity in any window costs a binary search.
class ChainTimeline {
 public:
  explicit ChainTimeline(const Context& ctx) : ctx_(ctx) {
    const Profile& p = ctx.p;
    const auto& chain = ctx.run_chain();
    if (chain.empty()) return;
    const uint32_t first = chain.back();
    lead_from_ = chain_begin(ctx);
    lead_issued_ = std::clamp<Time>(p.create_of(first), lead_from_,
                                    std::max<Time>(lead_from_, p.items[first].start));
    lead_rank_ = p.lanes[p.lane_of(first)].rank;
    add(lead_from_, lead_issued_, kLeadIn);
    add(lead_issued_, p.items[first].start, label("waiting for the runtime or a processor"));
    for (size_t k = chain.size(); k-- > 0;) {
      const Item& it = p.items[chain[k]];
      if (k + 1 < chain.size()) {
        const Time from = p.items[chain[k + 1]].stop();
        const Time issued =
            std::clamp<Time>(p.create_of(chain[k]), from, std::max<Time>(from, it.start));
        add(from, issued, label("the program issuing work"));
        // A link through Realm work the precondition started (a Legion
        // log's make_valid, metadata fetch or external event such as CUDA
        // work): until the item was ready, it waited for that work.
        const char* realm = realm_work(p, chain[k], chain[k + 1]);
        const Time ready =
            realm ? std::clamp<Time>(p.ready_of(chain[k]), issued, it.start) : issued;
        if (realm) add(issued, ready, label(realm));
        add(ready, it.start, label("waiting for the runtime or a processor"));
      }
      add(it.start, it.stop(), label(activity_name(ctx, chain[k])));
    }
    std::stable_sort(segs_.begin(), segs_.end(),
                     [](const Seg& x, const Seg& y) { return x.a < y.a; });
  }

  void activity(Time t0, Time t1, Breakdown& b) const {
    auto k = static_cast<size_t>(std::lower_bound(segs_.begin(), segs_.end(), t0,
                                                  [](const Seg& s, Time t) { return s.a < t; }) -
                                 segs_.begin());
    while (k > 0 && segs_[k - 1].b > t0) --k;
    for (; k < segs_.size() && segs_[k].a < t1; ++k) {
      const Seg& s = segs_[k];
      const Time a = std::max(s.a, t0), z = std::min(s.b, t1);
      if (z <= a) continue;
      if (s.label != kLeadIn) {
        b.add(labels_[s.label], z - a);
        continue;
      }
      const Time running = ctx_.program(lead_rank_).running.covered(a, z);
      b.add("the program running", running);
      b.add("the program blocked on a result", z - a - running);
    }
  }

 private:
  static constexpr uint32_t kLeadIn = 0xffffffff;
  struct Seg {
    Time a, b;
    uint32_t label;
  };
  uint32_t label(const std::string& text) {
    const auto at = std::find(labels_.begin(), labels_.end(), text);
    if (at != labels_.end()) return static_cast<uint32_t>(at - labels_.begin());
    labels_.push_back(text);
    return static_cast<uint32_t>(labels_.size() - 1);
  }
  void add(Time a, Time b, uint32_t l) {
    if (b > a) segs_.push_back({a, b, l});
  }
  const Context& ctx_;
  std::vector<Seg> segs_;
  std::vector<std::string> labels_;
  Time lead_from_ = 0, lead_issued_ = 0;
  uint32_t lead_rank_ = 0;
};

}  // namespace

void idle_processors(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const Time min_gap = ctx.param_us_as_ns("idle_processors", "min_gap_us");
  std::optional<ChainTimeline> timeline;  // built when a window needs it
  LeftOut left_out;
  for (const Node& node : p.nodes) {
    const KindWork work = kind_work(ctx, node.rank);
    for (const LaneKind kind : kComputeKinds) {
      if (!judged(ctx, "idle_processors", work, kind, node.rank, left_out)) continue;
      const auto lanes = lanes_of(p, node.rank, {kind});
      std::vector<std::pair<Time, Time>> spans;
      for (uint32_t l : lanes) {
        const size_t from = spans.size();
        for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i)
          if (!ctx.top_level(i)) spans.emplace_back(p.items[i].start, p.items[i].stop());
        merge_appended(spans, from);
      }
      if (spans.empty()) continue;
      // Where the node's records were lost, what ran is not known: never idle.
      const size_t known = spans.size();
      for (const analysis::LostSpan& l : p.lost)
        if (l.rank == node.rank) spans.emplace_back(l.from, l.to);
      merge_appended(spans, known);
      // Gaps between the merged spans: every processor of the kind idle.
      std::vector<std::pair<Time, Time>> gaps;
      Time covered = spans.front().second;
      for (const auto& [a, z] : spans) {
        if (a - covered >= min_gap) gaps.emplace_back(covered, a);
        covered = std::max(covered, z);
      }
      Time idle = 0;
      for (const auto& [a, z] : gaps) idle += z - a;
      if (gaps.empty() || ctx.share(idle) < ctx.param("idle_processors", "min_share")) continue;
      Breakdown meanwhile;
      if (!timeline) timeline.emplace(ctx);
      for (const auto& [a, z] : gaps) timeline->activity(a, z, meanwhile);
      const auto widest = *std::max_element(gaps.begin(), gaps.end(), [](auto& x, auto& y) {
        return x.second - x.first < y.second - y.first;
      });
      const Time longest = widest.second - widest.first;
      Finding f;
      f.rule = "idle_processors";
      f.cost = idle;
      f.cost_basis = "windows of at least " + short_ns(static_cast<double>(min_gap)) +
                     " with every " + std::string(to_string(kind)) +
                     " idle, between the first and the last of their tasks";
      f.title = "Every " + std::string(to_string(kind)) + " idle for " +
                short_percent(ctx.share(idle)) + " of the program's time" +
                where_node(p, node.rank);
      f.summary = "The " + std::to_string(lanes.size()) + " " + std::string(to_string(kind)) +
                  " lanes were all idle in " + grouped(gaps.size()) +
                  (gaps.size() == 1 ? " window, " : " windows, ") +
                  short_ns(static_cast<double>(idle)) + " in all (longest " +
                  short_ns(static_cast<double>(longest)) + ").";
      const std::string doing = meanwhile.text();
      if (!doing.empty()) f.summary += " Meanwhile the critical path was: " + doing + ".";
      f.severity = severity_of_share(ctx.share(f.cost));
      f.rank = node.rank;
      f.kinds = {kind};
      f.lanes = lanes;
      f.t0 = widest.first;
      f.t1 = widest.second;
      f.evidence = {{"idle windows", static_cast<double>(gaps.size()), "count"},
                    {"time all idle", static_cast<double>(idle), "ns"},
                    {"longest window", static_cast<double>(longest), "ns"}};
      const double all = static_cast<double>(std::max<Time>(1, meanwhile.total()));
      for (const auto& [what, t] : meanwhile.sorted())
        f.evidence.push_back({"critical path: " + what, static_cast<double>(t) / all, "share"});
      for (uint32_t c : ctx.run_chain()) {
        const Item& it = p.items[c];
        if (it.stop() > widest.first && it.start < widest.second && f.items.size() < 5)
          f.items.push_back(c);
      }
      if (f.items.empty()) {
        // The chain did nothing there: show what ran on the kind's lanes
        // last before the window and first after it.
        uint32_t before = kNone, after = kNone;
        for (uint32_t l : lanes)
          for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
            const Item& it = p.items[i];
            if (ctx.top_level(i)) continue;
            if (it.stop() <= widest.first &&
                (before == kNone || it.stop() > p.items[before].stop()))
              before = i;
            if (it.start >= widest.second && (after == kNone || it.start < p.items[after].start))
              after = i;
          }
        for (uint32_t i : {before, after})
          if (i != kNone) f.items.push_back(i);
      }
      f.fix =
          "Look at what the critical path did in the widest window (its items, or the tasks "
          "around the window, are outlined): the "
          "program issuing work or blocked on a read (move reads out of loops), the runtime "
          "mapping (fewer, larger operations), or copies (keep data where it is used).";
      out.findings.push_back(std::move(f));
    }
  }
  say_left_out(ctx, "idle_processors", left_out, out);
}

void load_imbalance(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const double max_ratio = ctx.param("load_imbalance", "max_over_mean");
  const double min_busy = ctx.param("load_imbalance", "min_busy_share");
  const auto report = [&](const std::string& who, LaneKind kind, uint32_t rank,
                          const std::vector<uint32_t>& lanes, const std::vector<Time>& busy,
                          const std::vector<std::string>& names, uint32_t busiest_lane) {
    Time sum = 0;
    for (Time b : busy) sum += b;
    const double mean = static_cast<double>(sum) / static_cast<double>(busy.size());
    const auto top = std::max_element(busy.begin(), busy.end()) - busy.begin();
    const auto low = std::min_element(busy.begin(), busy.end()) - busy.begin();
    const auto max = static_cast<double>(busy[top]);
    if (mean <= 0 || max / mean < max_ratio || ctx.share(busy[top]) < min_busy) return;
    Finding f;
    f.rule = "load_imbalance";
    f.cost = static_cast<Time>(max - mean);
    f.cost_basis = "the busiest " + who +
                   "'s busy time minus the mean of its kind: what evening "
                   "out the work would save at most";
    f.title = "Load imbalance between " + who + "s (" + std::string(to_string(kind)) + ")" +
              where_node(p, rank);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.1f", max / mean);
    f.summary = names[top] + " was busy " + short_ns(max) + ", " + ratio + " times the mean (" +
                short_ns(mean) + "); the least busy, " + names[low] + ", " +
                short_ns(static_cast<double>(busy[low])) + ".";
    f.severity = severity_of_share(ctx.share(f.cost));
    f.rank = rank;
    f.kinds = {kind};
    f.lanes = lanes;
    f.t0 = p.start;
    f.t1 = p.stop;
    f.evidence = {{"busiest", max, "ns"},
                  {"mean", mean, "ns"},
                  {"least busy", static_cast<double>(busy[low]), "ns"},
                  {"busiest over mean", max / mean, "ratio"}};
    LineTally lines;
    std::vector<uint32_t> on_busiest;
    for (uint32_t i = p.lanes[busiest_lane].begin; i < p.lanes[busiest_lane].end; ++i) {
      if (ctx.top_level(i) || p.items[i].kind == ItemKind::MetaTask) continue;
      lines.add(ctx.provenance(i), p.items[i].duration());
      on_busiest.push_back(i);
    }
    f.lines = lines.ranked(p);
    f.items = spread(p, on_busiest);
    f.fix =
        "Give every processor the same amount of work: operate on whole arrays (their "
        "partitions are even) rather than on slices that live on one processor's part, and "
        "avoid loops whose iterations touch only part of an array.";
    out.findings.push_back(std::move(f));
  };
  LeftOut left_out;
  std::map<uint32_t, KindWork> work;
  for (const Node& node : p.nodes) work[node.rank] = kind_work(ctx, node.rank);
  for (const LaneKind kind : kComputeKinds) {
    std::vector<uint32_t> node_lanes;
    std::vector<Time> node_busy;
    std::vector<std::string> node_names;
    uint32_t node_busiest = kNone;
    Time node_busiest_time = -1;
    for (const Node& node : p.nodes) {
      if (!judged(ctx, "load_imbalance", work[node.rank], kind, node.rank, left_out)) continue;
      const auto lanes = lanes_of(p, node.rank, {kind});
      if (lanes.empty()) continue;
      std::vector<Time> busy;
      std::vector<std::string> names;
      Time sum = 0;
      for (uint32_t l : lanes) {
        busy.push_back(lane_busy(ctx, l, INT64_MIN, INT64_MAX, TopLevel::LeftOut));
        names.push_back(p.lanes[l].name);
        sum += busy.back();
        if (busy.back() > node_busiest_time) {
          node_busiest_time = busy.back();
          node_busiest = l;
        }
      }
      if (lanes.size() >= 2) {
        const auto top = std::max_element(busy.begin(), busy.end()) - busy.begin();
        report("processor", kind, node.rank, lanes, busy, names, lanes[top]);
      }
      node_lanes.insert(node_lanes.end(), lanes.begin(), lanes.end());
      node_busy.push_back(sum / static_cast<Time>(lanes.size()));
      node_names.push_back("node " + std::to_string(node.rank));
    }
    if (node_busy.size() >= 2)
      report("node", kind, kAllNodes, node_lanes, node_busy, node_names, node_busiest);
  }
  say_left_out(ctx, "load_imbalance", left_out, out);
}

void critical_path_breakdown(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const auto& chain = ctx.run_chain();
  if (chain.size() < 2) return;  // one item: nothing to break down
  const Time t0 = chain_begin(ctx), t1 = p.items[chain.front()].stop();
  Breakdown b;
  ChainTimeline(ctx).activity(t0, t1, b);
  LineTally lines;
  std::vector<uint32_t> lanes;
  for (uint32_t c : chain) {
    lines.add(ctx.provenance(c), p.items[c].duration());
    const uint32_t l = p.lane_of(c);
    if (l != kNone && std::find(lanes.begin(), lanes.end(), l) == lanes.end()) lanes.push_back(l);
  }
  Finding f;
  f.rule = "critical_path";
  f.title = "Where the critical path spends its time";
  f.summary = "The chain of " + grouped(chain.size()) + " items that ends the run spans " +
              short_ns(static_cast<double>(t1 - t0)) + ": " + b.text(4) + ".";
  f.cost_basis = "not a cost: the breakdown of the longest chain of preconditions";
  f.severity = Severity::Info;
  f.t0 = t0;
  f.t1 = t1;
  f.lanes = lanes;
  for (uint32_t l : lanes)
    if (std::find(f.kinds.begin(), f.kinds.end(), p.lanes[l].kind) == f.kinds.end())
      f.kinds.push_back(p.lanes[l].kind);
  const double all = static_cast<double>(std::max<Time>(1, b.total()));
  f.evidence = {{"items on the path", static_cast<double>(chain.size()), "count"},
                {"span", static_cast<double>(t1 - t0), "ns"}};
  for (const auto& [what, t] : b.sorted())
    f.evidence.push_back({what, static_cast<double>(t) / all, "share"});
  f.lines = lines.ranked(p);
  f.items = spread(p, chain, 8);
  f.fix =
      "Shorten the largest part first: long tasks on the path gain from more processors or "
      "GPUs; runtime work and waiting for the program from fewer, larger operations and no "
      "reads inside loops; copies from keeping data where it is used.";
  out.findings.push_back(std::move(f));
}

}  // namespace legato::analysis::findings
