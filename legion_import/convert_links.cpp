// Converter steps that link items: waits and call nesting, instances,
// copies, fills and partitions on their lanes, and the critical path.
#include <algorithm>
#include <deque>
#include <tuple>

#include "legion_import/converter.hpp"
#include "legion_import/critical_path.hpp"

namespace legato::legion::detail {

namespace {

// Realm's dependent-partitioning operation kinds (DepPartOpKind).
std::string dep_part_name(uint32_t k) {
  static constexpr const char* kNames[] = {"Union",
                                           "Unions",
                                           "Union Reduction",
                                           "Intersection",
                                           "Intersections",
                                           "Intersection Reduction",
                                           "Difference",
                                           "Differences",
                                           "Equal Partition",
                                           "Partition by Field",
                                           "Partition by Image",
                                           "Partition by Image Range",
                                           "Partition by Preimage",
                                           "Partition by Preimage Range",
                                           "Association"};
  return k < std::size(kNames) ? kNames[k] : "Dependent Partition " + std::to_string(k);
}

// A backtrace as Realm writes it ("  [3] = /path/lib.so(symbol+0x1f) [0x7f..]"
// per frame), each frame shortened to "  [3] lib.so: symbol+0x1f": the
// library and function a user reads, without directories and addresses
// (kept for frames with nothing else).
std::string readable_backtrace(const std::string& text) {
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(from, end - from);
    from = end + 1;
    const size_t eq = line.find("] = ");
    const size_t open = line.find('(', eq == std::string::npos ? 0 : eq);
    const size_t close = line.rfind(')');
    if (eq == std::string::npos || line.find('[') > eq || open == std::string::npos ||
        close == std::string::npos || close < open) {
      out += (eq == std::string::npos ? line : line.substr(0, eq + 1) + " " + line.substr(eq + 4)) +
             "\n";
      continue;
    }
    const std::string path = line.substr(eq + 4, open - eq - 4);
    const std::string symbol = line.substr(open + 1, close - open - 1);
    const size_t slash = path.rfind('/');
    out += line.substr(0, eq + 1) + " " +
           (slash == std::string::npos ? path : path.substr(slash + 1)) +
           (symbol.empty() ? "" : ": " + symbol) + "\n";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

// An InstRef's fevent and its index in LogData::inst_refs: sorted, an
// fevent's refs in record order.
struct RefAt {
  uint64_t fevent;
  size_t index;
  auto operator<=>(const RefAt&) const = default;
};

// What a wait site is found by: the waiting item's fevent, the event waited on.
std::pair<uint64_t, uint64_t> site_key(const WaitSite& x) {
  return {x.fevent, x.event};
}

}  // namespace

// legion_prof's check: a message's spawn is stamped on the sending node,
// so slow messages show network trouble or clocks that disagree.
void Converter::message_latencies() const {
  const uint64_t messages = d_.items.messages, slow = d_.items.slow_messages;
  if (messages > 0 && slow * 20 > messages) {
    t_.problems.push_back(t_.file + ": " + std::to_string(slow) + " of " +
                          std::to_string(messages) +
                          " messages took over 1 ms from sender to receiver (more than 5%): "
                          "a slow network, or nodes' clocks that disagree");
  }
}

// Calls nest in the item whose fevent they carry, and in each other; they
// are drawn there and are not waits of it (a lane's overlapping items count
// once in utilization). A recorded wait blocks its task or meta task and
// every call of it that contains the wait, so it becomes a wait of each of
// them, and no blocked time counts as busy (LEGION_FORMAT.md §6).
void Converter::waits() {
  // The candidate that each wait blocked (SIZE_MAX: none of this file, left out).
  std::vector<size_t> owner_of(d_.waits.size(), SIZE_MAX);
  // fevent -> the candidate, of the items that waited, and its processor.
  base::IdMap<WaitOwner> owners;
  // Few calls belong to an item that waited: a filter of those items'
  // fevents, small enough for a core's cache, passes their calls (and
  // about 3% of the others) to the map.
  base::IdFilter maybe_owned(32 * d_.waits.size());
  find_wait_owners(owner_of, owners, maybe_owned);
  const size_t placed = record_waits(owner_of, owned_calls(owners, maybe_owned));
  const auto lost = static_cast<uint64_t>(d_.waits.size() - placed);
  if (lost > 0)
    t_.problems.push_back(t_.file + ": " + std::to_string(lost) +
                          " waits name no task or meta task of this file; left out");
}

void Converter::find_wait_owners(std::vector<size_t>& owner_of, base::IdMap<WaitOwner>& owners,
                                 base::IdFilter& maybe_owned) {
  // Recorded waits: a TaskWaitInfo belongs to the task of its op_id, a
  // MetaWaitInfo to the meta task of its (op_id, lg_id), whichever of them
  // ran over the wait (record order does not matter). Candidates sorted by
  // (meta, op, kind, start), in record order among equals.
  auto& cands = candidates_;
  const auto key = [](const auto& x) { return std::make_tuple(x.meta, x.op, x.kind); };
  std::sort(cands.begin(), cands.end(), [&](const Candidate& a, const Candidate& b) {
    return std::make_tuple(key(a), a.start, a.item) < std::make_tuple(key(b), b.start, b.item);
  });
  // The waits in the same order (a task wait's kind counts as 0), so that
  // each finds its candidates by walking forward beside them.
  struct Waited {
    bool meta;
    uint64_t op;
    uint32_t kind;
    uint64_t start;
    size_t wait;
  };
  std::vector<Waited> by_key;
  by_key.reserve(d_.waits.size());
  for (size_t k = 0; k < d_.waits.size(); ++k) {
    const WaitInfo& w = d_.waits[k];
    by_key.push_back(Waited{w.meta, w.op, w.meta ? w.kind : 0u, w.start, k});
  }
  std::sort(by_key.begin(), by_key.end(), [&](const Waited& a, const Waited& b) {
    return std::make_tuple(key(a), a.start, a.wait) < std::make_tuple(key(b), b.start, b.wait);
  });
  ItemTables& items = d_.items;
  auto first = cands.begin(), last = cands.begin();
  for (const Waited& wk : by_key) {
    const WaitInfo& w = d_.waits[wk.wait];
    // first: the first candidate of the wait's key; last: past those of
    // its key that started at or before it.
    while (first != cands.end() && key(*first) < key(wk)) ++first;
    if (last < first) last = first;
    while (last != cands.end() &&
           std::make_tuple(key(*last), last->start) <= std::make_tuple(key(wk), wk.start))
      ++last;
    // The latest-starting candidate that ran over the wait (looking back a
    // bounded number), else the latest one that started before it.
    auto best = last == first ? cands.end() : last - 1;
    for (auto it = last; it != first && last - it < 64;) {
      --it;
      if (w.end <= it->stop) {
        best = it;
        break;
      }
    }
    if (best == cands.end()) continue;
    owner_of[wk.wait] = static_cast<size_t>(best - cands.begin());
    // Only the item that owns its fevent (calls nest in that one).
    if (best->fevent != 0 && items.uid(best->item) == event_uid(best->fevent)) {
      owners.try_emplace(best->fevent,
                         WaitOwner{static_cast<uint32_t>(owner_of[wk.wait]), best->processor});
      maybe_owned.add(best->fevent);
    }
  }
}

std::vector<Converter::NestedCall> Converter::owned_calls(const base::IdMap<WaitOwner>& owners,
                                                          const base::IdFilter& maybe_owned) const {
  std::vector<NestedCall> calls;
  ItemTables& items = d_.items;
  if (owners.size() > 0) {
    // A call that passes the filter has its slot and record prefetched
    // ahead of their reads.
    const size_t n = items.calls.size();
    for (size_t k = 0; k < n; ++k) {
      if (const size_t a = k + base::kPrefetchAhead;
          a < n && maybe_owned.maybe(items.calls[a].fevent)) {
        owners.prefetch(items.calls[a].fevent);
        prefetch_record(items.metas[items.calls[a].meta]);
      }
      if (!maybe_owned.maybe(items.calls[k].fevent)) continue;
      const ItemTables::Call& c = items.calls[k];
      const WaitOwner* owner = owners.find(c.fevent);
      if (owner && owner->processor == c.processor) {
        const trace::MetaTaskRecord& m = items.metas[c.meta];
        calls.push_back(NestedCall{owner->candidate, static_cast<uint64_t>(m.start),
                                   static_cast<uint64_t>(m.stop), kMetaRef | c.meta});
      }
    }
  }
  std::sort(calls.begin(), calls.end(), [](const NestedCall& a, const NestedCall& b) {
    if (a.owner != b.owner) return a.owner < b.owner;
    if (a.start != b.start) return a.start < b.start;
    return a.stop > b.stop || (a.stop == b.stop && a.call < b.call);
  });
  return calls;
}

Converter::WaitSites Converter::wait_sites() const {
  WaitSites sites{d_.wait_sites, {}};
  std::sort(sites.sorted.begin(), sites.sorted.end(),
            [&](const WaitSite& a, const WaitSite& b) { return site_key(a) < site_key(b); });
  return sites;
}

uint32_t Converter::wait_note(WaitSites& sites, uint64_t fevent, uint64_t event) {
  const WaitSite key{fevent, event, 0, 0};
  const auto at = std::lower_bound(
      sites.sorted.begin(), sites.sorted.end(), key,
      [&](const WaitSite& a, const WaitSite& b) { return site_key(a) < site_key(b); });
  if (fevent == 0 || at == sites.sorted.end() || site_key(*at) != site_key(key)) return 0;
  const auto [it, added] = sites.notes.try_emplace({at->backtrace, at->provenance}, 0);
  if (added) {
    std::string note;
    if (const auto p = d_.provenances.find(at->provenance); p != d_.provenances.end())
      note = "in " + std::string(readable_provenance(p->second));
    if (const auto b = d_.backtraces.find(at->backtrace); b != d_.backtraces.end())
      note += (note.empty() ? "" : "\n") + readable_backtrace(b->second);
    if (!note.empty()) it->second = str(note);
  }
  return it->second;
}

size_t Converter::record_waits(const std::vector<size_t>& owner_of,
                               const std::vector<NestedCall>& calls) {
  WaitSites sites = wait_sites();
  // Each item's waits in start order, swept beside its calls in start
  // order: the calls open when a wait starts are a stack (they nest), so a
  // wait finds the calls containing it without scanning the item's
  // earlier calls (a top-level task can hold millions).
  std::vector<size_t> order;
  order.reserve(d_.waits.size());
  for (size_t k = 0; k < d_.waits.size(); ++k)
    if (owner_of[k] != SIZE_MAX) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(owner_of[a], d_.waits[a].start, a) <
           std::make_tuple(owner_of[b], d_.waits[b].start, b);
  });
  auto& out_waits = out<trace::WaitRecord>();
  base::reserve_huge(out_waits, order.size());
  std::vector<const NestedCall*> open;  // outermost first
  auto next = calls.begin();
  for (size_t n = 0; n < order.size(); ++n) {
    const WaitInfo& w = d_.waits[order[n]];
    const size_t owner = owner_of[order[n]];
    if (n == 0 || owner != owner_of[order[n - 1]]) {
      open.clear();
      next = std::lower_bound(calls.begin(), calls.end(), owner,
                              [](const NestedCall& c, size_t o) { return c.owner < o; });
    }
    for (; next != calls.end() && next->owner == owner && next->start <= w.start; ++next) {
      while (!open.empty() && open.back()->stop <= next->start) open.pop_back();
      open.push_back(&*next);
    }
    while (!open.empty() && open.back()->stop < w.start) open.pop_back();
    const uint32_t text = wait_note(sites, candidates_[owner].fevent, w.event);
    const auto add = [&](ItemRef item) {
      add_wait(item, w.start, w.ready, w.end, w.event);
      if (text != 0) t_.wait_notes.emplace_back(out_waits.size() - 1, text);
    };
    add(candidates_[owner].item);
    for (const NestedCall* c : open)  // each started at or before the wait
      if (w.end <= c->stop) add(c->call);
  }
  return order.size();
}

void Converter::add_wait(ItemRef item, uint64_t start, uint64_t ready, uint64_t end,
                         uint64_t event) {
  out<trace::WaitRecord>().push_back(
      trace::WaitRecord{d_.items.uid(item), to_time(start), to_time(std::max(ready, start)),
                        to_time(std::max(end, start)), event_uid(event)});
}

// Before 2022-10 an instance was three records by its inst_id:
// InstCreateInfo (when it was asked for), InstUsageInfo (its memory and
// size) and InstTimelineInfo (created and destroyed). Each timeline without
// a memory takes its usage's, and a usage without a timeline is an
// instance from its creation to the end of the log.
void Converter::merge_older_instances() {
  if (d_.inst_usages.empty()) return;
  base::IdMap<uint32_t> usage_of;  // inst_id -> index in inst_usages
  for (size_t k = 0; k < d_.inst_usages.size(); ++k)
    usage_of.try_emplace(d_.inst_usages[k].inst_id, static_cast<uint32_t>(k));
  std::vector<uint8_t> timed(d_.inst_usages.size(), 0);
  for (InstInfo& in : d_.instances) {
    const uint32_t* u = in.mem == 0 ? usage_of.find(in.inst_id) : nullptr;
    if (!u) continue;
    in.mem = d_.inst_usages[*u].mem;
    in.size = d_.inst_usages[*u].size;
    if (in.op == 0) in.op = d_.inst_usages[*u].op;
    timed[*u] = 1;
  }
  base::IdMap<uint64_t> created;  // inst_id -> InstCreateInfo's time
  for (const auto& [inst, at] : d_.inst_creates) created.try_emplace(inst, at);
  uint64_t last = 0;  // the log's last time, computed once needed
  const auto last_time = [&] {
    if (last != 0) return last;
    for (const auto& t : d_.items.tasks) last = std::max(last, static_cast<uint64_t>(t.stop));
    for (const auto& m : d_.items.metas) last = std::max(last, static_cast<uint64_t>(m.stop));
    for (const auto& c : d_.channel_items) last = std::max(last, c.stop);
    for (const auto& i : d_.instances) last = std::max(last, i.destroy);
    return last;
  };
  for (size_t k = 0; k < d_.inst_usages.size(); ++k) {
    if (timed[k]) continue;
    const InstUsage& u = d_.inst_usages[k];
    const uint64_t* at = created.find(u.inst_id);
    InstInfo in;
    in.inst_id = u.inst_id;
    in.mem = u.mem;
    in.size = u.size;
    in.op = u.op;
    in.create = in.ready = at ? *at : 0;
    in.destroy = std::max(in.create, last_time());
    d_.instances.push_back(in);
  }
}

void Converter::instances() {
  base::reserve_huge(out<trace::InstanceRecord>(), d_.instances.size());
  for (const InstInfo& in : d_.instances) {
    trace::InstanceRecord r;
    r.uid = in.inst_uid != 0 ? event_uid(in.inst_uid) : synthetic_uid();
    r.memory = mem_res(in.mem);
    r.op = in.op;
    r.bytes = in.size;
    r.store = in.inst_id;
    char name[32] = "Instance ";  // as legion_prof names it; one name per instance
    const char* end = write_hex(name + 9, in.inst_id);
    r.name = new_str(std::string_view(name, static_cast<size_t>(end - name)));
    r.create = to_time(in.create);
    r.ready = to_time(std::max(in.ready, in.create));
    r.destroy = to_time(std::max(in.destroy, in.ready));
    out<trace::InstanceRecord>().push_back(r);
  }
}

std::string Converter::mem_label(uint64_t mem) const {
  const auto n = mem_name_.find(mem);
  // Another node's memory (its file describes it): named by node and index.
  return n != mem_name_.end() ? n->second
                              : "node " + std::to_string(node_of_mem(mem)) + " mem " +
                                    std::to_string(index_of_mem(mem));
}

uint32_t Converter::channel(trace::CopyKind copy, uint64_t src, uint64_t dst) {
  const auto [it, added] =
      channels_.try_emplace(std::make_tuple(static_cast<int>(copy), src, dst), 0);
  if (!added) return it->second;
  const trace::ChannelKind kind =
      copy == trace::CopyKind::Fill ? trace::ChannelKind::Fill : copy_channel_kind(src, dst);
  const uint32_t seq =
      std::min<uint32_t>(static_cast<uint32_t>(channels_.size() - 1), kMaxChannels);
  const uint32_t id = trace::make_resource_id(node_, kChannelLane + seq);
  it->second = id;
  std::string name;
  switch (copy) {
    case trace::CopyKind::Fill:
      name = "fill " + mem_label(dst);
      break;
    case trace::CopyKind::Gather:
      name = "gather " + mem_label(src) + " -> " + mem_label(dst);
      break;
    case trace::CopyKind::Scatter:
      name = "scatter " + (src ? mem_label(src) + " " : "") + "-> " + mem_label(dst);
      break;
    default:
      name = mem_label(src) + " -> " + mem_label(dst);
      break;
  }
  out<trace::ChannelRecord>().push_back(trace::ChannelRecord{
      id, kind, src ? mem_res(src) : mem_res(dst), mem_res(dst ? dst : src), str(name)});
  return id;
}

trace::ChannelKind Converter::copy_channel_kind(uint64_t src, uint64_t dst) const {
  if (src && dst && node_of_mem(src) != node_of_mem(dst)) return trace::ChannelKind::Network;
  const auto dev = [&](uint64_t m) {
    const auto f = mem_device_.find(m);
    return f != mem_device_.end() && f->second;
  };
  const bool s = dev(src), t = dev(dst);
  if (s && t) return trace::ChannelKind::DeviceToDevice;
  if (s) return trace::ChannelKind::DeviceToHost;
  if (t) return trace::ChannelKind::HostToDevice;
  return trace::ChannelKind::HostCopy;
}

// Copies and fills go on channels chosen by their CopyInstInfo /
// FillInstInfo (one item per run of the same src, dst and indirection;
// none without any), partitions on the node's dependent-partitioning lane.
void Converter::channels() {
  base::reserve_huge(out<trace::CopyRecord>(), d_.channel_items.size());
  // Each copy's CopyInstInfo / FillInstInfo records, by fevent, in record order.
  std::vector<RefAt> refs(d_.inst_refs.size());
  for (size_t k = 0; k < refs.size(); ++k) refs[k] = RefAt{d_.inst_refs[k].fevent, k};
  std::sort(refs.begin(), refs.end());
  bool dep_lane = false;
  uint64_t unplaced[2] = {0, 0};   // copies and fills without memories
  std::deque<InstRef> older_refs;  // refs completed with their copy's memories (stable addresses)
  // Channel item k is position first_channel + k of repeated_events_.
  const size_t first_channel = path_->inputs().items.size();
  auto repeat = std::lower_bound(repeated_events_.begin(), repeated_events_.end(), first_channel);
  for (size_t k = 0; k < d_.channel_items.size(); ++k) {
    const ChannelItem& c = d_.channel_items[k];
    const bool repeated = repeat != repeated_events_.end() && *repeat == first_channel + k;
    repeat += repeated;
    const bool first = c.fevent != 0 && !repeated;
    const Uid uid = first ? event_uid(c.fevent) : synthetic_uid();
    if (c.type == ChannelItem::DepPart) {
      const uint32_t lane = trace::make_resource_id(node_, kDepPartLane);
      if (!dep_lane) {
        dep_lane = true;
        out<trace::ProcessorRecord>().push_back(trace::ProcessorRecord{
            lane, trace::ProcKind::DepPart, 0, str("dp0"), trace::kNoResource});
      }
      out<trace::DepPartRecord>().push_back(
          trace::DepPartRecord{uid, c.op, lane, str(dep_part_name(c.part_op)), to_time(c.start),
                               to_time(c.stop), to_time(c.ready), to_time(c.create)});
      channel_uids_.push_back(uid);
      continue;
    }
    // Its CopyInstInfo / FillInstInfo records; an older copy or fill, which
    // has none, names its memories itself.
    auto from = std::lower_bound(refs.begin(), refs.end(), RefAt{c.fevent, 0});
    if (c.fevent == 0) from = refs.end();
    auto end = from;
    while (end != refs.end() && end->fevent == c.fevent) ++end;
    const InstRef own{c.fevent, c.type == ChannelItem::Fill ? 0 : c.src, c.dst, 0, 0, false};
    const bool named_by_itself = from == end && c.dst != 0;
    if (from == end && !named_by_itself) {
      ++unplaced[c.type];
      channel_uids_.push_back(0);
      continue;
    }
    Uid item_uid = uid;
    const InstRef* prev = nullptr;
    for (auto ref = from; ref != end || named_by_itself; ++ref) {
      const InstRef* r = named_by_itself ? &own : &d_.inst_refs[ref->index];
      if (r->dst == 0 && c.dst != 0) {  // a CopyInstInfo of 2020-12..2022-10: instances only
        InstRef with = *r;
        with.src = c.type == ChannelItem::Fill ? 0 : c.src;
        with.dst = c.dst;
        with.src_inst = with.dst_inst = 0;  // InstIDs then, not the instances' events
        r = &(older_refs.emplace_back(with));
      }
      if (prev && !r->indirect && !prev->indirect && r->src == prev->src && r->dst == prev->dst)
        continue;  // the same run
      prev = r;
      trace::CopyRecord cr;
      cr.uid = item_uid;
      cr.op = c.op;
      cr.bytes = c.size;
      cr.src_instance = event_uid(r->src_inst);
      cr.dst_instance = event_uid(r->dst_inst);
      cr.start = to_time(c.start);
      cr.stop = to_time(c.stop);
      cr.ready = to_time(c.ready);
      cr.create = to_time(c.create);
      cr.copy_kind = c.type == ChannelItem::Fill ? trace::CopyKind::Fill
                     : r->indirect && r->src     ? trace::CopyKind::Gather
                     : r->indirect               ? trace::CopyKind::Scatter
                     : c.redop != 0              ? trace::CopyKind::Reduce
                                                 : trace::CopyKind::Copy;
      // A reduction copy runs on its memories' channel, as other copies do.
      cr.channel = c.type == ChannelItem::Fill ? channel(cr.copy_kind, r->dst, r->dst)
                   : cr.copy_kind == trace::CopyKind::Reduce
                       ? channel(trace::CopyKind::Copy, r->src, r->dst)
                       : channel(cr.copy_kind, r->src, r->dst);
      out<trace::CopyRecord>().push_back(cr);
      item_uid = synthetic_uid();
      if (named_by_itself) break;
    }
    channel_uids_.push_back(uid);
  }
  // Copies and fills that name no memory (no CopyInstInfo / FillInstInfo
  // and none of their own: a log cut before them) cannot be placed on a
  // channel: counted, never dropped silently.
  for (const ChannelItem::Type type : {ChannelItem::Copy, ChannelItem::Fill}) {
    if (unplaced[type] == 0) continue;
    const bool copy = type == ChannelItem::Copy;
    t_.problems.push_back(t_.file + ": " + std::to_string(unplaced[type]) +
                          (copy ? " copies" : " fills") + " name no memories (no " +
                          (copy ? "CopyInstInfo" : "FillInstInfo") +
                          " records for them: a log cut short?); left out of the channels");
  }
}

// The critical path's inputs; the edges come once the run's files are read
// (resolve_links).
void Converter::links() {
  PathInputs& in = path_->inputs();
  for (size_t i = 0; i < d_.channel_items.size(); ++i) {
    const ChannelItem& c = d_.channel_items[i];
    in.items.push_back(TimedItem{c.fevent, c.creator, c.critical, c.create, c.stop});
    in.uids.push_back(channel_uids_[i]);
  }
  in.events = std::move(d_.events);
  t_.late_edges = std::move(path_);
}

}  // namespace legato::legion::detail
