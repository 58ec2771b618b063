#include "analysis/palette.hpp"

#include <algorithm>
#include <cmath>

namespace legato::analysis {

Rgb hsl_to_rgb(double hue, double sat, double light) {
  // Chroma from lightness and saturation, then the hue's sextant.
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
    return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
  };
  return {byte(r + m), byte(g + m), byte(b + m)};
}

Rgb item_rgb(uint32_t name, ItemKind kind, State state) {
  static constexpr double kStateMix[] = {0, 0.45, 0.75};  // running, ready, blocked
  const int k = static_cast<int>(kind);
  double h = std::fmod((name + 7.0 * k) * 137.508, 360.0), s = 55, l = 48;
  if (kind == ItemKind::Copy) h = 190, s = 60;
  if (kind == ItemKind::Fill) h = 28, s = 70;
  if (kind == ItemKind::Instance) l = 62;
  l += (100 - l) * kStateMix[static_cast<int>(state)];
  return hsl_to_rgb(h, s / 100, l / 100);
}

}  // namespace legato::analysis
