// The colours a user pins to kinds of work, so a kind looks the same in
// every run and in every picture they publish: a JSON object of names and
// "#rrggbb" colours, {"BinaryOpTask": "#3cb44b"}, read from $LEGATO_COLORS
// or else $XDG_CONFIG_HOME/legato/colors.json (~/.config/legato/colors.json).
// The viewer and the report both use them (analysis::pin_colors).
#pragma once

#include <string>
#include <vector>

namespace legato::tools {

// Reads the settings file, if there is one, and pins its colours. Returns
// what was wrong with it (one line each, naming the file); a wrong entry is
// left out, the others pinned.
std::vector<std::string> load_color_pins();

}  // namespace legato::tools
