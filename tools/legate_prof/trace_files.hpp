// The trace files named on a legate_prof command line, checked the same way
// for every subcommand: by opening them as the reader does, so a file that
// cannot be read is reported with the system's reason ("legate_prof stats:
// a.prof: cannot open: Permission denied"), not a guess.
#pragma once

#include <string>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::tools {

struct TraceFiles {
  std::vector<std::string> readable;  // in the order given
  bool all_readable = true;
};

// Prints "legate_prof <command>: <why>" to stderr for each file that cannot
// be opened and returns the others.
TraceFiles check_trace_files(const std::string& command, const std::vector<std::string>& files);

// The exit status for a loaded profile (commands.hpp): kExitIncomplete when a
// file given was not readable or lost data, else kExitOk.
int exit_status(const TraceFiles& files, const analysis::Profile& p);

}  // namespace legato::tools
