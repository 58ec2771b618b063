// Loading a run: every file read in parallel by its reader (readers.hpp),
// the files of one run kept, and the model built (analysis/build.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/build.hpp"
#include "analysis/profile.hpp"
#include "base/progress.hpp"
#include "load/rank_filter.hpp"

namespace legato::load {

struct LoadOptions {
  unsigned threads = 0;  // files read at once, and threads of the merge's steps; 0: one per core
  // Told the phases ("reading 4 files (1.2 GB)", measured in bytes on disk,
  // then "building the model"); null: nobody is watching.
  base::Progress* progress = nullptr;
  // The nodes (ranks) to load (view --nodes); none: all. The files of the
  // others are left out as soon as their rank is known, the profile says
  // which (Profile::ranks_left_out).
  std::optional<RankFilter> nodes;
  // The part of the run to load (view --range): [a, b] ns from the run's
  // start (Profile::window); none: all of it.
  std::optional<analysis::TimeRange> range;

  static LoadOptions with_threads(unsigned n) {
    LoadOptions o;
    o.threads = n;
    return o;
  }
};

// Problems with single files are warnings in Profile::warnings;
// analysis::LoadError only when no file can be read at all.
analysis::Profile load_profile(const std::vector<std::string>& paths,
                               const LoadOptions& options = {});

// For files already read (read_file): their runs named, the model built
// with their readers' finishing step; threads as in LoadOptions; ranks not
// wanted (rank_wanted false) were left out on purpose; range as in
// LoadOptions.
analysis::Profile build_run(std::vector<analysis::RankTrace> traces, unsigned threads = 0,
                            const std::function<bool(int64_t)>& rank_wanted = {},
                            const std::optional<analysis::TimeRange>& range = {});

}  // namespace legato::load
