// Building the model of a run from its files read (RankTrace): checked to
// belong to one run, clocks aligned, merged into one Profile. Reading the
// files is load/'s (load_profile), through the readers of its registry.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/rank_trace.hpp"

namespace legato::analysis {

// Nothing could be loaded (no file readable); what() says which files and why.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Work on the run's files once they are chosen, done beside the model's
// first steps, which read no edges: the readers' finish_run (LateEdges). A
// failure throws; its what() becomes one of the profile's warnings.
using FinishRun = std::function<void(std::vector<RankTrace>& files)>;

// Problems with single files (damage, truncation, another run, a missing
// rank) are warnings in Profile::warnings; LoadError only when no file can
// be read at all. threads: of the merge's steps; 0: one per core.
// rank_wanted: the ranks loaded on purpose (empty: all); the others are
// not reported missing but listed in Profile::ranks_left_out. range: the
// part of the run to load, [a, b] ns from its start (Profile::window);
// none: all of it.
using TimeRange = std::pair<double, double>;
Profile build_profile(std::vector<RankTrace> traces, unsigned threads = 0,
                      const FinishRun& finish = {},
                      const std::function<bool(int64_t)>& rank_wanted = {},
                      const std::optional<TimeRange>& range = {});

// 0 is one per core.
unsigned threads_or_cores(unsigned threads);

}  // namespace legato::analysis
