// The colours of items, one palette for the viewer and the HTML report (which
// takes them from the report's index): a hue per name and kind, copies cyan,
// fills orange, instances lighter; ready and blocked parts are the running
// colour mixed with white (intermediate, lightest).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "analysis/profile.hpp"
#include "analysis/timeline.hpp"

namespace legato::analysis {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

// CSS's hsl(): hue in degrees, saturation and lightness in 0..1.
Rgb hsl_to_rgb(double hue, double sat, double light);

// The colour of items of a name and kind in a state. The hue comes from
// the name's text, so a kind has its colour in every run, and in the viewer
// and the report alike, whatever the order its trace named things in.
// On a dark background (dark) the ready and blocked parts fade toward it
// instead of toward white.
Rgb item_rgb(std::string_view name, ItemKind kind, State state, bool dark = false);

// Colours a user pinned to names (a settings file the tools read:
// color_pins.hpp), used for those names' tasks and runtime work in place of
// their hue; the ready and blocked parts fade from it as from any colour.
// Set once, before anything is drawn.
void pin_colors(std::unordered_map<std::string, Rgb> pins);

// The colour of a label drawn on fill: dark on light colours, else white.
Rgb label_rgb(Rgb fill);

}  // namespace legato::analysis
