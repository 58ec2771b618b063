// legate_prof view in a real window under Xvfb, driven by a script, for the
// GUI tests (which skip with a message when xvfb-run is missing).
#pragma once

#include <fstream>
#include <string>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

namespace legato::testing {

inline bool have_xvfb() {
  return run_command("command -v xvfb-run").status == 0;
}

// Runs `legate_prof view ARGS --script S --size 1400x800` on a 1600x1000
// screen, S holding script_text (in dir).
inline CommandResult view_under_xvfb(const std::string& args, const std::string& script_text,
                                     const trace::testing::TempDir& dir) {
  const std::string script = dir.file("script.txt");
  std::ofstream(script) << script_text;
  // The X authority file in the test's directory: xvfb-run then makes no
  // temporary directory of its own, whose clean-up can fail (exit 5) when
  // several run at once.
  return run_command("xvfb-run -a -f " + dir.file("Xauthority") + " -s '-screen 0 1600x1000x24' " +
                     bin("legate_prof") + " view " + args + " --script " + script +
                     " --size 1400x800");
}

}  // namespace legato::testing
