// The report's detail and operation chunks (layout in report_data.hpp).
#include <algorithm>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/details.hpp"
#include "html_export/packed_bytes.hpp"
#include "html_export/report_data.hpp"

namespace legato::html {

namespace {

using analysis::kNone;
using analysis::Profile;

enum Column {
  kGap,
  kDuration,
  kName,
  kOp,
  kKind,
  kToReady,
  kToCreate,
  kBytes,
  kAllocated,
  kPreCount,
  kPreItem,
  kPreKind,
  kWaitItem,
  kWaitStart,
  kWaitReady,
  kWaitEnd,
  kInstProvenance,
  kLeadBlocks,
  kLeadGroups,
  kColumns
};

void pack_item(const Profile& p, uint32_t i, analysis::Time prev_stop, uint32_t prev_op,
               Bytes* col) {
  const analysis::Item& it = p.items[i];
  col[kGap].svarint(it.start - prev_stop);
  col[kDuration].varint(static_cast<uint64_t>(it.duration()));
  col[kName].varint(it.name);
  const uint32_t op = it.op == kNone ? 0 : it.op + 1;
  col[kOp].svarint(int64_t{op} - int64_t{prev_op});
  // The report reads two flags (kItemLongSpan is the model's own).
  const uint64_t flags = it.flags & (analysis::kItemHasWaits | analysis::kItemAliveAtEnd);
  uint64_t copy_kind = 0;
  if (it.kind == analysis::ItemKind::Copy && !analysis::copy_kind_name(p.copy_of(it)->kind).empty())
    copy_kind = static_cast<uint64_t>(p.copy_of(it)->kind);
  col[kKind].varint(static_cast<uint64_t>(it.kind) | (flags << 4) | (copy_kind << 8));
  const analysis::Time ready = p.ready_of(i);
  col[kToReady].svarint(it.start - ready);
  col[kToCreate].svarint(ready - p.create_of(i));
  switch (it.kind) {
    case analysis::ItemKind::Copy:
    case analysis::ItemKind::Fill:
      col[kBytes].varint(p.copy_of(it)->bytes);
      break;
    case analysis::ItemKind::Instance: {
      const analysis::InstanceInfo* info = p.instance_of(it);
      col[kBytes].varint(info ? info->bytes : 0);
      col[kAllocated].varint(
          info ? static_cast<uint64_t>(
                     std::clamp<analysis::Time>(info->ready, it.start, it.stop()) - it.start)
               : 0);
      col[kInstProvenance].varint(info ? info->provenance : 0);
      break;
    }
    default:
      break;
  }
  // Recorded edges only: the page derives the mapped-by edge as the model
  // does, from the operation's last_meta (its chunk's).
  const auto [first, last] = p.recorded_preconditions(i);
  col[kPreCount].varint(static_cast<uint64_t>(last - first));
  for (const analysis::Precondition* c = first; c != last; ++c) {
    col[kPreItem].svarint(static_cast<int64_t>(uint32_t{c->item}) - static_cast<int64_t>(i));
    col[kPreKind].byte(static_cast<char>(c->kind));
  }
}

}  // namespace

std::string pack_item_chunk(const Profile& p, uint32_t k) {
  const auto count = static_cast<uint32_t>(p.items.size());
  const uint32_t first = k * kChunkItems, end = std::min(count, first + kChunkItems);
  Bytes col[kColumns];
  // Where each row starts, to reset the gaps' base there.
  std::vector<uint32_t> row_starts;
  for (const auto& lane : p.lanes) {
    for (const auto& row : lane.rows) {
      if (row.begin >= first && row.begin < end) row_starts.push_back(row.begin);
    }
  }
  std::sort(row_starts.begin(), row_starts.end());
  size_t next_row = 0;
  uint32_t prev_op = 0;
  for (uint32_t i = first; i < end; ++i) {
    bool row_start = i == first;
    while (next_row < row_starts.size() && row_starts[next_row] <= i) {
      row_start |= row_starts[next_row] == i;
      ++next_row;
    }
    pack_item(p, i, row_start ? p.start : p.items[i - 1].stop(), prev_op, col);
    prev_op = p.items[i].op == kNone ? 0 : p.items[i].op + 1;
  }
  // The chunk's waits: those of its items (waits are sorted by item).
  const auto by_item = [](const analysis::Wait& w, uint32_t item) { return w.item < item; };
  const auto w0 = std::lower_bound(p.waits.begin(), p.waits.end(), first, by_item);
  const auto w1 = std::lower_bound(w0, p.waits.end(), end, by_item);
  col[kWaitItem].varint(static_cast<uint64_t>(w1 - w0));
  nlohmann::json notes = nlohmann::json::array();
  uint32_t prev_item = first;
  for (auto w = w0; w != w1; ++w) {
    col[kWaitItem].varint(w->item - prev_item);
    prev_item = w->item;
    col[kWaitStart].svarint(w->start - p.items[w->item].start);
    col[kWaitReady].varint(static_cast<uint64_t>(std::max<analysis::Time>(0, w->ready - w->start)));
    col[kWaitEnd].varint(
        static_cast<uint64_t>(std::max<analysis::Time>(0, w->end - std::max(w->ready, w->start))));
    if (const uint32_t note = p.wait_note(&*w); note != 0) notes.push_back({w - w0, note});
  }
  for (uint32_t b = first / analysis::kFoldBlock;
       b < p.lead_blocks.size() && b * analysis::kFoldBlock < end; ++b)
    col[kLeadBlocks].byte(static_cast<char>(p.lead_blocks[b]));
  for (uint32_t g = first / analysis::kLeadGroup;
       g < p.lead_groups.size() && g * analysis::kLeadGroup < end; ++g)
    col[kLeadGroups].varint(p.lead_groups[g]);
  const nlohmann::json header = {
      {"chunk", k}, {"first", first}, {"count", end - first}, {"wait_notes", std::move(notes)}};
  return pack_part(header.dump(), col);
}

std::string pack_op_chunk(const Profile& p, const ReportTables& t, uint32_t k) {
  const auto count = static_cast<uint32_t>(p.operations.size());
  const uint32_t first = k * kChunkOps, end = std::min(count, first + kChunkOps);
  enum { kName, kProvenance, kParent, kUid, kRuntime, kItems, kLastMeta, kN };
  Bytes col[kN];
  int64_t prev_uid = 0;
  for (uint32_t o = first; o < end; ++o) {
    const analysis::Operation& op = p.operations[o];
    col[kName].varint(op.name);
    col[kProvenance].varint(op.provenance);
    // The parent is most often a little before it, the uid the one before's
    // plus one: both as differences.
    col[kParent].varint(op.parent == kNone ? 0 : zigzag(int64_t{o} - int64_t{op.parent}) + 1);
    const auto uid = static_cast<int64_t>(op.uid & ((uint64_t{1} << 48) - 1));
    col[kUid].svarint(uid - prev_uid);
    prev_uid = uid;
    col[kRuntime].varint(static_cast<uint64_t>(t.op_runtime[o]));
    col[kItems].varint(t.op_items[o]);
    col[kLastMeta].varint(op.last_meta == kNone ? 0 : uint64_t{op.last_meta} + 1);
  }
  const nlohmann::json header = {{"chunk", k}, {"first", first}, {"count", end - first}};
  return pack_part(header.dump(), col);
}

}  // namespace legato::html
