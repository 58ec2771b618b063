// The legate_prof subcommands. Each adds itself to the CLI and returns what
// runs it; run() returns the exit status: 0 when every file was read without
// errors (warnings allowed), 1 when a file could not be read or was damaged.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace legato::tools {

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_info_command(CLI::App& app);
Command add_dump_command(CLI::App& app);
Command add_stats_command(CLI::App& app);
Command add_archive_command(CLI::App& app);
Command add_view_command(CLI::App& app);

}  // namespace legato::tools
