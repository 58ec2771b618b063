#include "viewer/layout.hpp"

#include <algorithm>
#include <map>

namespace legato::viewer {

using analysis::LaneKind;

std::string Layout::node_key(uint32_t rank) {
  return "n" + std::to_string(rank);
}
std::string Layout::kind_key(uint32_t rank, LaneKind kind) {
  return std::to_string(rank) + ":" + std::to_string(static_cast<int>(kind));
}

void Layout::build(const analysis::Profile& p) {
  rows_.clear();
  lane_row_.assign(p.lanes.size(), -1);
  fold_row_.assign(p.lanes.size(), -1);
  float y = 0;
  const auto push = [&](LayoutRow r) {
    r.y = y;
    y += r.h;
    rows_.push_back(std::move(r));
    return static_cast<int>(rows_.size()) - 1;
  };
  if (p.nodes.size() > 1) {
    LayoutRow all{RowType::Node, "all", "All nodes (" + std::to_string(p.nodes.size()) + ")"};
    all.h = kHeaderHeight;
    all.rank = analysis::kAllNodes;
    all.collapsed = collapsed_.count("all") > 0;
    push(all);
    if (!all.collapsed) {
      std::map<LaneKind, size_t> lanes;
      for (const auto& n : p.nodes)
        for (const auto& g : n.kinds) lanes[g.kind] += g.lanes.size();
      for (const auto& [kind, count] : lanes) {
        LayoutRow r{
            RowType::Avg, "",
            std::string(analysis::to_string(kind)) + " avg (" + std::to_string(count) + ")"};
        r.h = kAvgHeight;
        r.rank = analysis::kAllNodes;
        r.kind = kind;
        push(r);
      }
    }
  }
  for (const auto& n : p.nodes) {
    LayoutRow head{RowType::Node, node_key(n.rank), p.node_label(n)};
    head.h = kHeaderHeight;
    head.rank = n.rank;
    head.collapsed = collapsed_.count(head.key) > 0;
    const int head_row = push(head);
    for (const auto& g : n.kinds) {
      if (head.collapsed) {
        for (uint32_t l : g.lanes) fold_row_[l] = head_row;
        continue;
      }
      LayoutRow avg{RowType::Avg, kind_key(n.rank, g.kind),
                    std::string(analysis::to_string(g.kind)) + " avg (" +
                        std::to_string(g.lanes.size()) + ")"};
      avg.h = kAvgHeight;
      avg.rank = n.rank;
      avg.kind = g.kind;
      avg.collapsed = collapsed_.count(avg.key) > 0;
      const int avg_row = push(avg);
      for (uint32_t l : g.lanes) {
        fold_row_[l] = avg_row;
        if (avg.collapsed) continue;
        const analysis::Lane& lane = p.lanes[l];
        LayoutRow r{RowType::Lane, "", lane.name};
        r.h = static_cast<float>(std::max<size_t>(1, lane.rows.size())) * kRowHeight + 2;
        r.rank = n.rank;
        r.kind = g.kind;
        r.lane = l;
        lane_row_[l] = push(r);
      }
    }
  }
  height_ = y;
  longest_ = 0;
  for (const LayoutRow& r : rows_)  // indents: lanes 4 characters, avg rows 2, plus the arrow
    longest_ = std::max(longest_, r.text.size() + (r.type == RowType::Lane  ? 4
                                                   : r.type == RowType::Avg ? 4
                                                                            : 2));
}

bool Layout::toggle(const analysis::Profile& p, const std::string& key) {
  if (key.empty()) return false;
  if (!collapsed_.erase(key)) collapsed_.insert(key);
  build(p);
  return true;
}

void Layout::expand_all(const analysis::Profile& p) {
  collapsed_.clear();
  build(p);
}

void Layout::fold_kinds_except(const analysis::Profile& p, const std::vector<LaneKind>& kinds) {
  collapsed_.clear();
  for (const auto& n : p.nodes) {
    for (const auto& g : n.kinds) {
      if (std::find(kinds.begin(), kinds.end(), g.kind) == kinds.end())
        collapsed_.insert(kind_key(n.rank, g.kind));
    }
  }
}

void Layout::collapse_kinds(const analysis::Profile& p) {
  expand_only(p, {});
}

void Layout::collapse_all(const analysis::Profile& p) {
  fold_kinds_except(p, {});
  for (const auto& n : p.nodes) collapsed_.insert(node_key(n.rank));
  build(p);
}

void Layout::expand_only(const analysis::Profile& p, const std::vector<LaneKind>& kinds) {
  fold_kinds_except(p, kinds);
  build(p);
}

bool Layout::reveal(const analysis::Profile& p, uint32_t lane) {
  const analysis::Lane& l = p.lanes[lane];
  const bool changed =
      collapsed_.erase(node_key(l.rank)) + collapsed_.erase(kind_key(l.rank, l.kind)) > 0;
  if (changed) build(p);
  return changed;
}

int Layout::row_at(float y) const {
  if (y < 0 || y >= height_) return -1;
  const auto it = std::upper_bound(rows_.begin(), rows_.end(), y,
                                   [](float v, const LayoutRow& r) { return v < r.y; });
  return static_cast<int>(it - rows_.begin()) - 1;
}

int Layout::row_of_lane(uint32_t lane) const {
  return lane < lane_row_.size() ? lane_row_[lane] : -1;
}

float Layout::item_y(const analysis::Profile& p, uint32_t item, float* height) const {
  const uint32_t lane = p.lane_of(item);
  if (const int r = row_of_lane(lane); r >= 0) {
    *height = kRowHeight - 2;
    return rows_[static_cast<size_t>(r)].y + 1 +
           static_cast<float>(p.row_of(lane, item)) * kRowHeight;
  }
  const int fold = lane < fold_row_.size() ? fold_row_[lane] : -1;
  if (fold < 0) {
    *height = 0;
    return 0;
  }
  *height = rows_[static_cast<size_t>(fold)].h;
  return rows_[static_cast<size_t>(fold)].y;
}

}  // namespace legato::viewer
