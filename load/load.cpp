#include "load/load.hpp"

#include "base/parallel.hpp"
#include "load/readers.hpp"

namespace legato::load {

analysis::Profile build_run(std::vector<analysis::RankTrace> traces, unsigned threads) {
  name_runs(traces);
  return analysis::build_profile(std::move(traces), threads, finish_run);
}

analysis::Profile load_profile(const std::vector<std::string>& paths, const LoadOptions& options) {
  if (paths.empty()) throw analysis::LoadError("no trace files given (pass legate_*.prof)");
  std::vector<analysis::RankTrace> traces(paths.size());
  const unsigned threads = analysis::threads_or_cores(options.threads);
  // Fewer files than threads: a core to spare while each file is read.
  const analysis::ReadHints hints{.spare_core = paths.size() < threads};
  base::parallel_for(paths.size(), threads,
                     [&](unsigned, size_t i) { traces[i] = read_file(paths[i], hints); });
  return build_run(std::move(traces), threads);
}

}  // namespace legato::load
