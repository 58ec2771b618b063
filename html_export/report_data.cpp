#include "html_export/report_data.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/details.hpp"
#include "analysis/fold_summary.hpp"

namespace legato::html {

namespace {

using analysis::kNone;
using analysis::Profile;

void varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A packed column's bytes. A varint costs one check for room, where
// std::string::push_back checks each byte: a 10 M-record run's report packs
// about 80 M of them.
class Bytes {
 public:
  void varint(uint64_t v) {
    if (static_cast<size_t>(cap_ - end_) < 10) grow();
    while (v >= 0x80) {
      *end_++ = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    *end_++ = static_cast<char>(v);
  }
  void svarint(int64_t v) {
    varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void byte(char c) {
    if (end_ == cap_) grow();
    *end_++ = c;
  }
  size_t size() const { return static_cast<size_t>(end_ - buf_.get()); }
  const char* data() const { return buf_.get(); }

 private:
  void grow() {
    const size_t used = size();
    const size_t room = std::max<size_t>(4096, 2 * static_cast<size_t>(cap_ - buf_.get()));
    std::unique_ptr<char[]> bigger(new char[room]);
    if (used > 0) std::memcpy(bigger.get(), buf_.get(), used);
    buf_ = std::move(bigger);
    end_ = buf_.get() + used;
    cap_ = buf_.get() + room;
  }
  std::unique_ptr<char[]> buf_;
  char* end_ = nullptr;
  char* cap_ = nullptr;
};

nlohmann::json header(const Profile& p, const nlohmann::json& findings) {
  using nlohmann::json;
  json run = {{"program", p.program},  {"id", p.run_id}, {"expected_ranks", p.ranks_expected},
              {"start", p.start},      {"stop", p.stop}, {"records", p.records},
              {"warnings", p.warnings}};
  json ranks = json::array();
  for (const auto& r : p.ranks) {
    ranks.push_back({{"rank", r.rank},
                     {"host", r.host},
                     {"file", r.file},
                     {"clean", r.finished_cleanly},
                     {"dropped", r.dropped}});
  }
  run["ranks"] = std::move(ranks);
  if (!p.ranks.empty()) {
    const json& meta = p.ranks.front().metadata;
    if (const auto it = meta.find("run"); it != meta.end() && it->is_object()) {
      if (const auto a = it->find("args"); a != it->end()) run["args"] = *a;
      if (const auto s = it->find("start_unix_ns"); s != it->end()) run["start_unix_ns"] = *s;
    }
    if (const auto it = meta.find("config"); it != meta.end()) run["config"] = *it;
  }
  json kinds = json::array();
  for (int k = 0; k < analysis::kLaneKinds; ++k)
    kinds.push_back(analysis::to_string(static_cast<analysis::LaneKind>(k)));
  json item_kinds = json::array();
  for (int k = 0; k < analysis::kItemKinds; ++k)
    item_kinds.push_back(analysis::to_string(static_cast<analysis::ItemKind>(k)));
  json copy_kinds = json::array();  // by CopyKind's value; "" for plain copies and fills
  for (uint8_t k = 0; k <= static_cast<uint8_t>(trace::CopyKind::Reduce); ++k)
    copy_kinds.push_back(analysis::copy_kind_name(static_cast<trace::CopyKind>(k)));
  json edge_kinds = json::array();
  for (uint8_t k = 0; k <= static_cast<uint8_t>(trace::kLastEdgeKind); ++k)
    edge_kinds.push_back(analysis::precondition_name(k));
  json nodes = json::array();
  for (const auto& n : p.nodes) {
    json groups = json::array();
    for (const auto& g : n.kinds) {
      groups.push_back({{"kind", static_cast<int>(g.kind)}, {"lanes", g.lanes}});
    }
    nodes.push_back({{"rank", n.rank},
                     {"host", n.host},
                     {"label", p.node_label(n)},
                     {"kinds", std::move(groups)}});
  }
  json lanes = json::array();
  for (const auto& l : p.lanes) {
    json rows = json::array();
    for (const auto& r : l.rows) rows.push_back(r.end - r.begin);
    lanes.push_back({{"name", l.name},
                     {"kind", static_cast<int>(l.kind)},
                     {"rank", l.rank},
                     {"capacity", l.capacity},
                     {"capacity_given", l.capacity_given},
                     {"rows", std::move(rows)}});
  }
  json ops = json::array();
  for (const auto& o : p.operations) {
    ops.push_back({o.name, o.provenance, o.parent == kNone ? 0 : o.parent + 1,
                   o.uid & ((uint64_t{1} << 48) - 1)});
  }
  json errors = json::array();
  for (const auto& e : p.errors) {
    errors.push_back({{"time", e.time},
                      {"rank", e.rank},
                      {"kind", trace::to_string(e.kind)},
                      {"op", e.op == kNone ? 0 : e.op + 1},
                      {"lane", e.lane == kNone ? -1 : static_cast<int64_t>(e.lane)},
                      {"text", e.text}});
  }
  json out = {{"version", 2},
              {"run", std::move(run)},
              {"strings", p.strings},
              {"kinds", kinds},
              {"item_kinds", item_kinds},
              {"copy_kinds", copy_kinds},
              {"edge_kinds", edge_kinds},
              {"nodes", nodes},
              {"lanes", std::move(lanes)},
              {"ops", std::move(ops)},
              {"wait_notes", p.wait_notes},
              {"kernel_signatures", p.kernel_signatures},
              {"errors", errors},
              // How folded items are summarised (analysis/fold_summary.hpp).
              {"fold",
               {{"block", analysis::kFoldBlock},
                {"group", analysis::kLeadGroup},
                {"samples", analysis::kLeadSamples},
                {"dense_column", analysis::kDenseColumn}}}};
  if (!findings.is_null()) out["findings"] = findings;
  return out;
}

// The packed columns, in the order report_data.hpp lists them.
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

// Appends item i to the columns; returns its encoded operation (index + 1, 0: none).
uint32_t pack_item(const Profile& p, uint32_t i, analysis::Time prev_stop, uint32_t prev_op,
                   Bytes* col) {
  const analysis::Item& it = p.items[i];
  col[kGap].svarint(it.start - prev_stop);
  col[kDuration].varint(static_cast<uint64_t>(it.duration()));
  col[kName].varint(it.name);
  const uint32_t op = it.op == kNone ? 0 : it.op + 1;
  col[kOp].svarint(int64_t{op} - int64_t{prev_op});
  // The report reads two flags (kItemLongSpan is the model's own).
  const uint64_t flags = it.flags & (analysis::kItemHasWaits | analysis::kItemAliveAtEnd);
  // A gather, scatter or reduction copy's CopyKind above them (0: none).
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
      const analysis::InstanceInfo& info = *p.instance_of(it);
      col[kBytes].varint(info.bytes);
      col[kAllocated].varint(static_cast<uint64_t>(
          std::clamp<analysis::Time>(info.ready, it.start, it.stop()) - it.start));
      col[kInstProvenance].varint(info.provenance);
      break;
    }
    default:
      break;
  }
  // Recorded edges only: the page derives the mapped-by edge as the model does.
  const auto [first, last] = p.recorded_preconditions(i);
  col[kPreCount].varint(static_cast<uint64_t>(last - first));
  for (const analysis::Precondition* c = first; c != last; ++c) {
    col[kPreItem].svarint(static_cast<int64_t>(c->item) - static_cast<int64_t>(i));
    col[kPreKind].byte(static_cast<char>(c->kind));
  }
  return op;
}

}  // namespace

std::string pack_profile(const Profile& p, const nlohmann::json& findings) {
  const std::string json =
      header(p, findings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  Bytes col[kColumns];
  for (const auto& lane : p.lanes) {
    for (const auto& row : lane.rows) {
      analysis::Time prev_stop = p.start;
      uint32_t prev_op = 0;
      for (uint32_t i = row.begin; i < row.end; ++i) {
        prev_op = pack_item(p, i, prev_stop, prev_op, col);
        prev_stop = p.items[i].stop();
      }
    }
  }
  col[kWaitItem].varint(p.waits.size());
  uint32_t prev_item = 0;
  for (const auto& w : p.waits) {
    col[kWaitItem].varint(w.item - prev_item);
    prev_item = w.item;
    col[kWaitStart].svarint(w.start - p.items[w.item].start);
    col[kWaitReady].varint(static_cast<uint64_t>(std::max<analysis::Time>(0, w.ready - w.start)));
    col[kWaitEnd].varint(
        static_cast<uint64_t>(std::max<analysis::Time>(0, w.end - std::max(w.ready, w.start))));
  }
  for (const uint8_t lead : p.lead_blocks) col[kLeadBlocks].byte(static_cast<char>(lead));
  for (const uint16_t lead : p.lead_groups) col[kLeadGroups].varint(lead);
  std::string out;
  size_t total = json.size() + 8 + 10 * kColumns;
  for (const auto& c : col) total += c.size();
  out.reserve(total);
  const auto n = static_cast<uint32_t>(json.size());
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
  out += json;
  varint(out, kColumns);
  for (const auto& c : col) varint(out, c.size());
  for (const auto& c : col) {
    if (c.size() > 0) out.append(c.data(), c.size());
  }
  return out;
}

}  // namespace legato::html
