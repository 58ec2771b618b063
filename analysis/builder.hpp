// The merge of read rank traces into a Profile, step by step (internal to
// analysis/). Steps run in declaration order; each fills part of the profile.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/build.hpp"
#include "analysis/piece_queue.hpp"
#include "analysis/profile.hpp"
#include "analysis/rank_trace.hpp"
#include "analysis/uid_index.hpp"
#include "base/huge_pages.hpp"
#include "base/id_map.hpp"

namespace legato::analysis::detail {

class Builder {
 public:
  // threads: how many may work on one step's independent pieces (at least 1).
  // range: as build_profile's.
  Builder(Profile& p, std::vector<RankTrace>& traces, unsigned threads,
          const std::optional<TimeRange>& range = {})
      : p_(p), traces_(traces), threads_(std::max(1u, threads)), range_(range) {}

  void strings();            // global string table, per-rank remaps
  void lanes();              // one lane per processor, memory and channel
  void operations();         // operations and their uid index
  void items();              // intervals onto lanes, stacked into rows
  void links();              // edges, the mapping that prepared each item, waits, kernels, copies
  void errors();             // failure markers
  void tree();               // node -> kind -> lane, the run's span, busy sums
  void undefined_strings();  // warns about string ids no file defined (after every naming step)

  // For a thread with nothing else to do while the steps run: stages pieces
  // of the records beside items() once items() has counted them, until
  // none is left. Returns at once when staging is over, or closed, or the
  // builder was given one thread.
  void help_staging();
  // Staging takes no helper after this (helpers return after their piece).
  void close_staging();

 private:
  // The profile string of a file's string id; a placeholder naming the id
  // when the file never defined it.
  uint32_t str(size_t rank, uint32_t file_id) {
    const uint32_t s = file_id == 0 ? 0 : string_remap_[rank].find(file_id);
    return s != kNone ? s : undefined_str(rank, file_id);
  }
  uint32_t undefined_str(size_t rank, uint32_t file_id);
  // Adds a profile string; past kMaxStrings - 1 of them, gives the one
  // placeholder that stands for the rest (counted in strings_left_out_).
  uint32_t new_string(std::string text);
  uint32_t lane(size_t rank, uint32_t resource, LaneKind fallback) {
    return last_lane_.holds(resource) ? last_lane_.lane : find_lane(rank, resource, fallback);
  }
  uint32_t find_lane(size_t rank, uint32_t resource, LaneKind fallback);
  uint32_t item(Uid uid) const { return item_of_uid_.find(uid); }  // kNone when unknown
  uint32_t op(Uid uid) const { return op_of_uid_.find(uid); }
  void warn_count(uint64_t n, const std::string& what);
  // Frees a trace's records of kinds R once a step has read them for the
  // last time (the traces are the builder's to consume).
  template <class... R>
  static void release(RankTrace& t) {
    (std::vector<R>().swap(t.all.get<R>()), ...);
  }
  // A size past 4 PiB, which only a damaged record holds, is made 0
  // (kept_bytes); counting them (count_bytes, from the tallies) keeps the
  // first for the warning.
  static uint64_t kept_bytes(uint64_t bytes) { return bytes <= kLargestSize ? bytes : 0; }
  void count_bytes(const ItemTally::Huge& huge, ItemKind kind);

  Profile& p_;
  std::vector<RankTrace>& traces_;
  const unsigned threads_;
  const std::optional<TimeRange> range_;
  std::vector<IdIndex> string_remap_;  // per rank: file string id -> profile string index
  std::map<std::pair<size_t, uint32_t>, uint32_t> undefined_;  // (rank, file id) -> placeholder
  base::IdMap<uint32_t> lane_of_resource_;
  // The lane of the resource the last record named: records come in runs
  // of one resource.
  struct LaneCache {
    uint32_t resource = trace::kNoResource, lane = kNone;
    bool holds(uint32_t r) const { return r == resource && lane != kNone; }
  };
  LaneCache last_lane_;
  UidIndex op_of_uid_, item_of_uid_;
  // Items are staged straight into p_.items: each lane's slots
  // [begin, end) are counted first, then filled in record order (staging),
  // then sorted and stacked into rows in place (place), lanes in parallel.
  // The records are staged in pieces: a stored frame of a rank (its
  // records decoded again as it is staged), or a slice of each of a rank's
  // tables. Counting (count_pieces, one thread) reads each piece's tally
  // (ItemTally) and gives the piece the first slot of its items in each
  // lane it fills, so pieces are staged on any thread, in any order
  // (builder_staging.cpp). The slots are left unwritten until staged
  // (base::UninitializedVector): pieces are handed out in order, so the
  // pages are touched rank by rank, and each rank's tables, freed once its
  // last piece is staged, serve the next ranks' slots.
  struct PieceLane {
    uint32_t lane, first, count;  // the piece's items in the lane: slots [first, first + count)
  };
  struct Piece {
    uint32_t rank = 0;
    uint32_t frame = kNone;  // its stored frame; kNone: a slice of the rank's tables
    // Per kind (ItemRecords): its records [begin, end), in the frame or the table.
    std::array<size_t, kItemRecordKinds> begin{}, end{};
    uint32_t first_copy = 0, first_instance = 0, first_kernel = 0;
    std::vector<PieceLane> lanes;
  };
  // One thread's staging state.
  struct Stager {
    LaneCache last_lane;
    std::vector<uint32_t> fill;  // per lane: the next slot of the piece being staged
    std::vector<std::pair<uint32_t, std::pair<Time, Time>>> overflow;  // for staged_overflow_
    uint64_t bad_times = 0;
    trace::RecordBatch frame;  // a stored frame's records, decoded again
  };
  std::vector<Piece> pieces_;
  PieceQueue staging_;           // hands pieces_ out to items()' threads and help_staging's
  std::vector<Stager> stagers_;  // the threads items() starts, then help_staging's
  std::vector<std::atomic<size_t>> pieces_left_;   // per rank: its pieces not yet staged
  std::vector<base::IdMap<uint32_t>> task_names_;  // per rank: task kind -> profile string
  base::UninitializedVector<Uid> staged_uids_;  // per slot; after place, in each lane's start order
  base::UninitializedVector<uint32_t>
      placed_;  // after place: where the item of staged_uids_[k] went
  // Per slot whose ready or create lies too far back for the compact Item.
  std::unordered_map<uint32_t, std::pair<Time, Time>> staged_overflow_;
  struct PlaceScratch {  // one worker's buffers for place(), reused from lane to lane
    std::vector<Item> items;
    std::vector<Uid> uids;
    std::vector<uint32_t> order, dest;  // per item in start order: its slot, its place
    std::vector<Time> starts, stops;
    std::vector<std::pair<uint32_t, std::pair<Time, Time>>> overflow;  // for timing_overflow
  };
  std::vector<std::pair<Uid, Uid>> copy_instances_;  // per copy: src, dst instance uids
  std::vector<Uid> kernel_tasks_;                    // per kernel: the launching task's uid
  // links()' steps (builder_links.cpp).
  struct RankParts;
  struct Edge {  // 9 bytes: the run's edges wait in one table until grouped
    Unaligned<uint32_t> item, pre;
    uint8_t kind;
  };
  static_assert(sizeof(Edge) == 9);
  struct EdgeProblems {  // per rank: edges naming no item, edges to themselves
    explicit EdgeProblems(size_t ranks) : dangling(ranks, 0), self(ranks, 0), self_example(ranks) {}
    std::vector<uint64_t> dangling, self;
    std::vector<std::string> self_example;
  };
  struct WaitScratch {
    explicit WaitScratch(Builder& b);
    // Per rank: waits with a note and its string; the notes' strings.
    std::vector<std::vector<std::pair<Wait, uint32_t>>> noted;
    std::vector<std::vector<uint32_t>> note_text;
    std::vector<uint64_t> lost;        // per rank: waits of tasks not loaded
    std::vector<uint32_t> last_of_op;  // per operation: its item that finished last
    std::once_flag last_of_op_found;
  };
  void last_runtime_work();
  void rank_edges(size_t r, Edge* out, RankParts& parts, EdgeProblems& problems);
  void warn_edge_problems(const EdgeProblems& problems, const std::string& in_flight);
  void group_edges(std::vector<Edge>& edges, const RankParts& parts);
  void kernel_tasks();
  void copy_instances();
  uint32_t waited_for(Uid event, WaitScratch& w);
  void rank_waits(size_t r, RankParts& parts, WaitScratch& w);
  void merge_waits(const RankParts& parts, const WaitScratch& w);

  void count_pieces();
  // count_pieces' steps: rank r's records cut into pieces (the sizes of the
  // copy, instance and kernel tables grow by its), then every piece given
  // its slots.
  struct PieceCutter;
  struct TableSizes {
    size_t copies = 0, instances = 0, kernels = 0;
  };
  void cut_rank(size_t r, const std::vector<ItemTally>& tallies, PieceCutter& cutter,
                TableSizes& sizes);
  // The tallies of rank r's pieces: its stored frames', or its tables'
  // slices' (kept in `sliced`).
  const std::vector<ItemTally>& rank_tallies(size_t r, std::vector<ItemTally>& sliced) const;
  // Whether a piece of rank r is loaded (range_), and the window it is
  // loaded for (Profile::window, set by count_pieces).
  bool wanted(size_t r, const ItemTally& tally);
  void place_pieces(const TableSizes& sizes);
  // Takes pieces until none is left, staging them with stagers_[worker]
  // (help_staging's: the last, and it joins staging_ when it opens).
  void stage_pieces(size_t worker);
  static constexpr size_t kHelper = SIZE_MAX;
  void stage_piece(const Piece& piece, Stager& s);
  Item staged_item(Stager& s, size_t r, ItemKind kind, Time start, Time stop, uint32_t name,
                   Uid op_uid);
  void stage(Stager& s, uint32_t resource, Item item, Uid uid, Time ready, Time create);
  // str() once count_pieces has made every placeholder staging needs:
  // reads only, so any thread may call it while staging.
  uint32_t staged_str(size_t rank, uint32_t file_id) const;
  void place(uint32_t lane, PlaceScratch& scratch);  // touches only the lane's slots
  // A time of rank r's file on the run's clock, clamped to the model's range
  // (clamp_time: a time out of it, counted).
  Time at(size_t r, Time t) {
    if (t <= kTimeLimit && t >= -kTimeLimit) {
      const Time shifted = t + p_.ranks[r].clock_shift;  // |shift| <= kTimeLimit
      if (shifted <= kTimeLimit && shifted >= -kTimeLimit) return shifted;
    }
    return clamp_time(r, t);
  }
  Time clamp_time(size_t r, Time t);
  uint64_t bad_times_ = 0, undescribed_count_ = 0, undescribed_memories_ = 0;
  std::vector<uint32_t> sized_by_instances_;  // described memories without a capacity (tree())
  std::atomic<uint64_t> clamped_times_{0};    // at() runs on several threads in links()
  std::string undescribed_;                   // the first few such lanes' names
  uint64_t huge_sizes_ = 0, strings_left_out_ = 0;
  std::string huge_size_example_;
};

}  // namespace legato::analysis::detail
