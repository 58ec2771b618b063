#include "html_export/report_data.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "analysis/details.hpp"

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

void svarint(std::string& out, int64_t v) {
  varint(out, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

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
  json edge_kinds = json::array();
  for (uint8_t k = 0; k <= static_cast<uint8_t>(trace::EdgeKind::Control); ++k)
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
              {"edge_kinds", edge_kinds},
              {"nodes", nodes},
              {"lanes", std::move(lanes)},
              {"ops", std::move(ops)},
              {"wait_notes", p.wait_notes},
              {"kernel_signatures", p.kernel_signatures},
              {"errors", errors}};
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
  kColumns
};

// Appends item i to the columns; returns its encoded operation (index + 1, 0: none).
uint32_t pack_item(const Profile& p, uint32_t i, analysis::Time prev_stop, uint32_t prev_op,
                   std::string* col) {
  const analysis::Item& it = p.items[i];
  svarint(col[kGap], it.start - prev_stop);
  varint(col[kDuration], static_cast<uint64_t>(it.duration()));
  varint(col[kName], it.name);
  const uint32_t op = it.op == kNone ? 0 : it.op + 1;
  svarint(col[kOp], int64_t{op} - int64_t{prev_op});
  // The report reads two flags (kItemLongSpan is the model's own).
  const uint64_t flags = it.flags & (analysis::kItemHasWaits | analysis::kItemAliveAtEnd);
  varint(col[kKind], static_cast<uint64_t>(it.kind) | (flags << 4));
  const analysis::Time ready = p.ready_of(i);
  svarint(col[kToReady], it.start - ready);
  svarint(col[kToCreate], ready - p.create_of(i));
  switch (it.kind) {
    case analysis::ItemKind::Copy:
    case analysis::ItemKind::Fill:
      varint(col[kBytes], p.copies[it.extra].bytes);
      break;
    case analysis::ItemKind::Instance: {
      const analysis::InstanceInfo& info = p.instances[it.extra];
      varint(col[kBytes], info.bytes);
      varint(col[kAllocated],
             static_cast<uint64_t>(std::clamp<analysis::Time>(info.ready, it.start, it.stop()) -
                                   it.start));
      varint(col[kInstProvenance], info.provenance);
      break;
    }
    default:
      break;
  }
  // Recorded edges only: the page derives the mapped-by edge as the model does.
  const auto [first, last] = p.recorded_preconditions(i);
  varint(col[kPreCount], static_cast<uint64_t>(last - first));
  for (const analysis::Precondition* c = first; c != last; ++c) {
    svarint(col[kPreItem], static_cast<int64_t>(c->item) - static_cast<int64_t>(i));
    col[kPreKind].push_back(static_cast<char>(c->kind));
  }
  return op;
}

}  // namespace

std::string pack_profile(const Profile& p, const nlohmann::json& findings) {
  const std::string json =
      header(p, findings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string col[kColumns];
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
  varint(col[kWaitItem], p.waits.size());
  uint32_t prev_item = 0;
  for (const auto& w : p.waits) {
    varint(col[kWaitItem], w.item - prev_item);
    prev_item = w.item;
    svarint(col[kWaitStart], w.start - p.items[w.item].start);
    varint(col[kWaitReady], static_cast<uint64_t>(std::max<analysis::Time>(0, w.ready - w.start)));
    varint(col[kWaitEnd],
           static_cast<uint64_t>(std::max<analysis::Time>(0, w.end - std::max(w.ready, w.start))));
  }
  std::string out;
  size_t total = json.size() + 8 + 10 * kColumns;
  for (const auto& c : col) total += c.size();
  out.reserve(total);
  const auto n = static_cast<uint32_t>(json.size());
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
  out += json;
  varint(out, kColumns);
  for (const auto& c : col) varint(out, c.size());
  for (const auto& c : col) out += c;
  return out;
}

}  // namespace legato::html
