// One rank's file read into memory (decoded records, or frames to decode
// again: RankTrace::stored): what a run reader
// (analysis/run_reader.hpp) gives the model for every file, read in
// parallel before the files are merged.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/item_tally.hpp"
#include "trace_format/lost_span.hpp"
#include "trace_format/metadata.hpp"
#include "trace_format/record_batch.hpp"
#include "trace_format/stored_frames.hpp"

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
  // Where in its time the lost records were (the reader's own times).
  std::vector<trace::LostSpan> lost;
  // Its rank is not wanted (ReadHints::rank_wanted): read only as far as
  // its rank, its records not kept.
  bool left_out = false;
  uint64_t records = 0;
  trace::RecordBatch all;  // every record, grouped by kind, in file order (but see stored)
  // The records of the kinds a reader left in their frames (a Legato
  // trace's items, waits and edges): their tables in `all` stay empty, and
  // the model decodes them frame by frame (for_each_block; a frame's items
  // as its piece is staged). Null: every record is in `all`.
  std::shared_ptr<const trace::StoredFrames> stored;
  // Per stored frame: its item records' tally, taken when it was read.
  std::vector<ItemTally> frame_items;
  std::unordered_map<uint32_t, std::string> strings;  // the file's string ids
  // Text some waits carry (a Legion log's backtraces): the wait's index in
  // all.get<trace::WaitRecord>() (ascending) and a string id of `strings`.
  std::vector<std::pair<size_t, uint32_t>> wait_notes;
  // The reader that read it (RunReader::name), whose finish_run completes it.
  std::string reader;
  // Edges left to resolve with the other files of the run (LateEdges).
  std::shared_ptr<LateEdges> late_edges;

  // Records of kind R, in `all` or stored.
  template <class R>
  uint64_t count() const {
    return all.get<R>().size() + (stored ? stored->count(R::kKind) : 0);
  }
  // Calls f(records, first) with every record of kind R, in file order, in
  // blocks: the table in `all`, or each stored frame's records decoded
  // again; `first` is the index of the block's first record.
  template <class R, class F>
  void for_each_block(F&& f) const {
    const std::vector<R>& table = all.get<R>();
    if (!stored || !table.empty()) return f(std::span<const R>(table), size_t{0});
    thread_local trace::RecordBatch frame;  // kept from call to call: its pages stay warm
    size_t first = 0;
    for (size_t i = 0; i < stored->frames(); ++i) {
      if (!(stored->frame_kinds(i) & trace::kinds_of<R>())) continue;
      frame.get<R>().clear();
      stored->decode_frame(i, trace::kinds_of<R>(), frame);
      f(std::span<const R>(frame.get<R>()), first);
      first += frame.get<R>().size();
    }
  }
};

}  // namespace legato::analysis
