// The viewer's colors: items in analysis/palette.hpp's (the HTML report's
// too), and the frame's own.
#pragma once

#include <imgui.h>

#include <array>
#include <unordered_map>

#include "analysis/profile.hpp"
#include "analysis/timeline.hpp"

namespace legato::viewer {

ImU32 item_color(const analysis::Profile& p, uint32_t item, analysis::State state);

// item_color remembered per name and kind (drawing asks for the same few
// colors thousands of times a frame).
class ColorCache {
 public:
  ImU32 get(const analysis::Profile& p, uint32_t item, analysis::State state);

 private:
  std::unordered_map<uint64_t, std::array<ImU32, 3>> colors_;
};

// hue in degrees, saturation and lightness in 0..1.
ImU32 hsl(double hue, double sat, double light, double alpha = 1);

namespace colors {
inline constexpr ImU32 kBackground = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 kAxis = IM_COL32(246, 247, 249, 255);
inline constexpr ImU32 kAxisLine = IM_COL32(213, 217, 224, 255);
inline constexpr ImU32 kAxisText = IM_COL32(74, 84, 104, 255);
inline constexpr ImU32 kNodeHeader = IM_COL32(233, 236, 241, 255);
inline constexpr ImU32 kLabelColumn = IM_COL32(248, 249, 251, 255);
inline constexpr ImU32 kRowLine = IM_COL32(236, 238, 242, 255);
inline constexpr ImU32 kText = IM_COL32(34, 40, 52, 255);
// Behind a box of folded items, whose bars show what ran (fold_summary.hpp).
inline constexpr ImU32 kFolded = IM_COL32(226, 229, 234, 255);
inline constexpr ImU32 kAvgFill = IM_COL32(45, 110, 200, 64);
inline constexpr ImU32 kAvgLine = IM_COL32(45, 110, 200, 255);
inline constexpr ImU32 kFlash = IM_COL32(255, 45, 85, 255);
inline constexpr ImU32 kChain = IM_COL32(17, 17, 17, 255);
inline constexpr ImU32 kHit = IM_COL32(208, 0, 208, 255);
inline constexpr ImU32 kSelected = IM_COL32(255, 176, 0, 255);
inline constexpr ImU32 kOutlined = IM_COL32(0, 230, 118, 255);  // a clicked finding's items
inline constexpr ImU32 kOutlinedEdge = IM_COL32(10, 40, 20, 255);
inline constexpr ImU32 kError = IM_COL32(208, 2, 27, 255);
inline constexpr ImU32 kSelection = IM_COL32(31, 95, 191, 40);
inline constexpr ImU32 kSelectionEdge = IM_COL32(31, 95, 191, 220);
inline constexpr ImU32 kMark = IM_COL32(214, 120, 20, 32);
inline constexpr ImU32 kLostFill = IM_COL32(120, 120, 120, 60);  // records lost to damage
inline constexpr ImU32 kLostHatch = IM_COL32(110, 110, 110, 150);
inline constexpr ImU32 kMarkEdge = IM_COL32(196, 104, 8, 230);
inline constexpr ImU32 kSplitter = IM_COL32(213, 217, 224, 255);
inline constexpr ImU32 kScrollThumb = IM_COL32(120, 128, 140, 160);
inline constexpr ImU32 kWarningBanner = IM_COL32(255, 243, 205, 255);
inline constexpr ImU32 kErrorBanner = IM_COL32(253, 226, 226, 255);
}  // namespace colors

}  // namespace legato::viewer
