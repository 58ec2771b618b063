#include "analysis/palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

namespace {

// A hash of a name that every run computes alike: FNV-1a, then mixed so
// that names differing in their last letter (task1, task2) differ in the
// top bits too, which pick the hue.
uint64_t name_hash(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

std::unordered_map<std::string, Rgb>& pins() {
  static std::unordered_map<std::string, Rgb> pinned;
  return pinned;
}

}  // namespace

void pin_colors(std::unordered_map<std::string, Rgb> p) {
  pins() = std::move(p);
}

Rgb item_rgb(std::string_view name, ItemKind kind, State state, bool dark) {
  static constexpr double kStateMix[] = {0, 0.45, 0.75};  // running, ready, blocked
  const double mix = kStateMix[static_cast<int>(state)];
  const bool copies = kind == ItemKind::Copy || kind == ItemKind::Fill;
  if (!copies && !pins().empty()) {
    if (const auto pin = pins().find(std::string(name)); pin != pins().end()) {
      const Rgb c = pin->second;
      const double to = dark ? 36 : 255;
      const auto fade = [&](uint8_t v) {
        return static_cast<uint8_t>(std::lround(v + (to - v) * mix));
      };
      return {fade(c.r), fade(c.g), fade(c.b)};
    }
  }
  const int k = static_cast<int>(kind);
  // The hash's top bits as a fraction of the circle; a kind turns it by the
  // golden angle, so a name's task and meta-task differ.
  const double turn = static_cast<double>(name_hash(name) >> 11) / 9007199254740992.0;
  double h = std::fmod(turn * 360.0 + 7.0 * k * 137.508, 360.0), s = 55, l = 48;
  if (kind == ItemKind::Copy) h = 190, s = 60;
  if (kind == ItemKind::Fill) h = 28, s = 70;
  if (kind == ItemKind::Instance) l = 62;
  l += ((dark ? 16 : 100) - l) * mix;
  return hsl_to_rgb(h, s / 100, l / 100);
}

Rgb label_rgb(Rgb fill) {
  const double luma = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b;
  return luma > 170 ? Rgb{34, 40, 52} : Rgb{255, 255, 255};
}

}  // namespace legato::analysis
