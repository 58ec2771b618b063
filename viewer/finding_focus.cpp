#include "viewer/finding_focus.hpp"

#include <algorithm>

namespace legato::viewer {

using analysis::kNone;

namespace {

void sort_unique(std::vector<uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

FindingFocus focus_of(const analysis::Profile& p, const analysis::Finding& f) {
  FindingFocus out;
  const double a = static_cast<double>(std::min(f.t0, f.t1));
  const double b = static_cast<double>(std::max(f.t0, f.t1));
  const double margin = std::max((b - a) / 20, 1000.0);
  out.t0 = std::max(a - margin, static_cast<double>(p.start));
  out.t1 = std::min(b + margin, static_cast<double>(p.stop));
  if (out.t1 <= out.t0) {  // a window outside the run: show it as it is
    out.t0 = a - margin;
    out.t1 = b + margin;
  }
  for (uint32_t l : f.lanes)
    if (l < p.lanes.size()) out.own.push_back(l);
  sort_unique(out.own);
  out.lanes = out.own;
  for (uint32_t i : f.items) {
    if (i >= p.items.size()) continue;
    out.outline.push_back(i);
    if (const uint32_t l = p.lane_of(i); l != kNone) out.lanes.push_back(l);
  }
  sort_unique(out.lanes);
  sort_unique(out.outline);
  return out;
}

float scroll_to_lanes(const Layout& layout, const std::vector<uint32_t>& lanes, float scroll,
                      float visible) {
  float top = layout.height(), bottom = 0;
  const auto& rows = layout.rows();
  for (uint32_t l : lanes) {
    const int r = layout.row_of_lane(l);
    if (r < 0) continue;
    const LayoutRow& row = rows[static_cast<size_t>(r)];
    // The kind's avg row above its first lane comes along.
    int first = r;
    while (first > 0 && rows[static_cast<size_t>(first) - 1].type == RowType::Lane) --first;
    const float above = first > 0 && rows[static_cast<size_t>(first) - 1].type == RowType::Avg
                            ? rows[static_cast<size_t>(first) - 1].y
                            : rows[static_cast<size_t>(first)].y;
    top = std::min(top, r == first ? above : row.y);
    bottom = std::max(bottom, row.y + row.h);
  }
  if (top >= bottom) return scroll;                                // no lane has a row
  if (top >= scroll && bottom <= scroll + visible) return scroll;  // all on screen
  return top;
}

std::vector<int> findings_of(const analysis::Profile& p, const analysis::Findings& f,
                             uint32_t item) {
  std::vector<int> out;
  if (item >= p.items.size()) return out;
  for (size_t k = 0; k < f.findings.size(); ++k)
    if (analysis::belongs(p, f.findings[k], item)) out.push_back(static_cast<int>(k));
  return out;
}

}  // namespace legato::viewer
