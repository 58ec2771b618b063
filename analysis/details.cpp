#include "analysis/details.hpp"

#include <unordered_set>

namespace legato::analysis {

std::string_view precondition_name(uint8_t kind) {
  if (kind == kMappedBy) return "mapped by";
  return trace::to_string(static_cast<trace::EdgeKind>(kind));
}

std::string describe(const Profile& p, uint32_t item) {
  const uint32_t l = p.lane_of(item);
  std::string out = p.label(item) + " (" + std::string(p.kind_name(item)) + ")";
  if (l != kNone) out += " on " + p.lanes[l].name + ", node " + std::to_string(p.lanes[l].rank);
  return out;
}

uint32_t last_precondition(const Profile& p, uint32_t item) {
  uint32_t best = kNone;
  p.for_each_precondition(item, [&](const Precondition& x) {
    if (best == kNone || p.items[x.item].stop() > p.items[best].stop()) best = x.item;
  });
  return best;
}

std::vector<uint32_t> critical_path(const Profile& p, uint32_t item, size_t max_steps) {
  std::vector<uint32_t> chain{item};
  std::unordered_set<uint32_t> seen{item};
  for (size_t step = 0; step < max_steps; ++step) {
    const uint32_t next = last_precondition(p, chain.back());
    if (next == kNone || !seen.insert(next).second) break;
    chain.push_back(next);
  }
  return chain;
}

ItemDetails details(const Profile& p, uint32_t item) {
  ItemDetails d;
  const Item& it = p.items[item];
  d.item = item;
  d.kind = it.kind;
  d.name = p.label(item);
  if (it.kind == ItemKind::GpuKernel) d.signature = p.str(p.kernel_signature(it.name));
  const uint32_t l = p.lane_of(item);
  if (l != kNone) {
    d.lane = p.lanes[l].name + " (node " + std::to_string(p.lanes[l].rank) + ")";
    d.rank = p.lanes[l].rank;
  }
  if (it.op != kNone) {
    const Operation& op = p.operations[it.op];
    d.operation = p.str(op.name);
    d.op_id = op.uid & ((uint64_t{1} << 48) - 1);
    d.provenance = p.str(op.provenance);
    d.creator = op.parent;
  }
  if (it.kind == ItemKind::UserRange) d.provenance = p.str(p.range_provenance(it));
  d.start = it.start;
  d.stop = it.stop();
  d.ready = p.ready_of(item);
  d.create = p.create_of(item);
  if (const InstanceInfo* info = p.instance_of(it)) {
    d.bytes = info->bytes;
    d.ready = info->ready;
    if (d.provenance.empty()) d.provenance = p.str(info->provenance);
  }
  if (const CopyInfo* copy = p.copy_of(it)) {
    d.bytes = copy->bytes;
    if (it.duration() > 0)
      d.bandwidth = static_cast<double>(d.bytes) * 1e9 / static_cast<double>(it.duration());
  }
  if (it.op != kNone && it.kind != ItemKind::MetaTask && it.kind != ItemKind::Instance) {
    uint64_t siblings = 0;  // the operation's items, this one included
    for (const Lane& lane : p.lanes) {
      if (is_memory(lane.kind)) continue;
      for (uint32_t i = lane.begin; i < lane.end; ++i) {
        const Item& x = p.items[i];
        if (x.op != it.op) continue;
        if (x.kind == ItemKind::MetaTask) {
          d.operation_runtime += x.duration();
        } else {
          ++siblings;
        }
      }
    }
    d.runtime_overhead = siblings ? d.operation_runtime / static_cast<Time>(siblings) : 0;
  }
  d.waiting_for_dependencies = d.ready - d.create;
  d.waiting_for_processor = d.start - d.ready;
  const auto [w, wend] = p.waits_of(item);
  for (const Wait* x = w; x != wend; ++x) {
    d.blocked += std::max<Time>(0, x->ready - x->start);
    d.resuming += std::max<Time>(0, x->end - x->ready);
    if (const uint32_t note = p.wait_note(x); note != 0 && d.noted_waits.size() < kMaxNotedWaits)
      d.noted_waits.push_back(WaitDetail{x->start, x->ready, x->end, x->event, p.str(note)});
  }
  d.running = it.duration() - d.blocked - d.resuming;
  if (l != kNone) {
    // The item on the same lane that ended last before this one started.
    const Lane& lane = p.lanes[l];
    for (const Row& row : lane.rows) {
      const auto* base = p.items.data();
      const auto* at = std::partition_point(base + row.begin, base + row.end,
                                            [&](const Item& x) { return x.stop() <= it.start; });
      if (at == base + row.begin) continue;
      const auto cand = static_cast<uint32_t>(at - base) - 1;
      if (cand != item &&
          (d.previous == kNone || p.items[cand].stop() > p.items[d.previous].stop()))
        d.previous = cand;
    }
  }
  p.for_each_precondition(item, [&](const Precondition& x) { d.preconditions.push_back(x); });
  d.critical = last_precondition(p, item);
  for (const Precondition& x : d.preconditions) {
    if (x.item == d.critical) d.critical_kind = x.kind;
  }
  return d;
}

}  // namespace legato::analysis
