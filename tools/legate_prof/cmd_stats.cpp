// legate_prof stats FILE...: per-kind statistics and utilization per kind and
// node, from the profile model.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"
#include "analysis/utilization.hpp"
#include "commands.hpp"
#include "load/load.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "trace_files.hpp"

namespace legato::tools {
namespace {

using namespace legato::analysis;

std::string padded(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string right(const std::string& s, size_t width) {
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

std::string percent(double f) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * f);
  return buf;
}

void print_stats(const Profile& p, const std::vector<UtilizationSummary>& summary,
                 const std::vector<KindStats>& stats, size_t top) {
  std::cout << "run          " << (p.program.empty() ? "(unknown program)" : p.program) << ", "
            << p.ranks.size() << " of " << p.ranks_expected << " rank(s), " << grouped(p.records)
            << " records, " << human_ns(static_cast<double>(p.stop - p.start)) << "\n\n";
  std::cout << "utilization (avg over the run, peak of 100 slices)\n";
  for (const auto& u : summary) {
    const std::string node = u.rank == kAllNodes ? "all nodes" : "node " + std::to_string(u.rank);
    std::cout << "  " << padded(node, 11) << padded(std::string(to_string(u.kind)), 24)
              << right(std::to_string(u.lanes), 3)
              << (is_memory(u.kind) ? " memories  " : " lanes     ");
    if (u.known) {
      std::cout << right(percent(u.average), 7) << " avg " << right(percent(u.peak), 7)
                << " peak\n";
    } else {
      std::cout << "unknown (the trace gives no size for these memories)\n";
    }
  }
  // The kind column fits the longest name shown, up to kMaxName characters.
  constexpr size_t kMinName = 30, kMaxName = 60;
  size_t width = kMinName;
  for (size_t k = 0; k < stats.size() && k < top; ++k)
    width = std::max(width, std::min(stats[k].name.size(), kMaxName));
  std::cout << "\n"
            << padded("kind", width + 2) << padded("what", 14) << right("count", 10)
            << right("total", 13) << right("mean", 13) << right("min", 13) << right("max", 13)
            << "\n";
  const auto t = [](double ns) { return " " + right(human_ns(ns), 12); };
  size_t shown = 0;
  for (const auto& s : stats) {
    if (shown++ == top) {
      std::cout << "  ... " << stats.size() - top << " more kinds (--top 0 shows all)\n";
      break;
    }
    std::string name = s.name.size() > width ? s.name.substr(0, width - 1) + "~" : s.name;
    std::cout << padded(name, width + 2) << padded(std::string(to_string(s.kind)), 14)
              << " " + right(grouped(s.count), 9) << t(static_cast<double>(s.total)) << t(s.mean())
              << t(static_cast<double>(s.min)) << t(static_cast<double>(s.max));
    if (s.bytes) std::cout << "  " << human_bytes(static_cast<double>(s.bytes));
    std::cout << "\n";
  }
}

// One JSON object for scripts: the run, then per node and lane its kind,
// name, item counts by kind and busy time; per memory its instances and peak
// bytes; per channel its items.
nlohmann::json stats_json(const Profile& p) {
  nlohmann::json lanes = nlohmann::json::array(), memories = nlohmann::json::array(),
                 channels = nlohmann::json::array();
  for (const Lane& l : p.lanes) {
    nlohmann::json items = nlohmann::json::object();
    for (uint32_t i = l.begin; i < l.end; ++i) {
      auto& n = items[std::string(to_string(p.items[i].kind))];
      n = n.is_null() ? 1 : n.get<uint64_t>() + 1;
    }
    nlohmann::json lane = {{"node", l.rank},
                           {"kind", std::string(to_string(l.kind))},
                           {"name", l.name},
                           {"items", items}};
    if (is_memory(l.kind)) {
      lane["instances"] = items.value("instance", uint64_t{0});
      lane["peak_bytes"] = peak_bytes(p, l);
      lane["capacity_bytes"] = l.capacity;
      memories.push_back(std::move(lane));
    } else {
      lane["busy_ns"] = busy_time(p, l);
      (l.kind == LaneKind::Channel ? channels : lanes).push_back(std::move(lane));
    }
  }
  return {{"run",
           {{"program", p.program},
            {"ranks", p.ranks.size()},
            {"ranks_expected", p.ranks_expected},
            {"records", p.records},
            {"start_ns", p.start},
            {"stop_ns", p.stop}}},
          {"lanes", lanes},
          {"memories", memories},
          {"channels", channels},
          {"warnings", p.warnings}};
}

}  // namespace

Command add_stats_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "stats", "Per-kind statistics (count, total, mean, min, max) and utilization per node");
  sub->footer(help_footer(
      "  legate_prof stats run/                      utilization per node and the busiest kinds\n"
      "  legate_prof stats --json run/ > stats.json  the same for scripts"));
  auto files = std::make_shared<std::vector<std::string>>();
  auto top = std::make_shared<std::string>("30");
  auto json = std::make_shared<bool>(false);
  sub->add_option("files", *files, kRunFilesHelp)->required();
  sub->add_option("--top", *top, "Show the N kinds with the most total time (0: all)")
      ->type_name("N")
      ->capture_default_str();
  sub->add_flag("--json", *json,
                "Print one JSON object instead: per node and lane its kind, name, item counts by "
                "kind and busy time; per memory its instances and peak bytes; per channel its "
                "items");
  return {sub, [files, top, json] {
            const auto kinds = parse_count(*top, SIZE_MAX);
            if (!kinds) {
              std::cerr << "legate_prof stats: --top " << *top
                        << ": expected a whole number of kinds, 0 (all) or more\n";
              return kExitUsage;
            }
            if (!outputs_apart("stats", *files)) return kExitUsage;
            const TraceFiles given = check_trace_files("stats", *files);
            if (given.readable.empty()) return kExitIncomplete;
            try {
              base::Progress progress;
              auto line = progress_line("stats", progress);
              const Profile p = legato::load::load_profile(given.readable, watched(progress));
              progress.phase("computing the statistics");
              std::string json_out;
              std::vector<UtilizationSummary> summary;
              std::vector<KindStats> stats;
              if (*json) {
                json_out = json_text(stats_json(p), 1);
              } else {
                summary = utilization_summary(p);
                stats = kind_stats(p);
              }
              line.reset();  // erased before anything is printed
              for (const auto& w : p.warnings)
                std::cerr << "legate_prof stats: warning: " << w << "\n";
              if (*json) {
                std::cout << json_out << "\n";
              } else {
                print_stats(p, summary, stats, *kinds == 0 ? SIZE_MAX : *kinds);
              }
              return exit_status(given, p);
            } catch (const LoadError& e) {
              std::cerr << "legate_prof stats: " << e.what() << "\n";
              return kExitIncomplete;
            }
          }};
}

}  // namespace legato::tools
