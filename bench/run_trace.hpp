// Whole synthetic runs for the analysis and viewer benchmarks: each rank's
// file holds what a Legato trace holds (run metadata, names, task kinds,
// memory and channel descriptions, the top-level task) around a task stream
// (task_stream.hpp). Nothing here ran; the files exercise the model only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "task_stream.hpp"

namespace legato::bench {

struct RunTrace {
  std::vector<std::string> files;  // one per rank
  uint64_t records = 0;            // in all files
  uint64_t tasks = 0;              // point task records among them
  uint64_t bytes = 0;              // on disk
};

// Writes `ranks` files <dir>/bench_<rank>.prof of one run, each with
// `ops_per_rank` operations (mixed shape, 4 CPUs and 2 utility processors
// per rank).
RunTrace write_run_trace(const std::string& dir, int ops_per_rank, int ranks, uint64_t seed = 1);

// Operations per rank for about `records` records, or `tasks` point tasks, in all.
int ops_for_records(uint64_t records, int ranks);
int ops_for_tasks(uint64_t tasks, int ranks);

}  // namespace legato::bench
