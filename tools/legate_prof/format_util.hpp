// Human-readable numbers for the command-line tools (shared with the viewer).
#pragma once

#include "analysis/units.hpp"

namespace legato::tools {

using analysis::grouped;
using analysis::human_bytes;
using analysis::human_ns;

}  // namespace legato::tools
