// Builder: staging the records' items into their lanes' slots, in pieces
// that any thread may stage (builder.hpp).
#include <algorithm>
#include <array>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "analysis/build.hpp"
#include "analysis/builder.hpp"
#include "analysis/units.hpp"

namespace legato::analysis::detail {

namespace {

// Records of each kind per slice of a rank's tables (when they are not
// stored): enough that taking one costs nothing beside staging it, few
// enough that a thread that joins late still finds some left.
constexpr size_t kSliceRecords = size_t{1} << 15;

// Slice k of each of a rank's tables, as tally_items reads them.
struct TableSlice {
  const trace::RecordBatch& all;
  size_t k;
  template <class R>
  std::span<const R> get() const {
    const auto& table = all.get<R>();
    const size_t b = std::min(table.size(), k * kSliceRecords);
    return {table.data() + b, std::min(table.size(), b + kSliceRecords) - b};
  }
};

constexpr LaneKind kFallback[kItemRecordKinds] = {
    LaneKind::Cpu,          LaneKind::Utility,   LaneKind::DepPart, LaneKind::Channel,
    LaneKind::SystemMemory, LaneKind::GpuDevice, LaneKind::Thread};

size_t index(ItemRecords k) {
  return static_cast<size_t>(k);
}

}  // namespace

// Gives pieces their items per lane.
struct Builder::PieceCutter {
  std::vector<Piece>& pieces;
  // Per lane: 1 + the last piece with items in it (the one being cut is
  // pieces.size()), and its index in that piece's lanes.
  std::vector<size_t> seen;
  std::vector<uint32_t> piece_lane;

  // n more items of `piece` in lane l.
  void add(Piece& piece, uint32_t l, uint32_t n) {
    if (l >= seen.size()) {
      seen.resize(l + 1, 0);
      piece_lane.resize(l + 1, 0);
    }
    if (seen[l] != pieces.size() + 1) {
      seen[l] = pieces.size() + 1;
      piece_lane[l] = static_cast<uint32_t>(piece.lanes.size());
      piece.lanes.push_back(PieceLane{l, 0, 0});
    }
    piece.lanes[piece_lane[l]].count += n;
  }
};

// One pass over every piece's tally, in staging's order, on one thread:
// finds (or, for an undescribed resource, makes) the lanes, makes the
// placeholder of every string id no file defined and counts the sizes past
// 4 PiB, so that staging only reads what the builder holds; counts each
// piece's items per lane. Then gives each lane its slots and each piece
// its first slot in each of its lanes.
void Builder::count_pieces() {
  PieceCutter cutter{pieces_, {}, {}};
  TableSizes sizes;
  pieces_left_ = std::vector<std::atomic<size_t>>(traces_.size());
  task_names_.resize(traces_.size());
  std::vector<std::vector<ItemTally>> sliced(traces_.size());
  std::vector<const std::vector<ItemTally>*> tallies(traces_.size());
  for (size_t r = 0; r < traces_.size(); ++r) tallies[r] = &rank_tallies(r, sliced[r]);
  if (range_) {
    // The range counts from the run's first item, and ends by its last.
    Time origin = kTimeLimit, end = -kTimeLimit;
    for (size_t r = 0; r < traces_.size(); ++r) {
      for (const ItemTally& tally : *tallies[r]) {
        if (tally.t_min > tally.t_max) continue;
        origin = std::min(origin, at(r, tally.t_min));
        end = std::max(end, at(r, tally.t_max));
      }
    }
    if (origin > end) origin = end = 0;
    if (range_->first > static_cast<double>(end - origin)) {
      throw LoadError("the range asked for starts at " + human_ns(range_->first) +
                      ", after the run's last item (at " +
                      human_ns(static_cast<double>(end - origin)) +
                      " from its first); give a range within the run");
    }
    const auto offset = [&](double ns) {
      return origin + static_cast<Time>(std::clamp(ns, 0.0, static_cast<double>(end - origin)));
    };
    p_.window = Profile::Window{origin, offset(range_->first), offset(range_->second), 0};
  }
  for (size_t r = 0; r < traces_.size(); ++r) cut_rank(r, *tallies[r], cutter, sizes);
  place_pieces(sizes);
}

const std::vector<ItemTally>& Builder::rank_tallies(size_t r,
                                                    std::vector<ItemTally>& sliced) const {
  const RankTrace& t = traces_[r];
  if (t.stored) {
    if (t.frame_items.size() != t.stored->frames())
      throw std::logic_error("analysis: a stored frame has no tally");
    return t.frame_items;
  }
  size_t longest = 0;
  t.all.for_each_kind([&](const auto& table) {
    using R = typename std::remove_cvref_t<decltype(table)>::value_type;
    if (kItemRecordSet & trace::kinds_of<R>()) longest = std::max(longest, table.size());
  });
  for (size_t k = 0; k * kSliceRecords < longest; ++k)
    sliced.push_back(tally_items(TableSlice{t.all, k}));
  return sliced;
}

bool Builder::wanted(size_t r, const ItemTally& tally) {
  if (!p_.window || tally.t_min > tally.t_max) return true;
  return at(r, tally.t_min) <= p_.window->to && at(r, tally.t_max) >= p_.window->from;
}

void Builder::cut_rank(size_t r, const std::vector<ItemTally>& tallies, PieceCutter& cutter,
                       TableSizes& sizes) {
  const RankTrace& t = traces_[r];
  for (const auto& k : t.all.get<trace::TaskKindRecord>()) task_names_[r][k.id] = str(r, k.name);
  std::vector<bool> kept(tallies.size());
  for (size_t k = 0; k < tallies.size(); ++k) kept[k] = wanted(r, tallies[k]);
  // Lanes of undescribed resources are made in record order, kind by kind.
  for (size_t kind = 0; kind < kItemRecordKinds; ++kind) {
    for (size_t k = 0; k < tallies.size(); ++k) {
      if (!kept[k]) continue;
      for (const ItemTally::Use& u : tallies[k].uses)
        if (index(u.kind) == kind) lane(r, u.resource, kFallback[kind]);
    }
  }
  for (size_t k = 0; k < tallies.size(); ++k) {
    if (!kept[k]) continue;
    for (const uint32_t id : tallies[k].strings) str(r, id);
  }
  for (size_t k = 0; k < tallies.size(); ++k) {
    if (kept[k])
      count_bytes(tallies[k].copies, tallies[k].copies.fill ? ItemKind::Fill : ItemKind::Copy);
  }
  for (size_t k = 0; k < tallies.size(); ++k)
    if (kept[k]) count_bytes(tallies[k].instances, ItemKind::Instance);
  // Per kind: the rank's records before the piece (in its tables), and
  // those of them loaded.
  std::array<size_t, kItemRecordKinds> before{}, loaded{};
  for (size_t k = 0; k < tallies.size(); ++k) {
    const ItemTally& tally = tallies[k];
    if (kept[k]) {
      Piece piece;
      piece.rank = static_cast<uint32_t>(r);
      piece.frame = t.stored ? static_cast<uint32_t>(k) : kNone;
      for (size_t kind = 0; kind < kItemRecordKinds; ++kind) {
        piece.begin[kind] = t.stored ? 0 : before[kind];
        piece.end[kind] = piece.begin[kind] + tally.records[kind];
      }
      piece.first_copy = static_cast<uint32_t>(sizes.copies + loaded[index(ItemRecords::Copy)]);
      piece.first_instance =
          static_cast<uint32_t>(sizes.instances + loaded[index(ItemRecords::Instance)]);
      piece.first_kernel =
          static_cast<uint32_t>(sizes.kernels + loaded[index(ItemRecords::Kernel)]);
      for (const ItemTally::Use& u : tally.uses)
        cutter.add(piece, lane(r, u.resource, kFallback[index(u.kind)]), u.count);
      for (size_t kind = 0; kind < kItemRecordKinds; ++kind) loaded[kind] += tally.records[kind];
      pieces_.push_back(std::move(piece));
    } else {
      for (const uint32_t n : tally.records) p_.window->items_left_out += n;
    }
    for (size_t kind = 0; kind < kItemRecordKinds; ++kind) before[kind] += tally.records[kind];
  }
  sizes.copies += loaded[index(ItemRecords::Copy)];
  sizes.instances += loaded[index(ItemRecords::Instance)];
  sizes.kernels += loaded[index(ItemRecords::Kernel)];
}

void Builder::place_pieces(const TableSizes& sizes) {
  std::vector<uint32_t> count(p_.lanes.size(), 0);  // per lane
  size_t total = 0;
  for (const Piece& piece : pieces_) {
    ++pieces_left_[piece.rank];
    for (const PieceLane& pl : piece.lanes) {
      count[pl.lane] += pl.count;
      total += pl.count;
    }
  }
  if (total >= kNone || sizes.copies >= kNone || sizes.instances >= kNone || sizes.kernels >= kNone)
    throw LoadError("the traces hold more than 4 billion items; load fewer files");
  std::vector<uint32_t> next(p_.lanes.size());
  uint32_t at = 0;
  for (uint32_t l = 0; l < p_.lanes.size(); ++l) {
    p_.lanes[l].begin = next[l] = at;
    at += count[l];
    p_.lanes[l].end = at;
  }
  for (Piece& piece : pieces_) {
    for (PieceLane& pl : piece.lanes) {
      pl.first = next[pl.lane];
      next[pl.lane] += pl.count;
    }
  }
  p_.items.resize(total);
  staged_uids_.resize(total);
  p_.copies.resize(sizes.copies);
  copy_instances_.resize(sizes.copies);
  p_.instances.resize(sizes.instances);
  p_.kernels.resize(sizes.kernels);
  kernel_tasks_.resize(sizes.kernels);
}

uint32_t Builder::staged_str(size_t rank, uint32_t file_id) const {
  if (file_id == 0) return 0;
  if (const uint32_t s = string_remap_[rank].find(file_id); s != kNone) return s;
  const auto placeholder = undefined_.find({rank, file_id});
  if (placeholder == undefined_.end())
    throw std::logic_error("analysis: a string id was staged that counting did not see");
  return placeholder->second;
}

Item Builder::staged_item(Stager& s, size_t r, ItemKind kind, Time start, Time stop, uint32_t name,
                          Uid op_uid) {
  Item it;
  it.kind = kind;
  it.name = name;
  start = at(r, start);
  stop = at(r, stop);
  if (stop < start) {
    ++s.bad_times;
    stop = start;
  }
  it.set_span(start, stop);
  it.op = op(op_uid);
  return it;
}

void Builder::stage(Stager& s, uint32_t resource, Item item, Uid uid, Time ready, Time create) {
  if (!s.last_lane.holds(resource)) {
    const uint32_t* l = lane_of_resource_.find(resource);
    if (!l) throw std::logic_error("analysis: an item was staged on a lane counting did not make");
    s.last_lane = {resource, *l};
  }
  const uint32_t lane = s.last_lane.lane;
  // Staging mirrors count_pieces; a record it missed would write into the
  // next lane's slots.
  if (s.fill[lane] >= p_.lanes[lane].end)
    throw std::logic_error("analysis: an item was staged on a lane without room for it");
  const uint32_t slot = s.fill[lane]++;
  // ready - create goes where create_of() reads it.
  uint32_t* const to_create_at = Item::to_create_slot(item, p_.copies);
  const Time to_ready = item.start - ready, to_create = ready - create;
  if (!(item.flags & kItemLongSpan) && to_ready >= 0 && to_ready < kSaturated && to_create >= 0 &&
      to_create < kSaturated && (to_create_at || to_create == 0)) {
    item.to_ready = static_cast<uint32_t>(to_ready);
    if (to_create_at) *to_create_at = static_cast<uint32_t>(to_create);
  } else {
    // A long item's to_ready holds its duration's high bits.
    if (!(item.flags & kItemLongSpan)) item.to_ready = kSaturated;
    if (to_create_at) *to_create_at = kSaturated;
    s.overflow.emplace_back(slot, std::make_pair(ready, create));
  }
  p_.items[slot] = item;
  staged_uids_[slot] = uid;
}

void Builder::stage_piece(const Piece& piece, Stager& s) {
  for (const PieceLane& pl : piece.lanes) s.fill[pl.lane] = pl.first;
  const size_t r = piece.rank;
  const RankTrace& t = traces_[r];
  const trace::RecordBatch* all = &t.all;
  if (piece.frame != kNone) {
    s.frame.clear();
    t.stored->decode_frame(piece.frame, kItemRecordSet, s.frame);
    all = &s.frame;
  }
  const auto records = [&](ItemRecords kind, const auto& table) {
    using R = std::remove_cvref_t<decltype(table[0])>;
    const size_t b = piece.begin[index(kind)], e = piece.end[index(kind)];
    if (e > table.size()) throw std::logic_error("analysis: a piece's records were not all read");
    return std::span<const R>(table.data() + b, e - b);
  };
  for (const auto& x : records(ItemRecords::Task, all->get<trace::TaskRecord>())) {
    const uint32_t* name = task_names_[r].find(x.task_kind);
    // The top-level task names no operation: it is one, under its own uid.
    const Uid op_uid = x.op != 0 ? x.op : x.uid;
    stage(s, x.processor,
          staged_item(s, r, ItemKind::Task, x.start, x.stop, name ? *name : 0, op_uid), x.uid,
          at(r, x.ready), at(r, x.create));
  }
  for (const auto& m : records(ItemRecords::MetaTask, all->get<trace::MetaTaskRecord>())) {
    stage(s, m.processor,
          staged_item(s, r, ItemKind::MetaTask, m.start, m.stop, staged_str(r, m.meta_kind), m.op),
          m.uid, at(r, m.ready), at(r, m.create));
  }
  for (const auto& d : records(ItemRecords::DepPart, all->get<trace::DepPartRecord>())) {
    stage(s, d.processor,
          staged_item(s, r, ItemKind::DepPart, d.start, d.stop, staged_str(r, d.part_kind), d.op),
          d.uid, at(r, d.ready), at(r, d.create));
  }
  uint32_t extra = piece.first_copy;
  for (const auto& c : records(ItemRecords::Copy, all->get<trace::CopyRecord>())) {
    const bool fill = c.copy_kind == trace::CopyKind::Fill;
    Item it = staged_item(s, r, fill ? ItemKind::Fill : ItemKind::Copy, c.start, c.stop, 0, c.op);
    it.extra = extra++;
    p_.copies[it.extra] = CopyInfo{kept_bytes(c.bytes), kNone, kNone, c.copy_kind};
    copy_instances_[it.extra] = {c.src_instance, c.dst_instance};
    stage(s, c.channel, it, c.uid, at(r, c.ready), at(r, c.create));
  }
  extra = piece.first_instance;
  for (const auto& in : records(ItemRecords::Instance, all->get<trace::InstanceRecord>())) {
    Item it =
        staged_item(s, r, ItemKind::Instance, in.create, in.destroy, staged_str(r, in.name), in.op);
    it.extra = extra++;
    if (in.flags & trace::kInstanceAliveAtEnd) it.flags |= kItemAliveAtEnd;
    p_.instances[it.extra] =
        InstanceInfo{kept_bytes(in.bytes), in.store, at(r, in.ready), staged_str(r, in.provenance)};
    stage(s, in.memory, it, in.uid, at(r, in.create), at(r, in.create));
  }
  extra = piece.first_kernel;
  for (const auto& k : records(ItemRecords::Kernel, all->get<trace::GpuKernelRecord>())) {
    Item it = staged_item(s, r, ItemKind::GpuKernel, k.start, k.stop, staged_str(r, k.name), 0);
    it.extra = extra++;
    p_.kernels[it.extra] = KernelInfo{kNone, k.stream};
    kernel_tasks_[it.extra] = k.task;
    stage(s, k.processor, it, 0, it.start, it.start);
  }
  for (const auto& u : records(ItemRecords::UserRange, all->get<trace::UserRangeRecord>())) {
    Item it = staged_item(s, r, ItemKind::UserRange, u.start, u.stop, staged_str(r, u.name), 0);
    it.extra = staged_str(r, u.provenance);  // user ranges: extra is the provenance string
    stage(s, u.processor, it, 0, it.start, it.start);
  }
  for (const PieceLane& pl : piece.lanes) {
    if (s.fill[pl.lane] != pl.first + pl.count)
      throw std::logic_error("analysis: a piece's counted items were not all staged");
  }
}

void Builder::stage_pieces(size_t worker) {
  // While a piece taken is not done, items() keeps pieces_ and stagers_.
  const auto stage = [&](size_t k) {
    Stager& s = stagers_[worker == kHelper ? stagers_.size() - 1 : worker];
    s.fill.resize(p_.lanes.size());
    stage_piece(pieces_[k], s);
  };
  // What was staged is not read again: once a rank's last piece is staged
  // (or failed), its records' memory serves what comes after (the next
  // ranks' slots, the critical path's edges, the next steps).
  const auto release_rank = [&](size_t k) {
    const uint32_t rank = pieces_[k].rank;
    if (pieces_left_[rank].fetch_sub(1) != 1) return;
    release<trace::TaskKindRecord, trace::TaskRecord, trace::MetaTaskRecord, trace::DepPartRecord,
            trace::CopyRecord, trace::InstanceRecord, trace::GpuKernelRecord,
            trace::UserRangeRecord>(traces_[rank]);
    std::vector<ItemTally>().swap(traces_[rank].frame_items);
  };
  if (worker == kHelper) {
    staging_.join(stage, release_rank);
  } else {
    staging_.take(stage, release_rank);
  }
}

void Builder::help_staging() {
  if (threads_ < 2) return;
  stage_pieces(kHelper);
}

void Builder::close_staging() {
  staging_.close();
}

}  // namespace legato::analysis::detail
