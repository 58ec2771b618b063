// What clicking a finding shows: its time window with a margin, the lanes to
// unfold (its own and those of its representative items) and the items to
// outline; and the scroll that brings those lanes into view. Plain data, no
// ImGui, so the state logic is tested without a window.
#pragma once

#include <vector>

#include "analysis/findings.hpp"
#include "analysis/profile.hpp"
#include "viewer/layout.hpp"

namespace legato::viewer {

struct FindingFocus {
  double t0 = 0, t1 = 0;          // the window to show (model clock, ns)
  std::vector<uint32_t> lanes;    // to unfold: its own and its items', sorted, unique
  std::vector<uint32_t> own;      // the finding's own lanes, sorted, unique
  std::vector<uint32_t> outline;  // the representative items, sorted, unique
};

// The finding's [t0, t1] widened by a twentieth of its span on each side
// (at least 1 us), clamped to the run.
FindingFocus focus_of(const analysis::Profile& p, const analysis::Finding& f);

// The scroll that shows the lanes' rows (from the avg row above the first),
// or `scroll` when they are already all on screen. Lanes without a row (still
// folded) are left out.
float scroll_to_lanes(const Layout& layout, const std::vector<uint32_t>& lanes, float scroll,
                      float visible);

// The findings an item belongs to (indices into f.findings).
std::vector<int> findings_of(const analysis::Profile& p, const analysis::Findings& f,
                             uint32_t item);

}  // namespace legato::viewer
