// The report's index (layout in report_data.hpp).
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/details.hpp"
#include "analysis/fold_summary.hpp"
#include "analysis/palette.hpp"
#include "analysis/utilization.hpp"
#include "html_export/packed_bytes.hpp"
#include "html_export/report_data.hpp"

namespace legato::html {

namespace {

using analysis::kNone;
using analysis::Profile;
using nlohmann::json;

json run_json(const Profile& p) {
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
  return run;
}

// The names of the model's enums, by value, so the page holds no copy.
json enum_names(const Profile&) {
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
  json memory_kinds = json::array();  // the lane kinds whose items are instances
  for (int k = 0; k < analysis::kLaneKinds; ++k) {
    if (analysis::is_memory(static_cast<analysis::LaneKind>(k))) memory_kinds.push_back(k);
  }
  return {{"kinds", kinds},
          {"item_kinds", item_kinds},
          {"copy_kinds", copy_kinds},
          {"edge_kinds", edge_kinds},
          {"memory_kinds", memory_kinds},
          // The kind of the mapped-by edges the page derives.
          {"mapped_by_edge", analysis::kMappedBy},
          // The item kinds the page treats apart, by their numbers.
          {"item_kind_ids",
           {{"meta", static_cast<int>(analysis::ItemKind::MetaTask)},
            {"copy", static_cast<int>(analysis::ItemKind::Copy)},
            {"fill", static_cast<int>(analysis::ItemKind::Fill)},
            {"instance", static_cast<int>(analysis::ItemKind::Instance)}}}};
}

json layout_json(const Profile& p) {
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
  return {{"nodes", std::move(nodes)}, {"lanes", std::move(lanes)}};
}

// Where each node's records were lost to damage (Profile::lost).
json lost_json(const Profile& p) {
  json out = json::array();
  for (const analysis::LostSpan& l : p.lost)
    out.push_back(
        {{"rank", l.rank}, {"from", l.from}, {"to", l.to}, {"records", l.records}, {"why", l.why}});
  return out;
}

json errors_json(const Profile& p) {
  json errors = json::array();
  for (const auto& e : p.errors) {
    json op = nullptr;
    if (e.op != kNone) {
      const analysis::Operation& o = p.operations[e.op];
      op = {{"name", o.name}, {"provenance", o.provenance}};
    }
    errors.push_back({{"time", e.time},
                      {"rank", e.rank},
                      {"kind", trace::to_string(e.kind)},
                      {"op", op},
                      {"lane", e.lane == kNone ? -1 : static_cast<int64_t>(e.lane)},
                      {"text", e.text}});
  }
  return errors;
}

// The avg lines the page draws, in its order: every kind over all nodes
// (when there are several: the nodes' bins merged), then each node's kinds.
// Their grids go into `out`, one slice after the other.
json utilization_grids(const Profile& p, Bytes& out) {
  json lines = json::array();
  const analysis::Time t1 = std::max(p.stop, p.start + 1);
  const auto put = [&](int64_t rank, analysis::LaneKind kind, const analysis::UtilizationBins& b) {
    lines.push_back({{"rank", rank}, {"kind", static_cast<int>(kind)}, {"known", b.capacity > 0}});
    for (const double v : b.slice_averages())
      out.varint(static_cast<uint64_t>(std::llround(std::max(0.0, v) * 10000)));
  };
  std::vector<std::vector<analysis::UtilizationBins>> nodes;  // per node, per kind group
  std::vector<std::optional<analysis::UtilizationBins>> all(analysis::kLaneKinds);
  for (const auto& n : p.nodes) {
    auto& bins = nodes.emplace_back();
    for (const auto& g : n.kinds) {
      bins.push_back(
          analysis::utilization_bins(p, g.kind, n.rank, p.start, t1, kUtilizationSlices));
      auto& sum = all[static_cast<size_t>(g.kind)];
      if (!sum)
        sum = bins.back();
      else
        sum->merge(bins.back());
    }
  }
  if (p.nodes.size() > 1) {
    for (int k = 0; k < analysis::kLaneKinds; ++k) {
      if (all[static_cast<size_t>(k)]) put(-1, static_cast<analysis::LaneKind>(k), *all[k]);
    }
  }
  for (size_t n = 0; n < p.nodes.size(); ++n) {
    for (size_t g = 0; g < p.nodes[n].kinds.size(); ++g)
      put(p.nodes[n].rank, p.nodes[n].kinds[g].kind, nodes[n][g]);
  }
  return {{"slices", kUtilizationSlices}, {"lines", std::move(lines)}};
}

// The colours of every name and kind items have (analysis/palette.hpp):
// [name * 16 + kind, running, ready, blocked, a label's colour on each,
// then the same six for the dark theme] as CSS colours.
json palette_json(const Profile& p, const ReportTables& t) {
  json out = json::array();
  const auto css = [](analysis::Rgb c) {
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", c.r, c.g, c.b);
    return std::string(text);
  };
  for (uint32_t name = 0; name < t.name_kinds.size(); ++name) {
    for (int k = 0; k < analysis::kItemKinds; ++k) {
      if (!(t.name_kinds[name] >> k & 1)) continue;
      const auto kind = static_cast<analysis::ItemKind>(k);
      json entry = json::array({name * 16 + static_cast<uint32_t>(k)});
      for (const bool dark : {false, true}) {
        std::array<analysis::Rgb, 3> fill;
        for (int s = 0; s < 3; ++s) {
          fill[static_cast<size_t>(s)] =
              analysis::item_rgb(p.str(name), kind, static_cast<analysis::State>(s), dark);
          entry.push_back(css(fill[static_cast<size_t>(s)]));
        }
        for (const analysis::Rgb& f : fill) entry.push_back(css(analysis::label_rgb(f)));
      }
      out.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

std::string pack_index(const Profile& p, const ReportTables& t, const json& findings,
                       const std::string& data_dir) {
  enum { kBlockStart, kBlockBusy, kBlockLead, kGroupLead, kRowSpan, kUtil, kLabels, kN };
  Bytes col[kN];
  const auto count = static_cast<uint32_t>(p.items.size());
  analysis::Time prev = p.start;
  for (uint32_t b = 0; b < t.block_lead.size(); ++b) {
    const uint32_t first = b * analysis::kFoldBlock;
    const uint32_t end = std::min(count, first + analysis::kFoldBlock);
    col[kBlockStart].svarint(p.items[first].start - prev);
    prev = p.items[first].start;
    col[kBlockBusy].varint(static_cast<uint64_t>(p.busy_between(first, end)));
    col[kBlockLead].varint(t.block_lead[b]);
  }
  for (const uint32_t g : t.group_lead) col[kGroupLead].varint(g);
  for (const auto& lane : p.lanes) {
    for (const auto& row : lane.rows) {
      const analysis::Time first =
          row.end > row.begin ? analysis::Time{p.items[row.begin].start} : p.start;
      const analysis::Time last = row.end > row.begin ? p.items[row.end - 1].stop() : first;
      col[kRowSpan].varint(static_cast<uint64_t>(first - p.start));
      col[kRowSpan].varint(static_cast<uint64_t>(last - first));
      // Busy time of its items up to the first fold block that starts in
      // it (all of them if none does), and of all its items.
      const uint32_t head = std::min(row.end, (row.begin + analysis::kFoldBlock - 1) /
                                                  analysis::kFoldBlock * analysis::kFoldBlock);
      col[kRowSpan].varint(static_cast<uint64_t>(p.busy_between(row.begin, head)));
      col[kRowSpan].varint(static_cast<uint64_t>(p.busy_between(row.begin, row.end)));
    }
  }
  json utilization = utilization_grids(p, col[kUtil]);
  for (const auto& labels : t.chunk_labels) {
    col[kLabels].varint(labels.size());
    uint32_t before = 0;
    for (const auto& [label, items] : labels) {
      col[kLabels].varint(label - before);
      col[kLabels].varint(items);
      before = label;
    }
  }
  json header = {
      {"version", 3},
      {"run", run_json(p)},
      {"strings", p.strings},
      {"errors", errors_json(p)},
      {"lost", lost_json(p)},
      {"kernel_signatures", p.kernel_signatures},
      // How folded items are summarised (analysis/fold_summary.hpp).
      {"fold",
       {{"block", analysis::kFoldBlock},
        {"group", analysis::kLeadGroup},
        {"samples", analysis::kLeadSamples},
        {"dense_column", analysis::kDenseColumn}}},
      {"labels", t.labels},
      {"lead_keys", t.lead_keys},
      {"palette", palette_json(p, t)},
      {"chunks",
       {{"dir", data_dir}, {"items", kChunkItems}, {"count", item_chunks(p)}, {"ops", kChunkOps}}},
      {"utilization", std::move(utilization)}};
  header.update(enum_names(p));
  header.update(layout_json(p));
  if (!findings.is_null()) header["findings"] = findings;
  return pack_part(header.dump(-1, ' ', false, json::error_handler_t::replace), col);
}

}  // namespace legato::html
