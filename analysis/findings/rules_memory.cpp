// Rules about memory: pools near capacity, several instances of one store,
// full-size temporaries, and the ramp before an out-of-memory failure.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"
#include "analysis/utilization.hpp"

namespace legato::analysis::findings {
namespace {

// Instances grouped by the store they belong to (by the line that allocated
// the store when the trace names no store).
class Holders {
 public:
  explicit Holders(const Profile& p) : p_(p) {}
  void add(uint32_t item) {
    const InstanceInfo& info = *p_.instance_of(p_.items[item]);
    Group& g = groups_[{info.store, info.provenance}];
    g.provenance = info.provenance;
    g.store = info.store;
    g.bytes += info.bytes;
    g.items.push_back(item);
    if (const uint32_t op = p_.items[item].op; op != kNone) {
      const uint32_t line = p_.operations[op].provenance;
      if (g.ops.empty() || g.ops.back() != line) g.ops.push_back(line);
    }
    total_ += info.bytes;
    items_.push_back(item);
  }
  uint64_t total() const { return total_; }
  const std::vector<uint32_t>& items() const { return items_; }
  size_t stores() const { return groups_.size(); }
  // One line per store, most bytes first: where it was allocated, and the
  // operations whose instances of it are held.
  std::vector<CodeLine> lines(size_t limit = 8) const {
    std::vector<const Group*> v;
    for (const auto& [key, g] : groups_) v.push_back(&g);
    std::sort(v.begin(), v.end(), [&](const Group* a, const Group* b) {
      if (a->bytes != b->bytes) return a->bytes > b->bytes;
      if (a->provenance != b->provenance) return p_.str(a->provenance) < p_.str(b->provenance);
      return a->store < b->store;
    });
    std::vector<CodeLine> out;
    for (const Group* g : v) {
      if (out.size() == limit) break;
      std::vector<uint32_t> ids = g->ops;
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      std::vector<std::string> lines;
      for (uint32_t s : ids)
        if (s != 0) lines.push_back(p_.str(s));
      std::sort(lines.begin(), lines.end());
      std::string created;
      for (const auto& l : lines) created += (created.empty() ? "" : ", ") + l;
      CodeLine line{g->provenance ? p_.str(g->provenance) : "(unknown line)", g->items.size(), 0,
                    g->bytes, ""};
      line.note = grouped(g->items.size()) + (g->items.size() == 1 ? " instance" : " instances") +
                  (created.empty() ? "" : ", created for operations at " + created);
      out.push_back(std::move(line));
    }
    return out;
  }
  std::vector<uint32_t> provenances() const {
    std::vector<uint32_t> v;
    for (const auto& [key, g] : groups_) v.push_back(g.provenance);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }

 private:
  struct Group {
    uint32_t provenance = 0;
    uint64_t store = 0;
    uint64_t bytes = 0;
    std::vector<uint32_t> items;
    std::vector<uint32_t> ops;  // provenance of the operations that made them
  };
  struct KeyHash {
    size_t operator()(const std::pair<uint64_t, uint32_t>& k) const {
      return std::hash<uint64_t>()(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
    }
  };
  const Profile& p_;
  std::unordered_map<std::pair<uint64_t, uint32_t>, Group, KeyHash> groups_;
  std::vector<uint32_t> items_;
  uint64_t total_ = 0;
};

// The instances of a memory lane alive at time t.
Holders alive_at(const Profile& p, const Lane& lane, Time t) {
  Holders h(p);
  for (uint32_t i = lane.begin; i < lane.end; ++i) {
    const Item& it = p.items[i];
    if (!p.instance_of(it)) continue;
    if (it.start <= t && (t < it.stop() || (it.flags & kItemAliveAtEnd))) h.add(i);
  }
  return h;
}

Time earliest_start(const Profile& p, const std::vector<uint32_t>& items, Time fallback) {
  Time t = fallback;
  for (uint32_t i : items) t = std::min<Time>(t, p.items[i].start);
  return t;
}

Finding memory_finding(const char* rule, uint32_t lane, const Profile& p, const Holders& h) {
  Finding f;
  f.rule = rule;
  f.rank = p.lanes[lane].rank;
  f.kinds = {p.lanes[lane].kind};
  f.lanes = {lane};
  f.bytes = h.total();
  f.lines = h.lines();
  f.items = spread(p, h.items(), 8);
  f.item_kinds = {ItemKind::Instance};
  f.provenances = h.provenances();
  return f;
}

std::string memory_flag(LaneKind k) {
  return k == LaneKind::Framebuffer ? "--fbmem" : k == LaneKind::ZeroCopy ? "--zcmem" : "--sysmem";
}

std::string memory_name(const Profile& p, const Lane& l) {
  return l.name + " (" + std::string(to_string(l.kind)) + where_node(p, l.rank) + ")";
}

bool has_oom(const Profile& p, uint32_t lane) {
  return std::any_of(p.errors.begin(), p.errors.end(), [&](const ErrorMark& e) {
    return e.kind == trace::ErrorKind::OutOfMemory && e.lane == lane;
  });
}

}  // namespace

void memory_pressure(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  std::string unsized;  // memories whose capacity the trace does not give
  size_t unsized_count = 0;
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    const Lane& lane = p.lanes[l];
    if (!is_memory(lane.kind) || has_oom(p, l)) continue;
    if (!lane.capacity_given) {
      // Drawn against the bytes of its instances, it is always "full": not
      // a measure of how close it came to running out.
      if (lane.begin == lane.end) continue;
      if (unsized_count++ < 3) unsized += (unsized.empty() ? "" : ", ") + memory_name(p, lane);
      continue;
    }
    const MemoryPeak peak = memory_peak(p, lane);
    const double share = static_cast<double>(peak.bytes) / static_cast<double>(lane.capacity);
    if (peak.bytes == 0 || share < ctx.param("memory_pressure", "max_peak_share")) continue;
    const Holders h = alive_at(p, lane, peak.at);
    Finding f = memory_finding("memory_pressure", l, p, h);
    f.title = "Memory nearly full: " + memory_name(p, lane);
    f.summary = "At its peak " + lane.name + " held " +
                human_bytes(static_cast<double>(peak.bytes)) + " of its " +
                human_bytes(static_cast<double>(lane.capacity)) + " (" + short_percent(share) +
                ") in " + grouped(h.items().size()) + " instances of " + grouped(h.stores()) +
                " arrays; a little more and the run fails to allocate.";
    f.cost_basis = "not a time: the bytes held at the peak";
    f.severity = share >= 0.99 ? Severity::High : Severity::Medium;
    f.t0 = earliest_start(p, h.items(), peak.at);
    f.t1 = peak.at;
    f.evidence = {{"peak", static_cast<double>(peak.bytes), "bytes"},
                  {"capacity", static_cast<double>(lane.capacity), "bytes"},
                  {"peak over capacity", share, "share"},
                  {"instances at the peak", static_cast<double>(h.items().size()), "count"}};
    f.fix =
        "Hold fewer large arrays at once: write results in place (out=, +=) instead of into "
        "temporaries, drop arrays no longer needed, avoid a second instance of a sliced "
        "array (touch it whole first), or give the pool more room with " +
        memory_flag(lane.kind) + ".";
    out.findings.push_back(std::move(f));
  }
  if (unsized_count > 0)
    out.skip("memory_pressure",
             grouped(unsized_count) + (unsized_count == 1 ? " memory" : " memories") + " (" +
                 unsized + (unsized_count > 3 ? ", ..." : "") +
                 ") not judged: the trace does not give " +
                 (unsized_count == 1 ? "its capacity" : "their capacities") +
                 " (drawn against the bytes of all " + (unsized_count == 1 ? "its" : "their") +
                 " instances, as legion_prof draws them), so how close " +
                 (unsized_count == 1 ? "it" : "they") + " came to full is unknown");
}

void duplicate_instances(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const auto min_bytes = ctx.param_bytes("duplicate_instances", "min_bytes");
  bool any_store = false, any_instance = false;
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    const Lane& lane = p.lanes[l];
    if (!is_memory(lane.kind)) continue;
    // The memory's instances by store, then start.
    std::vector<std::tuple<uint64_t, Time, uint32_t>> by_store;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      const Item& it = p.items[i];
      const InstanceInfo* info = p.instance_of(it);
      if (!info) continue;
      any_instance = true;
      const uint64_t store = info->store;
      if (store == 0) continue;
      any_store = true;
      by_store.emplace_back(store, it.start, i);
    }
    std::sort(by_store.begin(), by_store.end());
    Holders extra(p);  // the instances created while another of their store was alive
    Holders all(p);    // every instance of those stores
    Time t0 = INT64_MAX, t1 = INT64_MIN;
    for (size_t b = 0, e = 0; b < by_store.size(); b = e) {
      for (e = b + 1; e < by_store.size() && std::get<0>(by_store[e]) == std::get<0>(by_store[b]);)
        ++e;
      if (e - b < 2) continue;
      Time alive_until = INT64_MIN;
      bool dup = false;
      for (size_t k = b; k < e; ++k) {
        const uint32_t i = std::get<2>(by_store[k]);
        const Item& it = p.items[i];
        if (it.start < alive_until && p.instance_of(it)->bytes >= min_bytes) {
          extra.add(i);
          dup = true;
          t0 = std::min<Time>(t0, it.start);
          t1 = std::max(t1, std::min(it.stop(), alive_until));
        }
        alive_until = std::max(alive_until, it.stop());
      }
      if (dup)
        for (size_t k = b; k < e; ++k) all.add(std::get<2>(by_store[k]));
    }
    if (extra.items().empty()) continue;
    Finding f = memory_finding("duplicate_instances", l, p, all);
    f.bytes = extra.total();
    const double share = lane.capacity_given ? static_cast<double>(extra.total()) /
                                                   static_cast<double>(lane.capacity)
                                             : 0;
    f.title = "Several instances of one array at once in " + memory_name(p, lane);
    f.summary = grouped(all.stores()) + (all.stores() == 1 ? " array had" : " arrays had") +
                " a second instance made while the first was alive, " +
                human_bytes(static_cast<double>(extra.total())) + " in the extra instances" +
                (lane.capacity_given ? " (" + short_percent(share) + " of the memory)" : "") +
                ": an operation on a slice made an instance of just that part, and a later "
                "operation on the whole array needed a new one.";
    f.cost_basis = "not a time: the bytes of the extra instances";
    f.severity = share >= 0.25 || has_oom(p, l) ? Severity::Medium : Severity::Low;
    f.t0 = t0;
    f.t1 = t1;
    f.evidence = {{"arrays", static_cast<double>(all.stores()), "count"},
                  {"extra instances", static_cast<double>(extra.items().size()), "count"},
                  {"bytes in extra instances", static_cast<double>(extra.total()), "bytes"}};
    f.fix =
        "Give the array its full instance first: touch it whole before working on a slice "
        "(b *= 1, or any whole-array operation), or declare how it will be accessed "
        "(stencil_hint(low_offsets=..., high_offsets=...)) so the first instance already "
        "covers what later operations need.";
    out.findings.push_back(std::move(f));
  }
  if (any_instance && !any_store)
    out.skip("duplicate_instances", "the trace does not say which array an instance belongs to");
}

void temporaries(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const auto min_bytes = ctx.param_bytes("temporaries", "min_bytes");
  const Time max_life = ctx.share_of_span(ctx.param("temporaries", "max_life_share"));
  for (const Node& node : p.nodes) {
    Holders h(p);
    std::vector<uint32_t> lanes;
    Time allocating = 0, t0 = INT64_MAX, t1 = INT64_MIN;
    // Stores with more than one instance are not temporaries.
    std::vector<uint64_t> stores;
    const auto memories = lanes_of(p, node.rank,
                                   {LaneKind::SystemMemory, LaneKind::Framebuffer,
                                    LaneKind::ZeroCopy, LaneKind::SocketMemory});
    for (uint32_t l : memories)
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i)
        if (const InstanceInfo* info = p.instance_of(p.items[i])) stores.push_back(info->store);
    std::sort(stores.begin(), stores.end());
    const auto several = [&](uint64_t store) {
      const auto at = std::lower_bound(stores.begin(), stores.end(), store);
      return at + 1 < stores.end() && at[1] == store;
    };
    for (uint32_t l : memories) {
      bool any = false;
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
        const Item& it = p.items[i];
        const InstanceInfo* instance = p.instance_of(it);
        if (!instance) continue;
        const InstanceInfo& info = *instance;
        if (info.bytes < min_bytes || it.duration() > max_life || (it.flags & kItemAliveAtEnd))
          continue;
        if (info.store != 0 && several(info.store)) continue;
        h.add(i);
        any = true;
        allocating += std::max<Time>(0, info.ready - it.start);
        t0 = std::min<Time>(t0, it.start);
        t1 = std::max(t1, it.stop());
      }
      if (any) lanes.push_back(l);
    }
    if (static_cast<double>(h.items().size()) < ctx.param("temporaries", "min_count") ||
        h.items().empty())
      continue;
    Finding f = memory_finding("temporaries", lanes.front(), p, h);
    f.lanes = lanes;
    f.kinds.clear();
    for (uint32_t l : lanes)
      if (std::find(f.kinds.begin(), f.kinds.end(), p.lanes[l].kind) == f.kinds.end())
        f.kinds.push_back(p.lanes[l].kind);
    f.rank = node.rank;
    f.cost = allocating;
    f.cost_basis = "the time spent allocating them (their instances' create to ready)";
    f.title = "Full-size temporaries" + where_node(p, node.rank);
    f.summary = grouped(h.items().size()) + " arrays of at least " +
                human_bytes(static_cast<double>(min_bytes)) + " lived less than " +
                short_ns(static_cast<double>(max_life)) + ", " +
                human_bytes(static_cast<double>(h.total())) +
                " in all: results of expressions used once, each a new allocation.";
    f.severity = Severity::Low;
    f.t0 = t0;
    f.t1 = t1;
    f.evidence = {{"temporaries", static_cast<double>(h.items().size()), "count"},
                  {"bytes", static_cast<double>(h.total()), "bytes"},
                  {"time allocating", static_cast<double>(allocating), "ns"}};
    f.fix =
        "Write results into arrays you already have: add(x, y, out=z), z += y, "
        "multiply(x, y, out=t) reuse memory where z = x + y allocates a new array every time.";
    out.findings.push_back(std::move(f));
  }
}

void out_of_memory(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  for (const ErrorMark& e : p.errors) {
    if (e.kind != trace::ErrorKind::OutOfMemory) continue;
    if (e.lane == kNone || !is_memory(p.lanes[e.lane].kind)) {
      out.skip("out_of_memory", "the out-of-memory error names no memory the trace describes");
      continue;
    }
    const Lane& lane = p.lanes[e.lane];
    const Holders h = alive_at(p, lane, e.time);
    Finding f = memory_finding("out_of_memory", e.lane, p, h);
    f.title = "Out of memory in " + memory_name(p, lane);
    std::string failed;
    if (e.op != kNone) {
      const Operation& op = p.operations[e.op];
      failed = " for " + p.str(op.name) + (op.provenance ? " at " + p.str(op.provenance) : "");
    }
    f.summary =
        "The run failed to allocate" + failed + ": " + lane.name + " held " +
        human_bytes(static_cast<double>(h.total())) +
        (lane.capacity_given ? " of its " + human_bytes(static_cast<double>(lane.capacity)) : "") +
        " in " + grouped(h.items().size()) + " instances of " + grouped(h.stores()) +
        " arrays, listed by the line that allocated each array.";
    f.cost_basis = "the run failed; the bytes held when it did";
    f.severity = Severity::High;
    f.t0 = earliest_start(p, h.items(), e.time);
    f.t1 = e.time;
    f.evidence = {{"held", static_cast<double>(h.total()), "bytes"},
                  {"instances", static_cast<double>(h.items().size()), "count"},
                  {"arrays", static_cast<double>(h.stores()), "count"}};
    if (lane.capacity_given)
      f.evidence.push_back({"capacity", static_cast<double>(lane.capacity), "bytes"});
    f.fix =
        "Hold less at once: touch a sliced array whole first so it has one instance, not "
        "two; update in place (out=, +=) instead of making temporaries; drop arrays no "
        "longer needed; or raise " +
        memory_flag(lane.kind) + ".";
    out.findings.push_back(std::move(f));
  }
}

}  // namespace legato::analysis::findings
