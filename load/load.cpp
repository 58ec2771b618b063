#include "load/load.hpp"

#include <filesystem>
#include <system_error>

#include "analysis/units.hpp"
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
  const analysis::ReadHints hints{.spare_core = paths.size() < threads,
                                  .progress = options.progress};
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
  base::parallel_for(paths.size(), threads,
                     [&](unsigned, size_t i) { traces[i] = read_file(paths[i], hints); });
  if (options.progress) options.progress->phase("building the model");
  return build_run(std::move(traces), threads);
}

}  // namespace legato::load
