// What legate_prof writes must never be one of the files it reads: `archive
// -o DIR` onto a trace named DIR/index.html, `view --screenshot` onto a
// trace, or standard output redirected into one (`stats t.prof >> t.prof`)
// would replace or grow the run's only record of itself. Files are compared
// by device and inode, so links and other spellings of a path are caught.
#pragma once

#include <string>
#include <vector>

namespace legato::tools {

// "" when no output is one of the inputs; else the usage error to print
// (after "legate_prof SUBCOMMAND: "), naming both. `outputs` are paths to be
// written; standard output counts as one when it is a regular file.
std::string output_is_an_input(const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs);

// Prints "legate_prof COMMAND: <output_is_an_input>" to stderr and returns
// false when an output is an input (a usage error: nothing is read).
bool outputs_apart(const std::string& command, const std::vector<std::string>& inputs,
                   const std::vector<std::string>& outputs = {});

}  // namespace legato::tools
