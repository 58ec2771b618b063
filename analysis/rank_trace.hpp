// One rank's file read into memory as decoded records: what a run reader
// (analysis/run_reader.hpp) gives the model for every file, read in
// parallel before the files are merged.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace_format/metadata.hpp"
#include "trace_format/record_batch.hpp"

namespace legato::analysis {

// Edges a reader can give only once every file of the run is read (a Legion
// log's critical path: one node's events are often triggered by another
// node's items). Its reader's finish_run resolves them; the model then reads
// them as it reads the trace's edge records. Unresolved, it gives none.
class LateEdges {
 public:
  virtual ~LateEdges() = default;
  // At most how many edges for_each_block gives.
  virtual size_t size_bound() const = 0;
  // Gives every edge, in file order, in blocks of edge records (a
  // precondition is never 0).
  using Block = std::span<const trace::EdgeRecord>;
  virtual void for_each_block(const std::function<void(Block)>& block) const = 0;
};

struct RankTrace {
  std::string file;
  bool readable = false;              // false: the file could not be opened (see problems)
  std::vector<std::string> problems;  // damage, truncation, bad metadata; one line each
  nlohmann::json metadata;
  trace::RunInfo run;
  bool finished_cleanly = false;
  bool data_lost = false;  // part of the file could not be used (corrupt or cut-off frames)
  // Its rank is not wanted (ReadHints::rank_wanted): read only as far as
  // its rank, its records not kept.
  bool left_out = false;
  uint64_t records = 0;
  trace::RecordBatch all;  // every record, grouped by kind, in file order
  std::unordered_map<uint32_t, std::string> strings;  // the file's string ids
  // Text some waits carry (a Legion log's backtraces): the wait's index in
  // all.get<trace::WaitRecord>() (ascending) and a string id of `strings`.
  std::vector<std::pair<size_t, uint32_t>> wait_notes;
  // The reader that read it (RunReader::name), whose finish_run completes it.
  std::string reader;
  // Edges left to resolve with the other files of the run (LateEdges).
  std::shared_ptr<LateEdges> late_edges;
};

}  // namespace legato::analysis
