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

nlohmann::json header(const Profile& p) {
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
  for (int k = 0; k <= static_cast<int>(analysis::ItemKind::UserRange); ++k)
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
    nodes.push_back({{"rank", n.rank}, {"host", n.host}, {"kinds", std::move(groups)}});
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
    ops.push_back({o.name, o.provenance, o.parent == kNone ? 0 : o.parent + 1});
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
  return {{"version", 1},    {"run", std::move(run)},     {"strings", p.strings},
          {"kinds", kinds},  {"item_kinds", item_kinds},  {"edge_kinds", edge_kinds},
          {"nodes", nodes},  {"lanes", std::move(lanes)}, {"ops", std::move(ops)},
          {"errors", errors}};
}

void pack_item(const Profile& p, uint32_t i, analysis::Time prev, std::string& out) {
  const analysis::Item& it = p.items[i];
  svarint(out, it.start - prev);
  varint(out, static_cast<uint64_t>(it.duration()));
  varint(out, it.name);
  varint(out, it.op == kNone ? 0 : uint64_t{it.op} + 1);
  varint(out, static_cast<uint64_t>(it.kind) | (uint64_t{it.flags} << 4));
  const analysis::Time ready = p.ready_of(i);
  svarint(out, it.start - ready);
  svarint(out, ready - p.create_of(i));
  switch (it.kind) {
    case analysis::ItemKind::Copy:
    case analysis::ItemKind::Fill:
      varint(out, p.copies[it.extra].bytes);
      break;
    case analysis::ItemKind::Instance: {
      const analysis::InstanceInfo& info = p.instances[it.extra];
      varint(out, info.bytes);
      varint(out, static_cast<uint64_t>(std::clamp(info.ready, it.start, it.stop) - it.start));
      break;
    }
    default:
      break;
  }
  const auto [a, b] = p.preconditions(i);
  varint(out, static_cast<uint64_t>(b - a));
  for (const auto* x = a; x != b; ++x) {
    svarint(out, static_cast<int64_t>(x->item) - static_cast<int64_t>(i));
    out.push_back(static_cast<char>(x->kind));
  }
}

}  // namespace

std::string pack_profile(const Profile& p) {
  const std::string json = header(p).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(json.size() + p.items.size() * 12 + 64);
  const auto n = static_cast<uint32_t>(json.size());
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
  out += json;
  for (const auto& lane : p.lanes) {
    for (const auto& row : lane.rows) {
      analysis::Time prev = p.start;
      for (uint32_t i = row.begin; i < row.end; ++i) {
        pack_item(p, i, prev, out);
        prev = p.items[i].stop;
      }
    }
  }
  varint(out, p.waits.size());
  uint32_t prev_item = 0;
  for (const auto& w : p.waits) {
    varint(out, w.item - prev_item);
    prev_item = w.item;
    svarint(out, w.start - p.items[w.item].start);
    varint(out, static_cast<uint64_t>(std::max<analysis::Time>(0, w.ready - w.start)));
    varint(out,
           static_cast<uint64_t>(std::max<analysis::Time>(0, w.end - std::max(w.ready, w.start))));
  }
  return out;
}

}  // namespace legato::html
