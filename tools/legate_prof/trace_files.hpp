// The trace files named on a legate_prof command line, checked the same way
// for every subcommand: by opening them as the reader does, so a file that
// cannot be read is reported with the system's reason ("legate_prof stats:
// a.prof: cannot open: Permission denied"), not a guess. A directory stands
// for the trace files in it (the log directory a run wrote).
#pragma once

#include <string>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::tools {

struct TraceFiles {
  std::vector<std::string> readable;  // in the order given, a directory's in rank order
  bool all_readable = true;
};

// Whether a directory on the command line stands for its trace files.
enum class Directories { Expand, Refuse };

// Prints "legate_prof <command>: <why>" to stderr for each file that cannot
// be opened (and each directory that holds no trace file) and returns the
// others.
TraceFiles check_trace_files(const std::string& command, const std::vector<std::string>& files,
                             Directories directories = Directories::Expand);

// The trace files directly in dir, by name: Legato traces and Legion Prof
// logs (*.prof, prof_*, plain or gzip), in natural order (legate_2.prof
// before legate_10.prof). Sub-directories (the report) are not entered.
std::vector<std::string> trace_files_in(const std::string& dir);

// The exit status for a loaded profile (commands.hpp): kExitIncomplete when a
// file given was not readable or lost data, else kExitOk.
int exit_status(const TraceFiles& files, const analysis::Profile& p);

}  // namespace legato::tools
