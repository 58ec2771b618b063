// legate_prof view FILE...: the desktop viewer.
#include <algorithm>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "load/rank_filter.hpp"
#include "output_paths.hpp"
#include "trace_files.hpp"
#include "viewer/screenshot_file.hpp"
#include "viewer/window.hpp"

namespace legato::tools {

namespace {

// "1600x900" -> {1600, 900}; false when it is not a size in range (digits
// only on either side: no sign, no spaces, nothing after).
bool parse_size(const std::string& text, int& w, int& h) {
  const size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return false;
  const auto width = parse_count(text.substr(0, x), 16384);
  const auto height = parse_count(text.substr(x + 1), 16384);
  if (!width || !height || *width < 320 || *height < 200) return false;
  w = static_cast<int>(*width);
  h = static_cast<int>(*height);
  return true;
}

}  // namespace

Command add_view_command(CLI::App& app) {
  auto* sub = app.add_subcommand("view", "Open the traces of a run in the desktop viewer");
  struct Args {
    viewer::ViewOptions o;
    std::string range, window, nodes, select, size = "1600x900", theme = "light";
  };
  auto a = std::make_shared<Args>();
  sub->add_option("files", a->o.files, kRunFilesHelp + "; none: choose in the window");
  sub->add_option("--range", a->range,
                  "Load only this part of the run and show it, START:END from the run's start "
                  "(e.g. 0:2ms, 1.5ms:3ms, 200us:): the items recorded beside it come too, the "
                  "rest is left out (the header says how many items), so a run too big for "
                  "memory opens in parts");
  sub->add_option("--window", a->window,
                  "Show this window first, START:END from the run's start, with all of the run "
                  "loaded (--range loads only its part)");
  sub->add_option("--select", a->select,
                  "Open at item N, selected and in view: its number in what these files, "
                  "--nodes and --range load, as a report's link of the whole run carries it "
                  "(#item=N) or the viewer's Copy as command line gives it");
  sub->add_option("--nodes", a->nodes,
                  "Load only these nodes (ranks), e.g. 0-3,7: the other files are left out as "
                  "soon as their rank is known, so a run too big for memory opens in parts");
  sub->add_option("--expand", a->o.expand,
                  "What is expanded: auto (every kind's lanes but the memories', which show "
                  "their avg lines), all, none (nodes folded), kinds (avg lines only) or kinds "
                  "such as cpu,utility")
      ->capture_default_str();
  sub->add_option("--screenshot", a->o.screenshot,
                  "Write the first view as a PNG once everything is computed, then exit");
  sub->add_option("--script", a->o.script,
                  "Run the steps of FILE (zoom, click, key, select, screenshot, dump, ...; listed "
                  "below), then exit");
  sub->add_option("--size", a->size, "Window size WIDTHxHEIGHT")->capture_default_str();
  sub->add_option("--theme", a->theme, "Colours: light or dark (View > Dark theme switches)")
      ->check(CLI::IsMember({"light", "dark"}))
      ->capture_default_str();
  sub->footer(
      std::string(viewer::script_steps_help()) + "\n\n" +
      help_footer(
          "  legate_prof view run/                                  the traces in a log directory\n"
          "  legate_prof view --nodes 0-3 --range 10s:12s run/      part of a run too big for "
          "memory\n"
          "  xvfb-run -a legate_prof view run/ --screenshot v.png   a picture of the first view, "
          "no display"));
  return {
      sub, [a] {
        viewer::ViewOptions o = a->o;
        o.dark = a->theme == "dark";
        // --range and --window: START:END, or a usage error naming the flag.
        const auto span = [](const char* flag, const std::string& text,
                             std::optional<std::pair<double, double>>& out) {
          if (text.empty()) return true;
          std::string error;
          out = viewer::parse_range(text, &error);
          if (!out)
            std::cerr << "legate_prof view: " << flag << " " << text << ": " << error << "\n";
          return out.has_value();
        };
        if (!span("--range", a->range, o.range) || !span("--window", a->window, o.window))
          return kExitUsage;
        if (!a->nodes.empty()) {
          std::string error;
          o.nodes = load::RankFilter::parse(a->nodes, &error);
          if (!o.nodes) {
            std::cerr << "legate_prof view: --nodes " << a->nodes << ": " << error << "\n";
            return kExitUsage;
          }
        }
        if (!a->select.empty()) {
          const auto n = parse_count(a->select, UINT32_MAX);
          if (!n) {
            std::cerr << "legate_prof view: --select " << a->select
                      << ": expected an item number (0 or more), as a report's link gives it "
                         "(#item=N)\n";
            return kExitUsage;
          }
          o.select = *n;
        }
        if (const std::string bad = viewer::check_expand(o.expand); !bad.empty()) {
          std::cerr << "legate_prof view: --expand " << o.expand << ": " << bad << "\n";
          return kExitUsage;
        }
        if (!parse_size(a->size, o.width, o.height)) {
          std::cerr << "legate_prof view: --size " << a->size
                    << ": expected WIDTHxHEIGHT between 320x200 and 16384x16384, e.g. 1600x900\n";
          return kExitUsage;
        }
        std::optional<viewer::Script> script;
        try {
          script = viewer::session_script(o);
        } catch (const viewer::ScriptError& e) {
          std::cerr << "legate_prof view: " << e.what() << "\n";
          return kExitUsage;
        }
        // What the session writes (--screenshot, a script's screenshot and
        // dump steps) must not replace a trace it reads.
        if (!outputs_apart("view", o.files,
                           script ? script->outputs() : std::vector<std::string>{}))
          return kExitUsage;
        // Before a window opens: a screenshot that cannot be written, and
        // files that cannot be read, are reported as the other subcommands do.
        if (!o.screenshot.empty() && o.script.empty()) {
          if (const std::string why = viewer::check_writable(o.screenshot); !why.empty()) {
            std::cerr << "legate_prof view: " << viewer::screenshot_error(o.screenshot, why)
                      << "\n";
            return kExitIncomplete;
          }
        }
        bool all_readable = true;
        if (!o.files.empty()) {
          const TraceFiles given = check_trace_files("view", o.files);
          if (given.readable.empty()) return kExitIncomplete;
          o.files = given.readable;
          all_readable = given.all_readable;
        }
        const int status = viewer::run_window(o, std::move(script));
        return all_readable ? status : std::max(status, kExitIncomplete);
      }};
}

}  // namespace legato::tools
