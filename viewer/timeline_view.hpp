// Draws the timeline into an ImGui draw list: the time ruler, the label
// column, node headers, avg lines, lanes of boxes (state shading, tiny
// items folded into bars of what ran, labels), error lines, highlights and
// the critical-path chain; and answers what lies under the mouse. Only what
// is visible is queried.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <imgui.h>

#include "analysis/fold_summary.hpp"
#include "analysis/state_sums.hpp"
#include "analysis/timeline.hpp"
#include "viewer/camera.hpp"
#include "viewer/layout.hpp"
#include "viewer/palette.hpp"
#include "viewer/utilization_cache.hpp"

namespace legato::viewer {

inline constexpr float kMinLabelWidth = 170, kMaxLabelWidth = 360;
inline constexpr float kMinBoxPx = 3;

// What stands out: search hits (sorted), the critical chain (item, its last
// precondition, ...), the clicked finding's items (sorted), a followed link,
// the selected item, a range being selected.
struct Highlights {
  std::vector<uint32_t> hits;
  std::vector<uint32_t> outlined;
  std::vector<uint32_t> chain;
  std::vector<uint32_t> chain_sorted;
  uint32_t flash = analysis::kNone;
  uint32_t selected = analysis::kNone;
  std::optional<std::pair<float, float>> selecting;  // x range in the lanes area
  // The range the user selected (a left drag) and the one they marked (m),
  // in the run's times: drawn as bands with their lengths.
  std::optional<std::pair<double, double>> range, mark;
};

struct Pick {
  enum class Type { None, Item, Merged, Avg, Error, Label, Axis, Lost } type = Type::None;
  uint32_t item = analysis::kNone;  // Item; Merged: its first item
  uint32_t count = 0;               // Merged
  analysis::Time start = 0, stop = 0, busy = 0;
  int row = -1;      // layout row (Avg, Label)
  double value = 0;  // Avg: utilization at the mouse (NaN: unknown, memories of no known size)
  size_t error = 0;  // Error: index into Profile::errors; Lost: into Profile::lost
  double time = 0;   // the time under the mouse
};

class TimelineView {
 public:
  // Draws in [origin, origin + size) of the current window's draw list.
  void draw(ImDrawList* dl, ImVec2 origin, ImVec2 size, const analysis::Profile& p,
            const Layout& layout, const Camera& cam, const UtilizationCache& util,
            const Highlights& hl);
  Pick pick(ImVec2 mouse, const analysis::Profile& p, const Layout& layout, const Camera& cam,
            const UtilizationCache& util) const;

  // The lanes area (right of the labels, below the ruler) of the last draw.
  ImVec2 lanes_origin() const { return {origin_.x + label_width_, origin_.y + kAxisHeight}; }
  float lanes_width() const { return std::max(1.f, size_.x - label_width_); }
  // The label column of the last draw: as wide as the longest label needs.
  float label_width() const { return label_width_; }
  float lanes_height() const { return std::max(1.f, size_.y - kAxisHeight); }
  // Screen rectangle of an item in the last draw, when it was drawn on its own.
  std::optional<ImVec4> item_rect(uint32_t item) const;
  // Boxes drawn by the last draw (for tests and the benchmark).
  size_t boxes_drawn() const { return hits_.size(); }
  // Boxes the last draw outlined as a finding's items.
  size_t outlined_drawn() const { return outlined_drawn_; }

 private:
  struct HitBox {
    float x0, x1, y0, y1;
    uint32_t first, count;
    analysis::Time start, stop, busy;
  };
  void draw_axis(ImDrawList* dl, const Camera& cam) const;
  // Hatches the row where its node's records were lost (Profile::lost).
  void draw_lost(ImDrawList* dl, const analysis::Profile& p, const LayoutRow& row, float top,
                 const Camera& cam) const;
  // A band over the lanes from x0 to x1 with its length written at its top.
  void draw_band(ImDrawList* dl, float x0, float x1, ImU32 fill, ImU32 edge,
                 const std::string& length) const;
  void draw_avg(ImDrawList* dl, const LayoutRow& row, float top, const Camera& cam,
                const UtilizationCache& util);
  void draw_lane(ImDrawList* dl, const analysis::Profile& p, const LayoutRow& row, float top,
                 const Camera& cam, const Highlights& hl);
  void draw_item(ImDrawList* dl, const analysis::Profile& p, uint32_t i, float x0, float x1,
                 float y, float h, const Camera& cam);
  void draw_folded(ImDrawList* dl, const analysis::Profile& p, const analysis::DrawBox& b, float x0,
                   float x1, float y, float h, const Camera& cam);
  void draw_chain(ImDrawList* dl, const analysis::Profile& p, const Layout& layout,
                  const Camera& cam, const Highlights& hl) const;
  void draw_errors(ImDrawList* dl, const analysis::Profile& p, const Camera& cam) const;
  void draw_labels(ImDrawList* dl, const Layout& layout, const Camera& cam) const;
  // The clamped screen x of a time in the lanes area.
  float screen_x(analysis::Time t, const Camera& cam) const;
  // A box's label, clipped to the box and the lanes area.
  void box_text(ImDrawList* dl, const std::string& text, float x0, float x1, float y, float h,
                ImU32 color) const;
  float x_of(double t, const Camera& cam) const {
    return lanes_origin().x + static_cast<float>(cam.x_of(t, lanes_width()));
  }

  // A task whose waits outnumber the pixels: per pixel the state it spent
  // most of the pixel in, from its StateSums (made once per task).
  ImU32 draw_pixel_states(ImDrawList* dl, const analysis::Profile& p, uint32_t i, float x0,
                          float x1, float y, float h, const Camera& cam, float text_x);

  ImVec2 origin_{0, 0}, size_{1, 1};
  float label_width_ = kMinLabelWidth;
  // The StateSums made, for the profile they were made of.
  const analysis::Profile* sums_of_ = nullptr;
  std::unordered_map<uint32_t, analysis::StateSums> sums_;
  std::vector<analysis::PixelRun> runs_;       // scratch
  std::vector<analysis::DrawBox> boxes_;       // scratch
  std::vector<analysis::FoldColumn> columns_;  // scratch
  std::vector<HitBox> hits_;
  size_t outlined_drawn_ = 0;
  std::vector<ImVec2> points_;  // scratch
  ColorCache colors_;
};

// "1.5 ms" style tick labels for a step of the ruler.
std::string tick_label(double ns, double step);

// "out of memory", "crash", "warning", "fatal error": the flag on an error line.
const char* error_tag(trace::ErrorKind kind);

// A time as an offset from the start of the run: "88.430 ms".
std::string at_time(const analysis::Profile& p, analysis::Time t);

}  // namespace legato::viewer
