#include "legion_logs.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <map>

#include "analysis/units.hpp"
#include "commands.hpp"
#include "legion_import/import.hpp"
#include "trace_format/record_json.hpp"

namespace legato::tools {

namespace {

using analysis::grouped;
using analysis::human_bytes;
using analysis::human_ns;

template <class K, class F>
std::string join(const std::map<K, int>& m, F&& name) {
  std::string out;
  for (const auto& [k, n] : m) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + name(k);
  return out.empty() ? "none" : out;
}

// Part of the file was lost: exit status 1, as for every subcommand.
bool damaged(const analysis::RankTrace& t) {
  if (t.data_lost) return true;
  const auto l = t.metadata.find("legion");
  return l != t.metadata.end() && l->is_object() && l->value("damaged", false);
}

// A log that holds its header and nothing else (the run wrote no record).
void warn_if_empty(const std::string& path, const analysis::RankTrace& t) {
  if (t.records == 0)
    std::cerr << "warning: " << path << ": the file holds no records (only its header)\n";
}

}  // namespace

int legion_info(const std::string& path) {
  const analysis::RankTrace t = legion::import_log(path);
  if (!t.readable) {
    for (const auto& p : t.problems) std::cerr << "legate_prof info: " << p << "\n";
    return 1;
  }
  const auto& legion = t.metadata["legion"];
  std::cout << path << "\n";
  std::cout << "  format       Legion Prof log, "
            << (legion.contains("format")
                    ? "format " + std::to_string(legion["format"].get<uint64_t>())
                    : std::string("no format number (Legion before 2023-11)"))
            << (legion.contains("legion_version")
                    ? " (Legion version " + legion["legion_version"].get<std::string>() + ")"
                    : std::string())
            << ", " << legion["record_layouts"].get<uint64_t>() << " record layouts, "
            << (t.finished_cleanly ? "read to the end" : "NOT read to the end") << "\n";
  std::cout << "  run          " << t.run.id << ", node " << t.run.rank << " of " << t.run.ranks
            << (t.run.host.empty() ? "" : " on " + t.run.host) << " (pid " << t.run.pid << ")\n";
  std::cout << "  clock        zero time " << t.run.start_unix_ns
            << " ns (Unix), calibration error "
            << human_ns(static_cast<double>(legion.value("calibration_err_ns", int64_t{0})))
            << "\n";
  std::map<trace::ProcKind, int> procs;
  for (const auto& p : t.all.get<trace::ProcessorRecord>()) ++procs[p.proc_kind];
  std::map<trace::MemKind, int> mems;
  for (const auto& m : t.all.get<trace::MemoryRecord>()) ++mems[m.mem_kind];
  std::cout << "  processors   "
            << join(procs, [](trace::ProcKind k) { return std::string(trace::to_string(k)); })
            << "\n";
  std::cout << "  memories     "
            << join(mems, [](trace::MemKind k) { return std::string(trace::to_string(k)); })
            << "\n";
  std::cout << "  channels     " << t.all.get<trace::ChannelRecord>().size() << "\n";
  trace::Time lo = std::numeric_limits<trace::Time>::max(),
              hi = std::numeric_limits<trace::Time>::min();
  const auto span = [&](trace::Time a, trace::Time b) {
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  };
  for (const auto& r : t.all.get<trace::TaskRecord>()) span(r.start, r.stop);
  for (const auto& r : t.all.get<trace::MetaTaskRecord>()) span(r.start, r.stop);
  for (const auto& r : t.all.get<trace::CopyRecord>()) span(r.start, r.stop);
  for (const auto& r : t.all.get<trace::DepPartRecord>()) span(r.start, r.stop);
  if (lo <= hi) {
    std::cout << "  time span    " << human_ns(static_cast<double>(hi - lo)) << " ("
              << human_ns(static_cast<double>(lo)) << " to " << human_ns(static_cast<double>(hi))
              << ")\n";
  }
  std::cout << "  size         "
            << human_bytes(static_cast<double>(legion.value("bytes_decoded", uint64_t{0})))
            << (legion.value("compressed", false) ? " decompressed from gzip" : " (plain)")
            << ", header " << grouped(legion.value("header_bytes", uint64_t{0})) << " B\n";
  std::cout << "  records      " << grouped(t.records) << "\n";
  for (const auto& [name, n] : legion["record_counts"].items()) {
    std::cout << "    " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
              << grouped(n.get<uint64_t>()) << "\n";
  }
  std::cout << "  became       " << t.all.get<trace::TaskRecord>().size() << " tasks, "
            << t.all.get<trace::MetaTaskRecord>().size()
            << " runtime items (meta tasks, mapper and runtime calls, prof tasks), "
            << t.all.get<trace::WaitRecord>().size() << " waits, "
            << t.all.get<trace::InstanceRecord>().size() << " instances, "
            << t.all.get<trace::CopyRecord>().size() << " copies and fills, "
            << t.all.get<trace::EdgeRecord>().size() << " critical-path links\n";
  for (const auto& p : t.problems) std::cerr << "warning: " << p << "\n";
  warn_if_empty(path, t);
  return damaged(t) ? 1 : 0;
}

int legion_dump(const std::string& path, const std::vector<std::string>& kinds, bool resolve) {
  const analysis::RankTrace t = legion::import_log(path);
  if (!t.readable) {
    for (const auto& p : t.problems) std::cerr << "legate_prof dump: " << p << "\n";
    return 1;
  }
  const auto print = [&](const nlohmann::json& j) {
    if (!kinds.empty()) {
      const std::string k = j["kind"].is_string() ? j["kind"].get<std::string>() : j["kind"].dump();
      if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) return;
    }
    std::cout << json_text(j) << '\n';
  };
  print({{"kind", "metadata"}, {"value", t.metadata}});
  trace::StringTable strings;
  for (const auto& [id, text] : t.strings) {
    print(trace::record_to_json(trace::StringRecord{id, text}));
    strings[id] = text;
  }
  trace::for_each_record_json(t.all, resolve ? &strings : nullptr, print);
  std::cout.flush();
  for (const auto& p : t.problems) std::cerr << "warning: " << p << "\n";
  warn_if_empty(path, t);
  return damaged(t) ? 1 : 0;
}

}  // namespace legato::tools
