// legate_prof: inspect, view and publish Legato traces (legate_<rank>.prof).
#include <vector>

#include "commands.hpp"
#include "trace_format/frame.hpp"

int main(int argc, char** argv) {
  CLI::App app{"legate_prof: inspect Legato traces (legate_<rank>.prof files)"};
  app.set_version_flag("--version", "legate_prof 0.1.0 (trace format " +
                                        std::to_string(legato::trace::kFormatMajor) + "." +
                                        std::to_string(legato::trace::kFormatMinor) + ")");
  app.require_subcommand(1);
  const std::vector<legato::tools::Command> commands = {
      legato::tools::add_info_command(app), legato::tools::add_dump_command(app),
      legato::tools::add_stats_command(app), legato::tools::add_archive_command(app),
      legato::tools::add_view_command(app)};
  CLI11_PARSE(app, argc, argv);
  for (const auto& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  return 2;
}
