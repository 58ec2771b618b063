#include "analysis/profile.hpp"

#include "analysis/units.hpp"

#include <algorithm>

namespace legato::analysis {

std::string_view to_string(LaneKind k) {
  static constexpr std::string_view kNames[] = {
      "CPU",       "GPU Device",    "GPU Host",      "Utility",
      "IO",        "OpenMP",        "Python",        "Dependent Partitioning",
      "Profiler",  "Threads",       "System Memory", "Framebuffer",
      "Zero-Copy", "Socket Memory", "Channel"};
  static_assert(std::size(kNames) == kLaneKinds, "one name for each LaneKind, in its order");
  const auto i = static_cast<size_t>(k);
  return i < kLaneKinds ? kNames[i] : "unknown";
}

std::string_view to_string(ItemKind k) {
  switch (k) {
    case ItemKind::Task:
      return "task";
    case ItemKind::MetaTask:
      return "runtime work";
    case ItemKind::Copy:
      return "copy";
    case ItemKind::Fill:
      return "fill";
    case ItemKind::Instance:
      return "instance";
    case ItemKind::DepPart:
      return "partitioning";
    case ItemKind::GpuKernel:
      return "GPU kernel";
    case ItemKind::UserRange:
      return "range";
  }
  return "unknown";
}

std::string Profile::label(uint32_t item) const {
  const Item& it = items[item];
  if (it.name != 0 && !strings[it.name].empty()) return strings[it.name];
  if (it.op != kNone && !strings[operations[it.op].name].empty())
    return strings[operations[it.op].name];
  return std::string(to_string(it.kind));
}

std::string_view copy_kind_name(trace::CopyKind k) {
  switch (k) {
    case trace::CopyKind::Reduce:
      return "reduction copy";
    case trace::CopyKind::Gather:
      return "gather copy";
    case trace::CopyKind::Scatter:
      return "scatter copy";
    default:
      return {};
  }
}

std::string_view Profile::kind_name(uint32_t item) const {
  const Item& it = items[item];
  if (it.kind == ItemKind::Copy) {
    const std::string_view name = copy_kind_name(copy_of(it)->kind);
    if (!name.empty()) return name;
  }
  return to_string(it.kind);
}

std::string Profile::node_label(const Node& n) const {
  std::vector<std::string> parts;
  if (!n.host.empty()) parts.push_back(n.host);
  for (const auto& r : ranks) {
    if (r.rank != n.rank) continue;
    const auto a = r.metadata.find("clock_alignment");
    if (a == r.metadata.end() || !a->is_object()) continue;
    const auto u = a->find("uncertainty_ns");
    if (u != a->end() && u->is_number()) parts.push_back("clock ±" + human_ns(u->get<double>()));
  }
  std::string out = "Node " + std::to_string(n.rank);
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? " (" : ", ") + parts[i];
  return parts.empty() ? out : out + ")";
}

uint32_t Profile::lane_of(uint32_t item) const {
  // Lanes hold consecutive item ranges in lane order; empty lanes hold none.
  const auto it = std::upper_bound(lanes.begin(), lanes.end(), item,
                                   [](uint32_t i, const Lane& l) { return i < l.begin; });
  auto l = static_cast<uint32_t>(it - lanes.begin());
  while (l > 0 && lanes[l - 1].begin == lanes[l - 1].end) --l;  // skip empty lanes
  return l == 0 ? kNone : l - 1;
}

uint32_t Profile::row_of(uint32_t lane, uint32_t item) const {
  const auto& rows = lanes[lane].rows;
  const auto it = std::upper_bound(rows.begin(), rows.end(), item,
                                   [](uint32_t i, const Row& r) { return i < r.end; });
  return static_cast<uint32_t>(it - rows.begin());
}

Time Profile::ready_of(uint32_t item) const {
  const Item& it = items[item];
  if (has_timing_overflow(it)) return timing_overflow.at(item).first;
  return it.start - it.to_ready;
}

Time Profile::create_of(uint32_t item) const {
  const Item& it = items[item];
  if (has_timing_overflow(it)) return timing_overflow.at(item).second;
  const uint32_t* to_create = Item::to_create_slot(it, copies);
  return it.start - it.to_ready - (to_create ? *to_create : 0);
}

std::pair<const Precondition*, const Precondition*> Profile::recorded_preconditions(
    uint32_t item) const {
  const uint32_t b = item / kPreBlock;
  if (b + 1 >= pre_block.size()) return {nullptr, nullptr};
  const Precondition *first = pre.data() + pre_block[b], *last = pre.data() + pre_block[b + 1];
  const auto at = static_cast<uint8_t>(item % kPreBlock);
  first =
      std::lower_bound(first, last, at, [](const Precondition& c, uint8_t a) { return c.at < a; });
  last =
      std::upper_bound(first, last, at, [](uint8_t a, const Precondition& c) { return a < c.at; });
  return {first, last};
}

std::pair<const Wait*, const Wait*> Profile::waits_of(uint32_t item) const {
  if (!(items[item].flags & kItemHasWaits)) return {nullptr, nullptr};
  const auto range = std::equal_range(waits.begin(), waits.end(), Wait{item, 0, 0, 0, 0},
                                      [](const Wait& a, const Wait& b) { return a.item < b.item; });
  return {waits.data() + (range.first - waits.begin()),
          waits.data() + (range.second - waits.begin())};
}

uint32_t Profile::wait_note(const Wait* w) const {
  const auto k = static_cast<uint32_t>(w - waits.data());
  const auto it = std::lower_bound(wait_notes.begin(), wait_notes.end(), std::make_pair(k, 0u));
  return it != wait_notes.end() && it->first == k ? it->second : 0;
}

uint32_t Profile::kernel_signature(uint32_t name) const {
  const auto it = std::lower_bound(kernel_signatures.begin(), kernel_signatures.end(),
                                   std::make_pair(name, 0u));
  return it != kernel_signatures.end() && it->first == name ? it->second : 0;
}

Time Profile::busy_between(uint32_t begin, uint32_t end) const {
  const auto prefix = [&](uint32_t x) {
    Time sum = busy_blocks[x / 16];
    for (uint32_t i = x & ~15u; i < x; ++i) sum += items[i].duration();
    return sum;
  };
  return prefix(end) - prefix(begin);
}

size_t Profile::memory_bytes() const {
  size_t n = items.capacity() * sizeof(Item) + operations.capacity() * sizeof(Operation) +
             copies.capacity() * sizeof(CopyInfo) + instances.capacity() * sizeof(InstanceInfo) +
             kernels.capacity() * sizeof(KernelInfo) + waits.capacity() * sizeof(Wait) +
             pre.capacity() * sizeof(Precondition) + pre_block.capacity() * sizeof(uint32_t) +
             busy_blocks.capacity() * sizeof(Time) + fold_blocks.capacity() * sizeof(float) +
             lead_blocks.capacity() + lead_groups.capacity() * sizeof(uint16_t) +
             errors.capacity() * sizeof(ErrorMark) + wait_notes.capacity() * sizeof(wait_notes[0]) +
             kernel_signatures.capacity() * sizeof(kernel_signatures[0]) +
             timing_overflow.size() * (sizeof(uint32_t) + 2 * sizeof(Time) + 16);
  for (const auto& s : strings) n += sizeof(std::string) + s.capacity();
  for (const auto& l : lanes) n += sizeof(Lane) + l.rows.capacity() * sizeof(Row);
  return n;
}

}  // namespace legato::analysis
