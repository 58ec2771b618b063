// legate_prof archive FILE... [-o DIR]: the self-contained HTML report.
#include <filesystem>
#include <iostream>

#include "analysis/units.hpp"
#include "base/file_create.hpp"
#include "commands.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "trace_files.hpp"

namespace legato::tools {

Command add_archive_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "archive", "Write a self-contained HTML report (DIR/index.html) that opens offline");
  sub->footer(
      help_footer("  legate_prof archive run/ -o report   write report/index.html; copy the whole "
                  "folder to share it"));
  auto files = std::make_shared<std::vector<std::string>>();
  auto dir = std::make_shared<std::string>("legate_prof");
  sub->add_option("files", *files, kRunFilesHelp)->required();
  sub->add_option("-o,--output", *dir, "Directory for index.html")->capture_default_str();
  return {sub, [files, dir] {
            // Before anything is read: the report must not replace an input,
            // and what is at its path must be a file (a FIFO would block the
            // write until someone reads it).
            const std::string report = (std::filesystem::path(*dir) / "index.html").string();
            if (!outputs_apart("archive", *files, {report})) return kExitUsage;
            if (const std::string kind = base::special_file(report); !kind.empty()) {
              std::cerr << "legate_prof archive: cannot write " << report << ": "
                        << base::not_a_file_reason(kind)
                        << "; remove it or choose another directory with -o\n";
              return kExitIncomplete;
            }
            const TraceFiles given = check_trace_files("archive", *files);
            if (given.readable.empty()) return kExitIncomplete;
            try {
              base::Progress progress;
              auto line = progress_line("archive", progress);
              const analysis::Profile p = load::load_profile(given.readable, watched(progress));
              progress.phase("writing the report");
              const html::ReportInfo r = html::write_report(p, *dir);
              line.reset();  // erased before anything is printed
              for (const auto& w : p.warnings) {
                std::cerr << "legate_prof archive: warning: " << w << "\n";
              }
              std::cout << "wrote " << r.path << " ("
                        << analysis::human_bytes(static_cast<double>(r.total_bytes)) << " with its "
                        << r.files << " detail files, " << analysis::grouped(p.records)
                        << " records from " << p.ranks.size() << " rank(s))\n";
              return exit_status(given, p);
            } catch (const analysis::LoadError& e) {
              std::cerr << "legate_prof archive: " << e.what() << "\n";
            } catch (const html::ReportError& e) {
              std::cerr << "legate_prof archive: " << e.what() << "\n";
            }
            return kExitIncomplete;
          }};
}

}  // namespace legato::tools
