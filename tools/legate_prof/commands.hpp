// The legate_prof subcommands. Each adds itself to the CLI and returns what
// runs it; run() returns the exit status, the same rule for every
// subcommand (kExitStatusHelp says it to users).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace legato::tools {

// Every trace file was read completely (warnings allowed) and every output
// written.
inline constexpr int kExitOk = 0;
// A trace file could not be opened or read, part of one was lost (a corrupt
// frame, a file cut inside a frame), or an output could not be written. The
// subcommand still shows or writes what it read from the other files.
inline constexpr int kExitIncomplete = 1;
// A usage error (an unknown option, a missing or bad argument); nothing was read.
inline constexpr int kExitUsage = 2;

// The --help footer.
inline constexpr const char* kExitStatusHelp =
    "Exit status, for every subcommand: 0 when every trace file was read completely (warnings "
    "allowed); 1 when a file could not be opened or read, part of one was lost (a corrupt frame, "
    "a file cut inside a frame) or an output could not be written, after showing what could be "
    "read; 2 for a usage error.";

// What a trace file argument takes, for every subcommand's --help.
inline constexpr const char* kTraceFilesHelp =
    "Legato traces (legate_*.prof) or Legion Prof logs (legate_*.prof, prof_*.gz; plain or "
    "gzip), told apart by content";
inline const std::string kRunFilesHelp =
    std::string("Trace files of one run, or the directory that holds them (its --logdir): ") +
    kTraceFilesHelp;

// A subcommand's --help footer: the exit status, then examples, one per
// line ("legate_prof stats run/   what it does").
inline std::string help_footer(const std::string& examples) {
  return std::string(kExitStatusHelp) + "\n\nExamples:\n" + examples;
}

// JSON as every subcommand prints it. Names come from files as their bytes,
// which need not be UTF-8 (a Legion log keeps a host's or a task's name as
// Legion wrote it): such a byte becomes U+FFFD, so the output stays valid
// JSON instead of the dump failing.
inline std::string json_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A count given on the command line: decimal digits only (no sign, no
// fraction, no exponent, no spaces), at most `max`; nullopt otherwise.
inline std::optional<uint64_t> parse_count(const std::string& text, uint64_t max) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (max - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

struct Command {
  CLI::App* app;
  std::function<int()> run;
};

Command add_info_command(CLI::App& app);
Command add_dump_command(CLI::App& app);
Command add_stats_command(CLI::App& app);
Command add_findings_command(CLI::App& app);
Command add_archive_command(CLI::App& app);
Command add_view_command(CLI::App& app);

}  // namespace legato::tools
