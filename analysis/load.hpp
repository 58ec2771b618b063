// Loading a run: every rank's file read in parallel, checked to belong to one
// run, clocks aligned, and merged into one Profile.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/rank_trace.hpp"

namespace legato::analysis {

// Nothing could be loaded (no file readable); what() says which files and why.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  unsigned threads = 0;  // files read at once, and threads of the merge's steps; 0: one per core
};

// Problems with single files (damage, truncation, another run, a missing
// rank) are warnings in Profile::warnings; LoadError only when no file can
// be read at all.
Profile load_profile(const std::vector<std::string>& paths, const LoadOptions& options = {});

// The merge step alone, for traces already read; threads as in LoadOptions.
Profile build_profile(std::vector<RankTrace> traces, unsigned threads = 0);

}  // namespace legato::analysis
