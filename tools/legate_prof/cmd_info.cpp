// legate_prof info FILE...: what a trace holds, whether it is intact.
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>

#include "analysis/units.hpp"
#include "commands.hpp"
#include "legion_import/import.hpp"
#include "legion_logs.hpp"
#include "load/readers.hpp"
#include "output_paths.hpp"
#include "trace_files.hpp"
#include "trace_format/metadata.hpp"
#include "trace_format/reader.hpp"
#include "trace_format/writer.hpp"

namespace legato::tools {
namespace {

using namespace legato::trace;
using analysis::grouped;
using analysis::human_bytes;
using analysis::human_ns;

struct Summary {
  std::map<FrameType, uint64_t> frames;
  std::map<uint32_t, uint64_t> counts;  // records per kind
  std::map<uint32_t, uint64_t> footer_counts;
  uint64_t stored = 0, raw = 0;
  Time t_min = std::numeric_limits<Time>::max(), t_max = std::numeric_limits<Time>::min();
  std::map<ProcKind, int> processors;
  std::map<MemKind, std::pair<int, uint64_t>> memories;  // count, capacity
  uint64_t channels = 0;
  bool has_stats = false;
  RecorderStatsRecord stats;
};

Summary summarize(TraceReader& reader) {
  Summary s;
  Frame f;
  while (reader.next(f)) {
    ++s.frames[f.header.type];
    s.stored += trace::kFrameHeaderSize + f.header.stored_size;
    s.raw += f.header.raw_size;
    if (f.header.type == FrameType::Footer) {
      for (const auto& kc : f.records.get<KindCountRecord>())
        s.footer_counts[kc.record_kind] = kc.count;
      continue;
    }
    if (f.header.type != FrameType::Events) continue;
    // The records' own times: a frame header's range may contradict them
    // (the reader warns).
    if (const auto range = time_range(f.records)) {
      s.t_min = std::min(s.t_min, range->first);
      s.t_max = std::max(s.t_max, range->second);
    }
    f.records.for_each_kind([&](const auto& v) {
      using R = typename std::remove_cvref_t<decltype(v)>::value_type;
      if (!v.empty()) s.counts[static_cast<uint32_t>(R::kKind)] += v.size();
    });
    for (const auto& u : f.records.unknown) s.counts[u.kind] += u.count;
    for (const auto& p : f.records.get<ProcessorRecord>()) ++s.processors[p.proc_kind];
    for (const auto& m : f.records.get<MemoryRecord>()) {
      auto& [n, cap] = s.memories[m.mem_kind];
      ++n;
      cap += m.capacity;
    }
    s.channels += f.records.get<ChannelRecord>().size();
    if (!f.records.get<RecorderStatsRecord>().empty()) {
      s.has_stats = true;
      s.stats = f.records.get<RecorderStatsRecord>().back();
    }
  }
  return s;
}

// An enumerator's name, or "kind N" for a value this version does not know.
template <class E>
std::string kind_name(E k) {
  const std::string_view n = to_string(k);
  return n == "unknown" ? "kind " + std::to_string(static_cast<int>(k)) : std::string(n);
}

template <class K, class V, class F>
std::string join_counts(const std::map<K, V>& m, F&& item) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + item(k, v);
  return out.empty() ? "none" : out;
}

void print_file(const std::string& path, TraceReader& reader, const Summary& s) {
  std::cout << path << "\n";
  const FileHeader& h = reader.header();
  std::cout << "  format       " << h.major << "." << h.minor << ", "
            << (reader.finished_cleanly() ? "finished cleanly" : "NOT finished (no footer)")
            << "\n";
  std::vector<std::string> problems;
  const RunInfo run = RunInfo::from_json(reader.metadata(), problems);
  std::cout << "  run          " << (run.id.empty() ? "(unknown)" : run.id) << ", rank " << run.rank
            << " of " << run.ranks << (run.host.empty() ? "" : " on " + run.host) << " (pid "
            << run.pid << ")\n";
  std::string cmdline = run.program;
  for (const auto& a : run.args) cmdline += " " + a;
  if (!cmdline.empty()) std::cout << "  program      " << cmdline << "\n";
  for (const char* key : {"clock", "config"}) {
    const auto it = reader.metadata().find(key);
    if (it != reader.metadata().end()) {
      std::cout << "  " << key << std::string(13 - std::string(key).size(), ' ') << json_text(*it)
                << "\n";
    }
  }
  std::cout << "  processors   " << join_counts(s.processors, [](ProcKind k, int n) {
    return std::to_string(n) + " " + kind_name(k);
  }) << "\n";
  std::cout << "  memories     "
            << join_counts(s.memories,
                           [](MemKind k, const std::pair<int, uint64_t>& v) {
                             return std::to_string(v.first) + " " + kind_name(k) + " (" +
                                    human_bytes(static_cast<double>(v.second)) + ")";
                           })
            << "\n";
  std::cout << "  channels     " << s.channels << "\n";
  if (s.t_min <= s.t_max) {
    std::cout << "  time span    "
              << human_ns(static_cast<double>(s.t_max) - static_cast<double>(s.t_min)) << " ("
              << human_ns(static_cast<double>(s.t_min)) << " to "
              << human_ns(static_cast<double>(s.t_max)) << ")\n";
  } else {
    std::cout << "  time span    (no timed records)\n";
  }
  std::cout << "  frames       " << join_counts(s.frames, [](FrameType t, uint64_t n) {
    return std::to_string(n) + " " + std::string(to_string(t));
  }) << "\n";
  std::cout << "  size         " << human_bytes(static_cast<double>(reader.file_size()))
            << " on disk, " << human_bytes(static_cast<double>(s.raw)) << " decompressed\n";
  uint64_t total = 0;
  for (const auto& [k, n] : s.counts) total += n;
  std::cout << "  records      " << grouped(total) << "\n";
  for (const auto& [k, n] : s.counts) {
    std::string name(to_string(static_cast<RecordKind>(k)));
    if (name == "unknown") name = "kind " + std::to_string(k) + " (unknown)";
    std::cout << "    " << name << std::string(name.size() < 18 ? 18 - name.size() : 1, ' ')
              << grouped(n) << "\n";
  }
  if (s.has_stats) {
    std::cout << "  recorder     " << grouped(s.stats.records) << " records, "
              << grouped(s.stats.dropped) << " dropped, " << grouped(s.stats.flushes)
              << " flushes, producers waited " << human_ns(static_cast<double>(s.stats.wait_ns))
              << "\n";
  }
  if (reader.frames_lost() > 0) {
    std::cout << "  damage       " << reader.frames_lost() << " frames could not be read";
    if (reader.records_lost() > 0)
      std::cout << " (" << grouped(reader.records_lost()) << " records lost)";
    std::cout << "\n";
  }
}

int info_one(const std::string& path) {
  if (&load::reader_for(path) == &legion::run_reader()) return legion_info(path);
  std::unique_ptr<TraceReader> reader;
  try {
    reader = TraceReader::open(path);
  } catch (const TraceError& e) {
    std::cerr << "legate_prof info: " << e.what() << "\n";
    return kExitIncomplete;
  }
  const Summary s = summarize(*reader);
  print_file(path, *reader, s);
  for (const Diagnostic& d : reader->diagnostics()) std::cerr << d.format(path) << "\n";
  std::vector<std::string> problems;
  RunInfo::from_json(reader->metadata(), problems);
  for (const auto& p : problems) std::cerr << path << ": warning: " << p << "\n";
  uint64_t records = 0;
  for (const auto& [kind, n] : s.counts) records += n;
  if (records == 0 && !reader->lost_data())
    std::cerr << path << ": warning: the file holds no records (nothing was recorded)\n";
  if (reader->frames_lost() == 0 && !s.footer_counts.empty()) {
    for (const auto& [kind, n] : s.footer_counts) {
      const auto it = s.counts.find(kind);
      const uint64_t got = it == s.counts.end() ? 0 : it->second;
      if (got != n) {
        std::cerr << path << ": warning: the footer counts " << n << " "
                  << to_string(static_cast<RecordKind>(kind)) << " records, the file holds " << got
                  << "\n";
      }
    }
  }
  return reader->lost_data() ? kExitIncomplete : kExitOk;
}

}  // namespace

Command add_info_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "info", "Summarize traces: run, rank, record counts, time span, sizes, damage");
  sub->footer(help_footer(
      "  legate_prof info legate_*.prof   each trace's run, rank, records, time span and damage\n"
      "  legate_prof info run/            the same for every trace in a log directory"));
  auto files = std::make_shared<std::vector<std::string>>();
  sub->add_option("files", *files,
                  std::string("Trace files, each summarized on its own, or directories of them: ") +
                      kTraceFilesHelp)
      ->required();
  return {sub, [files] {
            if (!outputs_apart("info", *files)) return kExitUsage;
            const TraceFiles given = check_trace_files("info", *files);
            int status = given.all_readable ? kExitOk : kExitIncomplete;
            for (size_t i = 0; i < given.readable.size(); ++i) {
              if (i > 0) std::cout << "\n";
              status = std::max(status, info_one(given.readable[i]));
            }
            return status;
          }};
}

}  // namespace legato::tools
