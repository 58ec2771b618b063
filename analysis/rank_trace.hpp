// One rank's file read into memory as decoded records: the loader's first
// stage, run for every file in parallel before the files are merged.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace_format/metadata.hpp"
#include "trace_format/record_batch.hpp"

namespace legato::legion {
struct PathInputs;
}

namespace legato::analysis {

struct RankTrace {
  std::string file;
  bool readable = false;              // false: the file could not be opened (see problems)
  std::vector<std::string> problems;  // damage, truncation, bad metadata; one line each
  nlohmann::json metadata;
  trace::RunInfo run;
  bool finished_cleanly = false;
  bool data_lost = false;  // part of the file could not be used (corrupt or cut-off frames)
  uint64_t records = 0;
  trace::RecordBatch all;  // every record, grouped by kind, in file order
  std::unordered_map<uint32_t, std::string> strings;  // the file's string ids
  // Text some waits carry (a Legion log's backtraces): the wait's index in
  // all.get<trace::WaitRecord>() (ascending) and a string id of `strings`.
  std::vector<std::pair<size_t, uint32_t>> wait_notes;
  // A Legion log read with its critical path left to resolve with the other
  // nodes of its run (legion::link_runs, which build_profile calls): events
  // of one node's file are often triggered by items in another's. Once
  // resolved, it holds the file's links, which the model reads as it reads
  // edge records.
  std::shared_ptr<legion::PathInputs> legion_links;
};

// Never throws: a file that cannot be read comes back with readable = false.
// A Legion log's critical-path links wait for build_profile (legion_links).
// spare_core: a core would otherwise idle while this file is read (a gzip
// Legion log is then inflated on a thread of its own; a thread of its own
// prefaults the tables of a plain one and of a Legato trace: PagesAhead).
RankTrace read_rank_trace(const std::string& path, bool spare_core = false);

}  // namespace legato::analysis
