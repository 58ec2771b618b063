// Builder: staging the records' items into their lanes' slots, in pieces
// that any thread may stage (builder.hpp).
#include <span>
#include <stdexcept>
#include <type_traits>

#include "analysis/build.hpp"
#include "analysis/builder.hpp"

namespace legato::analysis::detail {

namespace {

// Records per piece: enough that taking one costs nothing beside staging
// it, few enough that a thread that joins late still finds some left.
constexpr size_t kPieceRecords = size_t{1} << 15;

}  // namespace

// Cuts the records of a rank's tables into pieces (of kPieceRecords), and
// counts each piece's items per lane.
struct Builder::PieceCutter {
  std::vector<Piece>& pieces;
  // Per lane: 1 + the last piece with items in it (the one being cut is
  // pieces.size()), and its index in that piece's lanes.
  std::vector<size_t> seen;
  std::vector<uint32_t> piece_lane;
  size_t current = 0;  // in piece.lanes, the last record's lane: most often the next one's

  // One more item of `piece` in lane l.
  void add(Piece& piece, uint32_t l) {
    if (current < piece.lanes.size() && piece.lanes[current].lane == l) {
      ++piece.lanes[current].count;
      return;
    }
    if (l >= seen.size()) {
      seen.resize(l + 1, 0);
      piece_lane.resize(l + 1, 0);
    }
    if (seen[l] != pieces.size() + 1) {
      seen[l] = pieces.size() + 1;
      piece_lane[l] = static_cast<uint32_t>(piece.lanes.size());
      piece.lanes.push_back(PieceLane{l, 0, 0});
    }
    current = piece_lane[l];
    ++piece.lanes[current].count;
  }
  // f(piece, record) for every record of rank r's table, piece by piece;
  // `first`: the table's first copy, instance or kernel (by kind).
  template <class Table, class F>
  void cut(size_t r, Records kind, const Table& table, uint32_t first, F&& f) {
    for (size_t b = 0; b < table.size(); b += kPieceRecords) {
      Piece piece{.rank = static_cast<uint32_t>(r),
                  .kind = kind,
                  .begin = b,
                  .end = std::min(table.size(), b + kPieceRecords),
                  .first = first + static_cast<uint32_t>(b),
                  .lanes = {}};
      current = 0;
      for (size_t i = piece.begin; i < piece.end; ++i) f(piece, table[i]);
      pieces.push_back(std::move(piece));
    }
  }
};

// One pass over every record, in staging's order, on one thread: finds
// (or, for an undescribed resource, makes) each record's lane, makes the
// placeholder of every string id no file defined and counts the sizes past
// 4 PiB, so that staging only reads what the builder holds; cuts the
// records into pieces, and counts each piece's items per lane. Then gives
// each lane its slots and each piece its first slot in each of its lanes.
void Builder::count_pieces() {
  PieceCutter cutter{pieces_, {}, {}, 0};
  TableSizes sizes;
  pieces_left_ = std::vector<std::atomic<size_t>>(traces_.size());
  task_names_.resize(traces_.size());
  for (size_t r = 0; r < traces_.size(); ++r) cut_rank(r, cutter, sizes);
  place_pieces(sizes);
}

void Builder::cut_rank(size_t r, PieceCutter& cutter, TableSizes& sizes) {
  const auto& all = traces_[r].all;
  for (const auto& k : all.get<trace::TaskKindRecord>()) task_names_[r][k.id] = str(r, k.name);
  uint32_t last_name = 0;  // records come in runs of one name
  const auto name = [&](uint32_t id) {
    if (id != last_name) str(r, id);
    last_name = id;
  };
  cutter.cut(r, Records::Task, all.get<trace::TaskRecord>(), 0,
             [&](Piece& p, const trace::TaskRecord& x) {
               cutter.add(p, lane(r, x.processor, LaneKind::Cpu));
             });
  cutter.cut(r, Records::MetaTask, all.get<trace::MetaTaskRecord>(), 0,
             [&](Piece& p, const trace::MetaTaskRecord& x) {
               cutter.add(p, lane(r, x.processor, LaneKind::Utility));
               name(x.meta_kind);
             });
  cutter.cut(r, Records::DepPart, all.get<trace::DepPartRecord>(), 0,
             [&](Piece& p, const trace::DepPartRecord& x) {
               cutter.add(p, lane(r, x.processor, LaneKind::DepPart));
               name(x.part_kind);
             });
  cutter.cut(r, Records::Copy, all.get<trace::CopyRecord>(), static_cast<uint32_t>(sizes.copies),
             [&](Piece& p, const trace::CopyRecord& x) {
               cutter.add(p, lane(r, x.channel, LaneKind::Channel));
               count_bytes(x.bytes,
                           x.copy_kind == trace::CopyKind::Fill ? ItemKind::Fill : ItemKind::Copy,
                           x.uid);
             });
  sizes.copies += all.get<trace::CopyRecord>().size();
  cutter.cut(r, Records::Instance, all.get<trace::InstanceRecord>(),
             static_cast<uint32_t>(sizes.instances), [&](Piece& p, const trace::InstanceRecord& x) {
               cutter.add(p, lane(r, x.memory, LaneKind::SystemMemory));
               str(r, x.name);
               str(r, x.provenance);
               count_bytes(x.bytes, ItemKind::Instance, x.uid);
             });
  sizes.instances += all.get<trace::InstanceRecord>().size();
  cutter.cut(r, Records::Kernel, all.get<trace::GpuKernelRecord>(),
             static_cast<uint32_t>(sizes.kernels), [&](Piece& p, const trace::GpuKernelRecord& x) {
               cutter.add(p, lane(r, x.processor, LaneKind::GpuDevice));
               name(x.name);
             });
  sizes.kernels += all.get<trace::GpuKernelRecord>().size();
  cutter.cut(r, Records::UserRange, all.get<trace::UserRangeRecord>(), 0,
             [&](Piece& p, const trace::UserRangeRecord& x) {
               cutter.add(p, lane(r, x.processor, LaneKind::Thread));
               str(r, x.name);
               str(r, x.provenance);
             });
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
  const auto& all = traces_[r].all;
  const auto records = [&](const auto& table) {
    using R = std::remove_cvref_t<decltype(table[0])>;
    return std::span<const R>(table.data() + piece.begin, piece.end - piece.begin);
  };
  // The piece's copies, instances or kernels: from piece.first on.
  uint32_t extra = piece.first;
  switch (piece.kind) {
    case Records::Task:
      for (const auto& t : records(all.get<trace::TaskRecord>())) {
        const uint32_t* name = task_names_[r].find(t.task_kind);
        // The top-level task names no operation: it is one, under its own uid.
        const Uid op_uid = t.op != 0 ? t.op : t.uid;
        stage(s, t.processor,
              staged_item(s, r, ItemKind::Task, t.start, t.stop, name ? *name : 0, op_uid), t.uid,
              at(r, t.ready), at(r, t.create));
      }
      break;
    case Records::MetaTask:
      for (const auto& m : records(all.get<trace::MetaTaskRecord>())) {
        stage(s, m.processor,
              staged_item(s, r, ItemKind::MetaTask, m.start, m.stop, staged_str(r, m.meta_kind),
                          m.op),
              m.uid, at(r, m.ready), at(r, m.create));
      }
      break;
    case Records::DepPart:
      for (const auto& d : records(all.get<trace::DepPartRecord>())) {
        stage(
            s, d.processor,
            staged_item(s, r, ItemKind::DepPart, d.start, d.stop, staged_str(r, d.part_kind), d.op),
            d.uid, at(r, d.ready), at(r, d.create));
      }
      break;
    case Records::Copy:
      for (const auto& c : records(all.get<trace::CopyRecord>())) {
        const bool fill = c.copy_kind == trace::CopyKind::Fill;
        Item it =
            staged_item(s, r, fill ? ItemKind::Fill : ItemKind::Copy, c.start, c.stop, 0, c.op);
        it.extra = extra++;
        p_.copies[it.extra] = CopyInfo{kept_bytes(c.bytes), kNone, kNone, c.copy_kind};
        copy_instances_[it.extra] = {c.src_instance, c.dst_instance};
        stage(s, c.channel, it, c.uid, at(r, c.ready), at(r, c.create));
      }
      break;
    case Records::Instance:
      for (const auto& in : records(all.get<trace::InstanceRecord>())) {
        Item it = staged_item(s, r, ItemKind::Instance, in.create, in.destroy,
                              staged_str(r, in.name), in.op);
        it.extra = extra++;
        if (in.flags & trace::kInstanceAliveAtEnd) it.flags |= kItemAliveAtEnd;
        p_.instances[it.extra] = InstanceInfo{kept_bytes(in.bytes), in.store, at(r, in.ready),
                                              staged_str(r, in.provenance)};
        stage(s, in.memory, it, in.uid, at(r, in.create), at(r, in.create));
      }
      break;
    case Records::Kernel:
      for (const auto& k : records(all.get<trace::GpuKernelRecord>())) {
        Item it = staged_item(s, r, ItemKind::GpuKernel, k.start, k.stop, staged_str(r, k.name), 0);
        it.extra = extra++;
        p_.kernels[it.extra] = KernelInfo{kNone, k.stream};
        kernel_tasks_[it.extra] = k.task;
        stage(s, k.processor, it, 0, it.start, it.start);
      }
      break;
    case Records::UserRange:
      for (const auto& u : records(all.get<trace::UserRangeRecord>())) {
        Item it = staged_item(s, r, ItemKind::UserRange, u.start, u.stop, staged_str(r, u.name), 0);
        it.extra = staged_str(r, u.provenance);  // user ranges: extra is the provenance string
        stage(s, u.processor, it, 0, it.start, it.start);
      }
      break;
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
