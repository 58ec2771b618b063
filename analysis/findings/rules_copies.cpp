// Rules about data movement and partitioning: tiny copies, gathers and
// scatters through index arrays, and dependent-partitioning churn.
#include <algorithm>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"

namespace legato::analysis::findings {
namespace {

// Items of a node's lanes of some kinds that pass a filter, in start order,
// with their lines and the wall time any of them ran.
struct Selection {
  std::vector<uint32_t> items;
  std::vector<uint32_t> lanes;  // lanes holding at least one
  LineTally lines;
  Time union_time = 0, total_time = 0, t0 = INT64_MAX, t1 = INT64_MIN;
  uint64_t bytes = 0;
};

template <class Keep>
Selection select(const Context& ctx, uint32_t rank, std::initializer_list<LaneKind> kinds,
                 Keep&& keep) {
  const Profile& p = ctx.p;
  Selection s;
  std::vector<std::pair<Time, Time>> spans;
  for (uint32_t l : lanes_of(p, rank, kinds)) {
    const size_t from = spans.size();
    bool any = false;
    for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
      const Item& it = p.items[i];
      if (!keep(i)) continue;
      any = true;
      s.items.push_back(i);
      spans.emplace_back(it.start, it.stop());
      const uint64_t bytes = it.kind == ItemKind::Copy ? p.copy_of(it)->bytes : 0;
      s.lines.add(ctx.provenance(i), it.duration(), bytes);
      s.total_time += it.duration();
      s.bytes += bytes;
      s.t0 = std::min<Time>(s.t0, it.start);
      s.t1 = std::max(s.t1, it.stop());
    }
    if (any) s.lanes.push_back(l);
    merge_appended(spans, from);
  }
  s.union_time = union_length(spans);
  return s;
}

double bandwidth(const Profile& p, uint32_t item) {
  const Item& it = p.items[item];
  return it.duration() > 0
             ? static_cast<double>(p.copy_of(it)->bytes) * 1e9 / static_cast<double>(it.duration())
             : 0;
}

// The parts of a finding every rule here fills the same way.
Finding from_selection(const Context& ctx, const char* rule, uint32_t rank, Selection& s,
                       std::vector<ItemKind> item_kinds) {
  const Profile& p = ctx.p;
  Finding f;
  f.rule = rule;
  f.cost = s.union_time;
  f.severity = severity_of_share(ctx.share(f.cost));
  f.rank = rank;
  f.lanes = s.lanes;
  for (uint32_t l : s.lanes)
    if (std::find(f.kinds.begin(), f.kinds.end(), p.lanes[l].kind) == f.kinds.end())
      f.kinds.push_back(p.lanes[l].kind);
  f.t0 = s.t0;
  f.t1 = s.t1;
  f.lines = s.lines.ranked(p, 8, f.cost);
  f.items = spread(p, s.items);
  f.item_kinds = std::move(item_kinds);
  f.provenances = s.lines.ids();
  return f;
}

constexpr std::string_view kMaskFix =
    "Use a boolean mask over the whole array instead of an index array or a masked "
    "get-and-set: putmask(z, cond, values) or where(cond, x, y) is one element-wise task with "
    "no nonzero, no gather or scatter copies and no partitioning, where idx = nonzero(cond); "
    "z[idx] = v[idx] and z[mask] = f(z[mask]) need all three.";

}  // namespace

void micro_copies(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const auto max_bytes = ctx.param_bytes("micro_copies", "max_bytes");
  for (const Node& node : p.nodes) {
    uint64_t all = 0;
    double best = 0;  // the best bandwidth of a copy that is not tiny
    Selection s = select(ctx, node.rank, {LaneKind::Channel}, [&](uint32_t i) {
      if (p.items[i].kind != ItemKind::Copy) return false;
      ++all;
      if (p.copy_of(p.items[i])->bytes >= max_bytes) {
        best = std::max(best, bandwidth(p, i));
        return false;
      }
      return true;
    });
    if (s.items.empty() ||
        static_cast<double>(s.items.size()) < ctx.param("micro_copies", "min_copies") ||
        static_cast<double>(s.items.size()) <
            ctx.param("micro_copies", "min_share") * static_cast<double>(all))
      continue;
    std::vector<uint64_t> sizes;
    std::vector<double> rates;
    for (uint32_t i : s.items) {
      sizes.push_back(p.copy_of(p.items[i])->bytes);
      rates.push_back(bandwidth(p, i));
    }
    const uint64_t med_bytes = median(sizes);
    const double med_rate = median(rates);
    Finding f = from_selection(ctx, "micro_copies", node.rank, s, {ItemKind::Copy});
    f.cost_basis = "the time at least one tiny copy was in flight on the node's channels";
    f.title = "Many tiny copies" + where_node(p, node.rank);
    f.summary =
        grouped(s.items.size()) + " of " + grouped(all) + " copies moved less than " +
        human_bytes(static_cast<double>(max_bytes)) + " (median " +
        human_bytes(static_cast<double>(med_bytes)) + ", at a median " + human_bytes(med_rate) +
        "/s" +
        (best > 2 * med_rate ? ", where larger copies reached " + human_bytes(best) + "/s" : "") +
        "): each pays the setup and latency of a whole copy.";
    f.evidence = {{"tiny copies", static_cast<double>(s.items.size()), "count"},
                  {"copies", static_cast<double>(all), "count"},
                  {"median size", static_cast<double>(med_bytes), "bytes"},
                  {"median bandwidth", med_rate, "bytes/s"},
                  {"bytes moved by tiny copies", static_cast<double>(s.bytes), "bytes"},
                  {"time in tiny copies", static_cast<double>(s.total_time), "ns"}};
    if (best > 0) f.evidence.push_back({"best bandwidth of larger copies", best, "bytes/s"});
    f.fix =
        "Move data in whole arrays: copies come from slices and index arrays in loops, each "
        "moving a few KiB. " +
        std::string(kMaskFix);
    out.findings.push_back(std::move(f));
  }
}

void index_copies(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  for (const Node& node : p.nodes) {
    uint64_t gathers = 0, scatters = 0;
    Selection s = select(ctx, node.rank, {LaneKind::Channel}, [&](uint32_t i) {
      if (p.items[i].kind != ItemKind::Copy) return false;
      const auto kind = p.copy_of(p.items[i])->kind;
      gathers += kind == trace::CopyKind::Gather;
      scatters += kind == trace::CopyKind::Scatter;
      return kind == trace::CopyKind::Gather || kind == trace::CopyKind::Scatter;
    });
    if (s.items.empty() ||
        static_cast<double>(s.items.size()) < ctx.param("index_copies", "min_copies"))
      continue;
    Finding f = from_selection(ctx, "index_copies", node.rank, s, {ItemKind::Copy});
    f.cost_basis = "the time at least one gather or scatter was in flight on the node's channels";
    f.title = "Gathers and scatters through index arrays" + where_node(p, node.rank);
    f.summary = grouped(gathers) + " gathers and " + grouped(scatters) + " scatters moved " +
                human_bytes(static_cast<double>(s.bytes)) +
                " through index arrays; each also needed the index array computed first "
                "(nonzero) and a partition of the data it touches.";
    f.evidence = {{"gathers", static_cast<double>(gathers), "count"},
                  {"scatters", static_cast<double>(scatters), "count"},
                  {"bytes", static_cast<double>(s.bytes), "bytes"},
                  {"time in them", static_cast<double>(s.total_time), "ns"}};
    f.fix = std::string(kMaskFix);
    out.findings.push_back(std::move(f));
  }
}

void dep_part_churn(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  for (const Node& node : p.nodes) {
    Selection s = select(ctx, node.rank, {LaneKind::DepPart, LaneKind::Utility, LaneKind::Cpu},
                         [&](uint32_t i) { return p.items[i].kind == ItemKind::DepPart; });
    if (s.items.empty() ||
        static_cast<double>(s.items.size()) < ctx.param("dep_part_churn", "min_count"))
      continue;
    std::vector<uint32_t> ops;
    for (uint32_t i : s.items)
      if (p.items[i].op != kNone) ops.push_back(p.items[i].op);
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    Finding f = from_selection(ctx, "dep_part_churn", node.rank, s, {ItemKind::DepPart});
    f.cost_basis =
        "the time at least one partitioning operation ran; copies and tasks that "
        "need a partition wait for it";
    f.title = "Dependent partitioning churn" + where_node(p, node.rank);
    f.summary = grouped(s.items.size()) + " partitioning operations (mean " +
                short_ns(static_cast<double>(s.total_time) / static_cast<double>(s.items.size())) +
                ") computed new partitions from data: every slice of a loop, nonzero and masked "
                "get or set needs its own, and what uses it waits for it.";
    f.evidence = {{"partitioning operations", static_cast<double>(s.items.size()), "count"},
                  {"operations needing them", static_cast<double>(ops.size()), "count"},
                  {"time in them", static_cast<double>(s.total_time), "ns"}};
    f.fix =
        "Keep shapes independent of the data: whole-array masks (putmask, where) instead of "
        "nonzero and masked get-and-set, and the same slices reused instead of new ones in "
        "every iteration of a loop.";
    out.findings.push_back(std::move(f));
  }
}

}  // namespace legato::analysis::findings
