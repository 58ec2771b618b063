#include "viewer/palette.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/palette.hpp"

namespace legato::viewer {

ImU32 hsl(double hue, double sat, double light, double alpha) {
  const analysis::Rgb c = analysis::hsl_to_rgb(hue, sat, light);
  return IM_COL32(c.r, c.g, c.b, static_cast<int>(std::lround(std::clamp(alpha, 0.0, 1.0) * 255)));
}

ImU32 item_color(const analysis::Profile& p, uint32_t item, analysis::State state) {
  const analysis::Item& it = p.items[item];
  const analysis::Rgb c =
      analysis::item_rgb(p.str(it.name), it.kind, state, theme() == Theme::Dark);
  return IM_COL32(c.r, c.g, c.b, 255);
}

}  // namespace legato::viewer

namespace legato::viewer {

ImU32 ColorCache::get(const analysis::Profile& p, uint32_t item, analysis::State state) {
  const analysis::Item& it = p.items[item];
  const uint64_t key = (uint64_t{it.name} << 9) | (uint64_t{theme() == Theme::Dark} << 8) |
                       static_cast<uint64_t>(it.kind);
  auto found = colors_.find(key);
  if (found == colors_.end()) {
    std::array<ImU32, 3> c{};
    for (int s = 0; s < 3; ++s)
      c[static_cast<size_t>(s)] = item_color(p, item, static_cast<analysis::State>(s));
    found = colors_.emplace(key, c).first;
  }
  return found->second[static_cast<size_t>(state)];
}

namespace {
Theme g_theme = Theme::Light;
}  // namespace

void set_theme(Theme theme) {
  g_theme = theme;
  if (!ImGui::GetCurrentContext()) return;
  if (theme == Theme::Dark) {
    ImGui::StyleColorsDark();
  } else {
    ImGui::StyleColorsLight();
  }
}

Theme theme() {
  return g_theme;
}

const Colors& colors() {
  return g_theme == Theme::Dark ? kDarkColors : kLightColors;
}

}  // namespace legato::viewer
