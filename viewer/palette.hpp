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

// The frame's own colours (items' are analysis/palette.hpp's), in a light
// and a dark theme; colors() is the one in use (set_theme).
struct Colors {
  ImU32 background;
  ImU32 axis;
  ImU32 axis_line;
  ImU32 axis_text;
  ImU32 node_header;
  ImU32 label_column;
  ImU32 row_line;
  ImU32 text;
  ImU32 folded;  // behind a box of folded items, whose bars show what ran
  ImU32 avg_fill;
  ImU32 avg_line;
  ImU32 flash;
  ImU32 chain;
  ImU32 hit;
  ImU32 selected;
  ImU32 outlined;  // a clicked finding's items
  ImU32 outlined_edge;
  ImU32 error;
  ImU32 selection;
  ImU32 selection_edge;
  ImU32 mark;
  ImU32 lost_fill;  // records lost to damage
  ImU32 lost_hatch;
  ImU32 mark_edge;
  ImU32 splitter;
  ImU32 scroll_thumb;
  ImU32 warning_banner;
  ImU32 error_banner;
};

inline constexpr Colors kLightColors = {.background = IM_COL32(255, 255, 255, 255),
                                        .axis = IM_COL32(246, 247, 249, 255),
                                        .axis_line = IM_COL32(213, 217, 224, 255),
                                        .axis_text = IM_COL32(74, 84, 104, 255),
                                        .node_header = IM_COL32(233, 236, 241, 255),
                                        .label_column = IM_COL32(248, 249, 251, 255),
                                        .row_line = IM_COL32(236, 238, 242, 255),
                                        .text = IM_COL32(34, 40, 52, 255),
                                        .folded = IM_COL32(226, 229, 234, 255),
                                        .avg_fill = IM_COL32(45, 110, 200, 64),
                                        .avg_line = IM_COL32(45, 110, 200, 255),
                                        .flash = IM_COL32(255, 45, 85, 255),
                                        .chain = IM_COL32(17, 17, 17, 255),
                                        .hit = IM_COL32(208, 0, 208, 255),
                                        .selected = IM_COL32(255, 176, 0, 255),
                                        .outlined = IM_COL32(0, 230, 118, 255),
                                        .outlined_edge = IM_COL32(10, 40, 20, 255),
                                        .error = IM_COL32(208, 2, 27, 255),
                                        .selection = IM_COL32(31, 95, 191, 40),
                                        .selection_edge = IM_COL32(31, 95, 191, 220),
                                        .mark = IM_COL32(214, 120, 20, 32),
                                        .lost_fill = IM_COL32(120, 120, 120, 60),
                                        .lost_hatch = IM_COL32(110, 110, 110, 150),
                                        .mark_edge = IM_COL32(196, 104, 8, 230),
                                        .splitter = IM_COL32(213, 217, 224, 255),
                                        .scroll_thumb = IM_COL32(120, 128, 140, 160),
                                        .warning_banner = IM_COL32(255, 243, 205, 255),
                                        .error_banner = IM_COL32(253, 226, 226, 255)};

inline constexpr Colors kDarkColors = {.background = IM_COL32(30, 32, 36, 255),
                                       .axis = IM_COL32(40, 43, 48, 255),
                                       .axis_line = IM_COL32(70, 75, 84, 255),
                                       .axis_text = IM_COL32(170, 178, 192, 255),
                                       .node_header = IM_COL32(48, 52, 60, 255),
                                       .label_column = IM_COL32(36, 38, 43, 255),
                                       .row_line = IM_COL32(46, 49, 55, 255),
                                       .text = IM_COL32(222, 226, 234, 255),
                                       .folded = IM_COL32(58, 62, 70, 255),
                                       .avg_fill = IM_COL32(90, 150, 235, 70),
                                       .avg_line = IM_COL32(110, 165, 240, 255),
                                       .flash = IM_COL32(255, 80, 115, 255),
                                       .chain = IM_COL32(240, 240, 240, 255),
                                       .hit = IM_COL32(235, 80, 235, 255),
                                       .selected = IM_COL32(255, 190, 40, 255),
                                       .outlined = IM_COL32(0, 230, 118, 255),
                                       .outlined_edge = IM_COL32(200, 255, 220, 255),
                                       .error = IM_COL32(240, 60, 80, 255),
                                       .selection = IM_COL32(90, 150, 235, 50),
                                       .selection_edge = IM_COL32(110, 165, 240, 230),
                                       .mark = IM_COL32(230, 140, 40, 40),
                                       .lost_fill = IM_COL32(140, 140, 140, 55),
                                       .lost_hatch = IM_COL32(150, 150, 150, 150),
                                       .mark_edge = IM_COL32(230, 140, 40, 230),
                                       .splitter = IM_COL32(70, 75, 84, 255),
                                       .scroll_thumb = IM_COL32(150, 158, 170, 160),
                                       .warning_banner = IM_COL32(74, 62, 24, 255),
                                       .error_banner = IM_COL32(84, 30, 34, 255)};

enum class Theme { Light, Dark };
// The theme in use: the frame's colours and ImGui's style.
void set_theme(Theme theme);
Theme theme();
const Colors& colors();

}  // namespace legato::viewer
