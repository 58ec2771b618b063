#include "load/load.hpp"

#include <filesystem>
#include <set>
#include <system_error>

#include "analysis/units.hpp"
#include "base/parallel.hpp"
#include "load/readers.hpp"

namespace legato::load {

analysis::Profile build_run(std::vector<analysis::RankTrace> traces, unsigned threads,
                            const std::function<bool(int64_t)>& rank_wanted,
                            const std::optional<analysis::TimeRange>& range) {
  name_runs(traces);
  return analysis::build_profile(std::move(traces), threads, finish_run, rank_wanted, range);
}

namespace {

// The files left out (RankTrace::left_out: of ranks `nodes` does not
// want), taken out of traces. Throws when none of the readable files is
// wanted.
void leave_out(std::vector<analysis::RankTrace>& traces, const RankFilter& nodes) {
  std::vector<analysis::RankTrace> kept;
  std::set<int64_t> other;
  bool readable = false;
  for (auto& t : traces) {
    if (t.left_out) {
      other.insert(t.run.rank);
      continue;
    }
    readable = readable || t.readable;
    kept.push_back(std::move(t));
  }
  if (!readable && !other.empty()) {
    std::string held;
    for (const int64_t r : other) held += (held.empty() ? "" : ", ") + std::to_string(r);
    throw analysis::LoadError("no file given holds node(s) " + nodes.text() +
                              "; the files hold node(s) " + held);
  }
  traces = std::move(kept);
}

}  // namespace

analysis::Profile load_profile(const std::vector<std::string>& paths, const LoadOptions& options) {
  if (paths.empty()) throw analysis::LoadError("no trace files given (pass legate_*.prof)");
  std::vector<analysis::RankTrace> traces(paths.size());
  const unsigned threads = analysis::threads_or_cores(options.threads);
  // Fewer files than threads: a core to spare while each file is read.
  analysis::ReadHints hints;
  hints.spare_core = paths.size() < threads;
  hints.progress = options.progress;
  std::function<bool(int64_t)> wanted;
  if (options.nodes) wanted = [nodes = *options.nodes](int64_t r) { return nodes.contains(r); };
  hints.rank_wanted = wanted;
  if (options.progress) {
    uint64_t bytes = 0;
    for (const auto& path : paths) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(path, ec);
      if (!ec) bytes += size;
    }
    options.progress->phase("reading " + std::to_string(paths.size()) +
                                (paths.size() == 1 ? " file (" : " files (") +
                                analysis::human_bytes(static_cast<double>(bytes)) + ")",
                            bytes);
  }
  base::parallel_for(paths.size(), threads, [&](unsigned, size_t i) {
    traces[i] = read_file(paths[i], hints);
    // A rank not wanted: its records go now, not after every file is read.
    analysis::RankTrace& t = traces[i];
    if (wanted && t.readable && !t.left_out && !wanted(t.run.rank)) {
      analysis::RankTrace stub;
      stub.file = t.file;
      stub.readable = true;
      stub.run = t.run;
      stub.left_out = true;
      t = std::move(stub);
    }
  });
  if (options.nodes) leave_out(traces, *options.nodes);
  if (options.progress) options.progress->phase("building the model");
  return build_run(std::move(traces), threads, wanted, options.range);
}

}  // namespace legato::load
