// The vertical layout of the timeline: per node a header, per kind an avg
// row followed by its lanes, and "All nodes" avg rows first when there are
// several nodes; nodes and kinds expand and collapse. Plain data, rebuilt
// whenever what is expanded changes.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/utilization.hpp"

namespace legato::viewer {

inline constexpr float kAxisHeight = 24, kRowHeight = 16, kAvgHeight = 28, kHeaderHeight = 20;

enum class RowType : uint8_t { Node, Avg, Lane };

struct LayoutRow {
  RowType type = RowType::Lane;
  std::string key;   // what toggles it: "all", "n3", "3:0" (rank:kind); empty for lanes
  std::string text;  // the label
  float y = 0, h = 0;
  uint32_t rank = analysis::kNone;  // analysis::kAllNodes for "All nodes" rows
  analysis::LaneKind kind = analysis::LaneKind::Cpu;
  uint32_t lane = analysis::kNone;  // lane rows
  bool collapsed = false;           // node and avg rows
};

class Layout {
 public:
  void build(const analysis::Profile& p);

  // Every change rebuilds the rows.
  // Expand or collapse by key; false for rows that do not fold (lanes).
  bool toggle(const analysis::Profile& p, const std::string& key);
  void expand_all(const analysis::Profile& p);
  // Nodes open, kinds collapsed to their avg rows.
  void collapse_kinds(const analysis::Profile& p);
  void collapse_all(const analysis::Profile& p);
  // Only these kinds expanded (nodes open).
  void expand_only(const analysis::Profile& p, const std::vector<analysis::LaneKind>& kinds);
  // Unfolds whatever hides the lane; true when something changed.
  bool reveal(const analysis::Profile& p, uint32_t lane);

  const std::vector<LayoutRow>& rows() const { return rows_; }
  float height() const { return height_; }
  // Characters the widest label takes, its indent and arrow included.
  size_t longest_label() const { return longest_; }
  // The row at content height y, or -1.
  int row_at(float y) const;
  // The row that shows the lane, or -1 when it is folded away.
  int row_of_lane(uint32_t lane) const;
  // Where an item sits: its lane row's top plus its row within the lane, or
  // the row folding it (its kind's avg row or its node's header).
  float item_y(const analysis::Profile& p, uint32_t item, float* height) const;

 private:
  void fold_kinds_except(const analysis::Profile& p, const std::vector<analysis::LaneKind>& kinds);
  static std::string node_key(uint32_t rank);
  static std::string kind_key(uint32_t rank, analysis::LaneKind kind);
  std::set<std::string> collapsed_;
  std::vector<LayoutRow> rows_;
  std::vector<int> lane_row_;  // lane -> row index or -1
  std::vector<int> fold_row_;  // lane -> the avg or node row folding it
  float height_ = 0;
  size_t longest_ = 0;
};

}  // namespace legato::viewer
