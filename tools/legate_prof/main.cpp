// legate_prof: inspect, view and publish Legato traces and Legion Prof logs.
#include <iostream>
#include <vector>

#include "color_pins.hpp"
#include "commands.hpp"
#include "terminal_text.hpp"
#include "trace_format/frame.hpp"

int main(int argc, char** argv) {
  // Names in traces and file names reach the terminal escaped (terminal_text.hpp).
  legato::tools::make_terminal_output_safe();
  CLI::App app{
      "legate_prof: inspect, view and publish the traces of a run: Legato traces "
      "(legate_<rank>.prof) or Legion Prof logs (legate_<rank>.prof, prof_<node>.gz)",
      "legate_prof"};  // named so, not by the path it was started from
  app.set_version_flag("--version", "legate_prof 0.1.0 (trace format " +
                                        std::to_string(legato::trace::kFormatMajor) + "." +
                                        std::to_string(legato::trace::kFormatMinor) + ")");
  app.footer(legato::tools::kExitStatusHelp);  // before the subcommands, which copy it
  app.require_subcommand(1);
  const std::vector<legato::tools::Command> commands = {
      legato::tools::add_info_command(app),    legato::tools::add_dump_command(app),
      legato::tools::add_stats_command(app),   legato::tools::add_findings_command(app),
      legato::tools::add_archive_command(app), legato::tools::add_view_command(app)};
  // Only the top level's help says how to get a subcommand's.
  app.footer(std::string("Run 'legate_prof SUBCOMMAND --help' for a subcommand's options.\n") +
             legato::tools::help_footer(
                 "  legate_prof findings run/   what is wrong in the run whose traces are in run/\n"
                 "  legate_prof view run/       its timeline in the desktop viewer\n"
                 "  legate_prof archive run/    its HTML report, in legate_prof/index.html"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that succeed; the rest are usage errors.
    return app.exit(e) == 0 ? legato::tools::kExitOk : legato::tools::kExitUsage;
  }
  // The colours pinned to kinds, for the viewer and the report alike.
  for (const std::string& problem : legato::tools::load_color_pins())
    std::cerr << "legate_prof: warning: " << problem << "\n";
  for (const auto& c : commands) {
    if (c.app->parsed()) return c.run();
  }
  return legato::tools::kExitUsage;
}
