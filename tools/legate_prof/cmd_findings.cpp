// legate_prof findings FILE...: what the rules found in a run, most costly
// first; --json for scripts, --threshold to change a rule's parameter.
#include <iostream>

#include "analysis/findings.hpp"
#include "commands.hpp"
#include "load/load.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "trace_files.hpp"

namespace legato::tools {
namespace {

using namespace legato::analysis;

void list_rules() {
  for (const RuleInfo& r : rules()) {
    std::cout << r.id << ": " << r.title << "\n    looks for " << r.looks_for << "\n";
    for (const RuleParam& p : rule_params()) {
      if (p.rule != r.id) continue;
      std::cout << "    " << p.rule << "." << p.param << " = " << p.value << " (" << p.unit
                << "): " << p.meaning << "\n";
    }
  }
}

// The same for scripts: every rule with its parameters, their defaults,
// units and meanings, and the --threshold name of each.
nlohmann::json rules_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const RuleInfo& r : rules()) {
    nlohmann::json params = nlohmann::json::array();
    for (const RuleParam& p : rule_params()) {
      if (p.rule != r.id) continue;
      params.push_back({{"param", std::string(p.param)},
                        {"threshold", std::string(p.rule) + "." + std::string(p.param)},
                        {"default", p.value},
                        {"unit", std::string(p.unit)},
                        {"meaning", std::string(p.meaning)}});
    }
    out.push_back({{"rule", std::string(r.id)},
                   {"title", std::string(r.title)},
                   {"looks_for", std::string(r.looks_for)},
                   {"params", params}});
  }
  return {{"rules", out}};
}

}  // namespace

Command add_findings_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "findings",
      "What is wrong in a run, most costly first: the pattern, its cost, the lines of the "
      "program responsible, the evidence and the fix");
  sub->footer(help_footer(
      "  legate_prof findings run/                                        what is wrong, costliest "
      "first\n"
      "  legate_prof findings --threshold tiny_tasks.max_task_us=50 run/  a stricter rule\n"
      "  legate_prof findings --list-rules                                the rules and their "
      "parameters"));
  auto files = std::make_shared<std::vector<std::string>>();
  auto thresholds = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto list = std::make_shared<bool>(false);
  sub->add_option("files", *files, kRunFilesHelp);
  // One value per --threshold, so that `findings --threshold X FILE` reads
  // FILE as a file.
  sub->add_option("--threshold", *thresholds,
                  "Change a rule's parameter, rule.param=value (one per --threshold, repeatable; "
                  "--list-rules lists them with their defaults)")
      ->allow_extra_args(false)
      ->type_name("RULE.PARAM=VALUE");
  sub->add_flag("--json", *json,
                "Print one JSON object for scripts instead of text (with --list-rules: the rules "
                "and their parameters)");
  sub->add_flag("--list-rules", *list, "List the rules and their parameters, then exit");
  return {sub, [files, thresholds, json, list] {
            if (*list) {
              if (*json) {
                std::cout << json_text(rules_json(), 1) << "\n";
              } else {
                list_rules();
              }
              return kExitOk;
            }
            if (files->empty()) {
              std::cerr << "legate_prof findings: no trace files given (legate_prof findings "
                           "legate_*.prof)\n";
              return kExitUsage;
            }
            Thresholds t;
            for (const auto& a : *thresholds) {
              if (const std::string why = t.set(a); !why.empty()) {
                std::cerr << "legate_prof findings: --threshold: " << why << "\n";
                return kExitUsage;
              }
            }
            if (!outputs_apart("findings", *files)) return kExitUsage;
            const TraceFiles given = check_trace_files("findings", *files);
            if (given.readable.empty()) return kExitIncomplete;
            try {
              base::Progress progress;
              auto line = progress_line("findings", progress);
              const Profile p = legato::load::load_profile(given.readable, watched(progress));
              progress.phase("checking the rules");
              const Findings f = find(p, t);
              line.reset();  // erased before anything is printed
              for (const auto& w : p.warnings)
                std::cerr << "legate_prof findings: warning: " << w << "\n";
              if (*json) {
                std::cout << json_text(findings_json(p, f), 1) << "\n";
              } else {
                std::cout << findings_text(p, f);
              }
              return exit_status(given, p);
            } catch (const LoadError& e) {
              std::cerr << "legate_prof findings: " << e.what() << "\n";
              return kExitIncomplete;
            }
          }};
}

}  // namespace legato::tools
