// The HTML report at the end of a --profile run: `legate_prof archive` runs in
// a child process and writes <logdir>/legate_prof/index.html from the run's
// traces, as the seeds promise. The runtime does not link the profile model
// (nothing flows backwards from analysis/ to the runtime), and a report that
// cannot be written is a warning on stderr, never a failed run.
#pragma once

#include <string>
#include <vector>

namespace legato::rt {

// The legate_prof to run: the build tree's, else the installed one, else
// "legate_prof" from PATH.
std::string legate_prof_executable();

// `legate_prof archive TRACES... -o DIR` as a user would type it into a shell.
std::string report_command(const std::vector<std::string>& traces, const std::string& dir);

// Runs `legate_prof archive TRACES... -o DIR` and waits for it; its output
// goes to stderr so the program's stdout stays its own. Returns whether the
// report was written; otherwise a warning says why and how to write it later.
bool write_profile_report(const std::vector<std::string>& traces, const std::string& dir);

}  // namespace legato::rt
