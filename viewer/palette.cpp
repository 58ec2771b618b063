#include "viewer/palette.hpp"

#include <cmath>

namespace legato::viewer {

ImU32 hsl(double hue, double sat, double light, double alpha) {
  // CSS's hsl(): chroma from lightness and saturation, then the hue's sextant.
  const double c = (1 - std::fabs(2 * light - 1)) * sat;
  const double h = std::fmod(hue, 360.0) / 60.0;
  const double x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1) {
    r = c, g = x;
  } else if (h < 2) {
    r = x, g = c;
  } else if (h < 3) {
    g = c, b = x;
  } else if (h < 4) {
    g = x, b = c;
  } else if (h < 5) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  const double m = light - c / 2;
  const auto byte = [](double v) {
    return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
  };
  return IM_COL32(byte(r + m), byte(g + m), byte(b + m), byte(alpha));
}

ImU32 item_color(const analysis::Profile& p, uint32_t item, analysis::State state) {
  using analysis::ItemKind;
  static constexpr double kStateMix[] = {0, 0.45, 0.75};  // running, ready, blocked
  const analysis::Item& it = p.items[item];
  const int kind = static_cast<int>(it.kind);
  double h = std::fmod((it.name + 7.0 * kind) * 137.508, 360.0), s = 55, l = 48;
  if (it.kind == ItemKind::Copy) h = 190, s = 60;
  if (it.kind == ItemKind::Fill) h = 28, s = 70;
  if (it.kind == ItemKind::Instance) l = 62;
  l += (100 - l) * kStateMix[static_cast<int>(state)];
  return hsl(h, s / 100, l / 100);
}

}  // namespace legato::viewer

namespace legato::viewer {

ImU32 ColorCache::get(const analysis::Profile& p, uint32_t item, analysis::State state) {
  const analysis::Item& it = p.items[item];
  const uint64_t key = (uint64_t{it.name} << 8) | static_cast<uint64_t>(it.kind);
  auto found = colors_.find(key);
  if (found == colors_.end()) {
    std::array<ImU32, 3> c{};
    for (int s = 0; s < 3; ++s)
      c[static_cast<size_t>(s)] = item_color(p, item, static_cast<analysis::State>(s));
    found = colors_.emplace(key, c).first;
  }
  return found->second[static_cast<size_t>(state)];
}

}  // namespace legato::viewer
