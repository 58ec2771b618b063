// Builder steps: strings, lanes, operations, and items stacked into rows.
#include <algorithm>
#include <bit>
#include <map>
#include <queue>
#include <stdexcept>
#include <string_view>

#include "analysis/build.hpp"
#include "analysis/builder.hpp"
#include "analysis/details.hpp"
#include "base/parallel.hpp"

namespace legato::analysis::detail {

namespace {

// Operation::kind holds 5 bits: a kind this version does not know (a
// damaged or newer trace) is kept as 0, which prints as "unknown", rather
// than cut to another kind's value.
static_assert(static_cast<int>(trace::OpKind::Collect) < 32);
trace::OpKind kept_op_kind(trace::OpKind k) {
  return k <= trace::OpKind::Collect ? k : trace::OpKind{0};
}

LaneKind lane_kind(trace::ProcKind k) {
  switch (k) {
    case trace::ProcKind::Cpu:
      return LaneKind::Cpu;
    case trace::ProcKind::Utility:
      return LaneKind::Utility;
    case trace::ProcKind::Io:
      return LaneKind::Io;
    case trace::ProcKind::GpuHost:
      return LaneKind::GpuHost;
    case trace::ProcKind::GpuDevice:
      return LaneKind::GpuDevice;
    case trace::ProcKind::OpenMp:
      return LaneKind::OpenMp;
    case trace::ProcKind::Python:
      return LaneKind::Python;
    case trace::ProcKind::DepPart:
      return LaneKind::DepPart;
    case trace::ProcKind::Profiler:
      return LaneKind::Profiler;
    case trace::ProcKind::Thread:
      break;
  }
  return LaneKind::Thread;
}

LaneKind lane_kind(trace::MemKind k) {
  switch (k) {
    case trace::MemKind::System:
      return LaneKind::SystemMemory;
    case trace::MemKind::Framebuffer:
      return LaneKind::Framebuffer;
    case trace::MemKind::ZeroCopy:
      return LaneKind::ZeroCopy;
    case trace::MemKind::Socket:
      break;
  }
  return LaneKind::SocketMemory;
}

// Short lane names when a trace gives none: c0, u1, io0, g0d, sysmem...
std::string short_name(LaneKind k, uint32_t index) {
  static constexpr const char* kPrefix[] = {"c",      "g",     "g",     "u",         "io",
                                            "omp",    "py",    "dp",    "prof",      "t",
                                            "sysmem", "fbmem", "zcmem", "socketmem", "chan"};
  static_assert(std::size(kPrefix) == kLaneKinds, "one prefix for each LaneKind, in its order");
  std::string n = kPrefix[static_cast<int>(k)] + std::to_string(index);
  if (k == LaneKind::GpuDevice) n += "d";
  if (k == LaneKind::GpuHost) n += "h";
  return n;
}

// Rows for items sorted by start: each goes to the lowest row free at its
// start, that is whose last item stopped by then (starts only grow). Lanes
// almost always need a few rows, found by scanning each row's last stop;
// past kScanRows rows, two heaps give the same rows.
std::vector<uint32_t> stack_rows(const std::vector<Time>& starts, const std::vector<Time>& stops,
                                 uint32_t& nrows) {
  constexpr uint32_t kScanRows = 16;
  std::vector<uint32_t> row(starts.size());
  Time last_stop[kScanRows];
  nrows = 0;
  size_t i = 0;
  for (; i < starts.size(); ++i) {
    uint32_t r = 0;
    while (r < nrows && last_stop[r] > starts[i]) ++r;
    if (r == kScanRows) break;
    nrows = std::max(nrows, r + 1);
    last_stop[r] = stops[i];
    row[i] = r;
  }
  if (i == starts.size()) return row;
  using Busy = std::pair<Time, uint32_t>;  // stop, row
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free_rows;
  for (uint32_t r = 0; r < nrows; ++r) busy.push({last_stop[r], r});
  for (; i < starts.size(); ++i) {
    while (!busy.empty() && busy.top().first <= starts[i]) {
      free_rows.push(busy.top().second);
      busy.pop();
    }
    uint32_t r;
    if (free_rows.empty()) {
      r = nrows++;
    } else {
      r = free_rows.top();
      free_rows.pop();
    }
    row[i] = r;
    busy.push({stops[i], r});
  }
  return row;
}

}  // namespace

uint32_t Builder::undefined_str(size_t rank, uint32_t file_id) {
  const auto [it, added] = undefined_.try_emplace({rank, file_id}, 0);
  if (added) it->second = new_string(trace::undefined_string_text(file_id));
  return it->second;
}

uint32_t Builder::new_string(std::string text) {
  if (p_.strings.size() + 1 < kMaxStrings) {
    p_.strings.push_back(std::move(text));
    return static_cast<uint32_t>(p_.strings.size() - 1);
  }
  // The last index an item's name can hold stands for all the rest.
  if (p_.strings.size() + 1 == kMaxStrings)
    p_.strings.push_back("<name left out: over " + std::to_string(kMaxStrings - 1) +
                         " distinct names>");
  ++strings_left_out_;
  return kMaxStrings - 1;
}

void Builder::undefined_strings() {
  if (strings_left_out_ > 0)
    warn_count(strings_left_out_,
               "names were left out: the run has more distinct names than "
               "the model can hold (" +
                   std::to_string(kMaxStrings - 1) + "); shown as \"" + p_.str(kMaxStrings - 1) +
                   "\"");
  if (undefined_.empty()) return;
  const auto& [where, placeholder] = *undefined_.begin();
  p_.warnings.push_back(std::to_string(undefined_.size()) +
                        " string ids are used but never defined in their file, e.g. id " +
                        std::to_string(where.second) + " in " + traces_[where.first].file +
                        " (a lost frame or a damaged record?); shown as \"" + p_.str(placeholder) +
                        "\"");
}

void Builder::strings() {
  size_t total = 0;
  for (const auto& t : traces_) total += t.strings.size();
  p_.strings.reserve(p_.strings.size() + total);
  // Texts seen so far, by hash, open addressing: each slot the index + 1 of
  // a profile string (0: free), at most half of them used.
  std::vector<uint32_t> slots(std::bit_ceil(std::max<size_t>(16, 2 * total)));
  const size_t mask = slots.size() - 1;
  const std::hash<std::string_view> hash;
  const size_t first = p_.strings.size();  // slots index the strings added here
  string_remap_.resize(traces_.size());
  for (size_t r = 0; r < traces_.size(); ++r) {
    for (auto& [id, text] : traces_[r].strings) {
      size_t h = hash(text) & mask;
      while (slots[h] != 0 && p_.strings[first + slots[h] - 1] != text) h = (h + 1) & mask;
      if (slots[h] != 0) {
        string_remap_[r].add(id, static_cast<uint32_t>(first + slots[h] - 1));
        continue;
      }
      const uint32_t index = new_string(std::move(text));
      if (index != kMaxStrings - 1) slots[h] = index - static_cast<uint32_t>(first) + 1;
      string_remap_[r].add(id, index);
    }
    string_remap_[r].build();
    traces_[r].strings.clear();
  }
}

void Builder::lanes() {
  // Adds the lane of a described resource; false where another file described it first.
  const auto add = [&](size_t r, uint32_t id, LaneKind kind, uint32_t index, uint32_t name) {
    if (lane_of_resource_.contains(id)) return false;
    Lane l;
    l.kind = kind;
    l.rank = p_.ranks[r].rank;
    l.resource = id;
    l.name = name ? p_.str(str(r, name)) : short_name(kind, index);
    if (l.name.empty()) l.name = short_name(kind, index);
    lane_of_resource_[id] = static_cast<uint32_t>(p_.lanes.size());
    p_.lanes.push_back(std::move(l));
    return true;
  };
  for (size_t r = 0; r < traces_.size(); ++r) {
    const auto& all = traces_[r].all;
    for (const auto& pr : all.get<trace::ProcessorRecord>())
      add(r, pr.id, lane_kind(pr.proc_kind), pr.index, pr.name);
    uint32_t mem_index = 0;
    for (const auto& m : all.get<trace::MemoryRecord>()) {
      const bool added = add(r, m.id, lane_kind(m.mem_kind), mem_index++, m.name);
      const uint32_t l = lane_of_resource_[m.id];
      if (m.capacity > 0) {
        p_.lanes[l].capacity = m.capacity;
        p_.lanes[l].capacity_given = true;
      } else if (added) {
        sized_by_instances_.push_back(l);
      }
    }
    uint32_t chan_index = 0;
    for (const auto& c : all.get<trace::ChannelRecord>())
      add(r, c.id, LaneKind::Channel, chan_index++, c.name);
  }
}

// The lane of a resource other than the last one's: a described one, or a
// lane made for an id no descriptor named (its descriptor frame was lost).
uint32_t Builder::find_lane(size_t rank, uint32_t resource, LaneKind fallback) {
  if (const uint32_t* known = lane_of_resource_.find(resource)) {
    last_lane_ = {resource, *known};
    return *known;
  }
  Lane l;
  l.kind = fallback;
  l.rank = p_.ranks[rank].rank;
  l.resource = resource;
  l.name = short_name(fallback, resource & 0xffff) + "?";
  if (undescribed_count_ < 3) undescribed_ += (undescribed_.empty() ? "" : ", ") + l.name;
  ++undescribed_count_;
  if (is_memory(fallback)) ++undescribed_memories_;  // capacity stays 0: unknown
  const auto id = static_cast<uint32_t>(p_.lanes.size());
  lane_of_resource_[resource] = id;
  p_.lanes.push_back(std::move(l));
  return id;
}

void Builder::operations() {
  // A uid recorded twice (a damaged file) keeps its first operation; the
  // second stays in the table, unreferenced.
  size_t n = 0;
  for (const auto& t : traces_) n += t.count<trace::OperationRecord>();
  base::reserve_huge(p_.operations, n);
  std::vector<Uid> parents;
  base::reserve_huge(parents, n);
  for (size_t r = 0; r < traces_.size(); ++r) {
    for (const auto& o : traces_[r].all.get<trace::OperationRecord>()) {
      op_of_uid_.add(o.uid, static_cast<uint32_t>(p_.operations.size()));
      p_.operations.push_back(Operation{o.uid, kNone, str(r, o.name), kept_op_kind(o.op_kind),
                                        str(r, o.provenance), kNone});
      parents.push_back(o.parent);
    }
    release<trace::OperationRecord>(traces_[r]);
  }
  op_of_uid_.build();
  for (size_t i = 0; i < parents.size(); ++i) p_.operations[i].parent = op(parents[i]);
  if (const uint64_t n = op_of_uid_.duplicates()) {
    const DuplicateId d = op_of_uid_.duplicate_example();
    const auto name = [&](uint32_t o) {
      const std::string& s = p_.str(p_.operations[o].name);
      return s.empty() ? std::string("(unnamed)") : "'" + s + "'";
    };
    p_.warnings.push_back(std::to_string(n) +
                          " operations reuse the uid of another operation, e.g. uid " +
                          std::to_string(d.id) + ": " + name(d.first) + " and " + name(d.second) +
                          "; items of such a uid belong to the first");
  }
}

Time Builder::clamp_time(size_t r, Time t) {
  if (t > kTimeLimit || t < -kTimeLimit) {
    ++clamped_times_;
    t = std::clamp(t, -kTimeLimit, kTimeLimit);
  }
  return std::clamp(t + p_.ranks[r].clock_shift, -kTimeLimit, kTimeLimit);
}

void Builder::items() {
  count_pieces();
  // The pieces, staged by up to threads_ threads: those started here, and
  // one that help_staging() lends.
  const unsigned workers = std::max(1u, threads_ - 1);
  stagers_.assign(workers + 1, Stager{});
  staging_.open(pieces_.size());
  base::parallel_for(workers, workers, [&](unsigned worker, size_t) { stage_pieces(worker); });
  staging_.finish();
  for (const Stager& s : stagers_) {
    bad_times_ += s.bad_times;
    staged_overflow_.insert(s.overflow.begin(), s.overflow.end());
  }
  stagers_.clear();
  pieces_.clear();
  pieces_left_.clear();
  task_names_.clear();
  warn_count(bad_times_, "items stopped before they started; drawn with no duration");
  warn_count(clamped_times_.load(),
             "times lie more than 52 days from the run's start (damaged "
             "records?); clamped");
  warn_count(undescribed_count_,
             "processors, memories or channels are used but never described "
             "(a damaged frame?); shown as lanes named like " +
                 undescribed_ +
                 (undescribed_memories_ > 0
                      ? "; such memories have no known size, so their utilization is unknown"
                      : ""));
  warn_count(huge_sizes_, "copies and instances claim more than 4 PiB (damaged records?), e.g. " +
                              huge_size_example_ + "; their size is left out");
  // Lanes placed in parallel, the largest first so that no thread is left
  // with a big one at the end.
  std::vector<uint32_t> by_size(p_.lanes.size());
  for (uint32_t l = 0; l < by_size.size(); ++l) by_size[l] = l;
  const auto size = [&](uint32_t l) { return p_.lanes[l].end - p_.lanes[l].begin; };
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](uint32_t a, uint32_t b) { return size(a) > size(b); });
  base::reserve_huge(placed_, p_.items.size());
  placed_.resize(p_.items.size());
  std::vector<PlaceScratch> scratch(threads_);
  base::parallel_for(by_size.size(), threads_,
                     [&](unsigned worker, size_t k) { place(by_size[k], scratch[worker]); });
  for (const PlaceScratch& s : scratch)
    p_.timing_overflow.insert(s.overflow.begin(), s.overflow.end());
  scratch.clear();
  // Uids in lane order, each lane's in start order: of two items with one
  // uid, the earlier is found.
  item_of_uid_.build_from(staged_uids_.data(), placed_.data(), staged_uids_.size(), threads_);
  // Freed, not only emptied (`= {}` would keep their memory).
  decltype(staged_uids_)().swap(staged_uids_);
  decltype(placed_)().swap(placed_);
  decltype(staged_overflow_)().swap(staged_overflow_);
  if (const uint64_t n = item_of_uid_.duplicates()) {
    const DuplicateId d = item_of_uid_.duplicate_example();
    p_.warnings.push_back(std::to_string(n) + " items reuse the uid of another item, e.g. uid " +
                          std::to_string(d.id) + ": " + describe(p_, d.first) + " and " +
                          describe(p_, d.second) +
                          "; edges and waits naming such a uid go to the first");
  }
}

namespace {
// The kind of records an item was staged from (ItemRecords: staging's order).
ItemRecords staging_order(ItemKind k) {
  switch (k) {
    case ItemKind::Task:
      return ItemRecords::Task;
    case ItemKind::MetaTask:
      return ItemRecords::MetaTask;
    case ItemKind::DepPart:
      return ItemRecords::DepPart;
    case ItemKind::Copy:
    case ItemKind::Fill:
      return ItemRecords::Copy;
    case ItemKind::Instance:
      return ItemRecords::Instance;
    case ItemKind::GpuKernel:
      return ItemRecords::Kernel;
    case ItemKind::UserRange:
      return ItemRecords::UserRange;
  }
  return ItemRecords::UserRange;
}
}  // namespace

// Sorts a lane's staged items by start (stable) and stacks them into rows,
// in place: the lane's slots end up row by row. Its staged uids are left in
// start order, with where each item went in placed_.
void Builder::place(uint32_t l, PlaceScratch& s) {
  Lane& lane = p_.lanes[l];
  const uint32_t begin = lane.begin, n = lane.end - lane.begin;
  Item* const items = p_.items.data() + begin;
  Uid* const uids = staged_uids_.data() + begin;
  // Items that start and stop together go by kind in staging's order
  // (ItemRecords), then as staged: a rank's records in file order.
  const auto before = [](const Item& a, const Item& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.stop() != b.stop()) return a.stop() < b.stop();
    return staging_order(a.kind) < staging_order(b.kind);
  };
  // Slot offsets in start order.
  s.order.resize(n);
  for (uint32_t i = 0; i < n; ++i) s.order[i] = i;
  const bool sorted = std::is_sorted(items, items + n, before);
  if (!sorted) {
    std::stable_sort(s.order.begin(), s.order.end(),
                     [&](uint32_t a, uint32_t b) { return before(items[a], items[b]); });
  }
  s.starts.resize(n);
  s.stops.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    s.starts[i] = items[s.order[i]].start;
    s.stops[i] = items[s.order[i]].stop();
  }
  uint32_t nrows = 0;
  const std::vector<uint32_t> row = stack_rows(s.starts, s.stops, nrows);
  std::vector<uint32_t> at(nrows, 0);
  for (uint32_t r : row) ++at[r];
  uint32_t next = begin;
  for (uint32_t r = 0; r < nrows; ++r) {
    lane.rows.push_back(Row{next, next + at[r]});
    const uint32_t size = at[r];
    at[r] = next;
    next += size;
  }
  // Where each item goes, in start order; most lanes are one row already
  // in order, and their items stay where they are.
  s.dest.resize(n);
  bool moved = false;
  for (uint32_t i = 0; i < n; ++i) {
    s.dest[i] = at[row[i]]++;
    moved = moved || s.dest[i] != begin + s.order[i];
  }
  if (moved) s.items.assign(items, items + n);
  if (!sorted) s.uids.assign(uids, uids + n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t from = s.order[i], index = s.dest[i];
    if (moved) p_.items[index] = s.items[from];
    if (!sorted) uids[i] = s.uids[from];
    placed_[begin + i] = index;
    if (has_timing_overflow(p_.items[index])) {
      const auto o = staged_overflow_.find(begin + from);
      if (o != staged_overflow_.end()) s.overflow.emplace_back(index, o->second);
    }
  }
}

void Builder::count_bytes(const ItemTally::Huge& huge, ItemKind kind) {
  if (huge.count == 0) return;
  if (huge_sizes_ == 0) {
    huge_size_example_ = std::string(to_string(kind)) + " uid " + std::to_string(huge.uid) +
                         " of " + std::to_string(huge.bytes) + " bytes";
  }
  huge_sizes_ += huge.count;
}

void Builder::warn_count(uint64_t n, const std::string& what) {
  if (n > 0) p_.warnings.push_back(std::to_string(n) + " " + what);
}

}  // namespace legato::analysis::detail
