// The merge of read rank traces into a Profile, step by step (internal to
// analysis/). Steps run in declaration order; each fills part of the profile.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/rank_trace.hpp"
#include "analysis/uid_index.hpp"
#include "legion_import/id_map.hpp"
#include "trace_format/huge_pages.hpp"

namespace legato::analysis::detail {

class Builder {
 public:
  // threads: how many may work on one step's independent pieces (at least 1).
  Builder(Profile& p, std::vector<RankTrace>& traces, unsigned threads)
      : p_(p), traces_(traces), threads_(std::max(1u, threads)) {}

  void strings();            // global string table, per-rank remaps
  void lanes();              // one lane per processor, memory and channel
  void operations();         // operations and their uid index
  void items();              // intervals onto lanes, stacked into rows
  void links();              // edges, the mapping that prepared each item, waits, kernels, copies
  void errors();             // failure markers
  void tree();               // node -> kind -> lane, the run's span, busy sums
  void undefined_strings();  // warns about string ids no file defined (after every naming step)

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
    // Records come in runs of one resource.
    return resource == last_resource_ && last_lane_ != kNone ? last_lane_
                                                             : find_lane(rank, resource, fallback);
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
  // A size past 4 PiB, which only a damaged record holds: counted and made 0.
  uint64_t checked_bytes(uint64_t bytes, ItemKind kind, Uid uid);

  Profile& p_;
  std::vector<RankTrace>& traces_;
  const unsigned threads_;
  std::vector<IdMap> string_remap_;  // per rank: file string id -> profile string index
  std::map<std::pair<size_t, uint32_t>, uint32_t> undefined_;  // (rank, file id) -> placeholder
  legion::IdMap<uint32_t> lane_of_resource_;
  uint32_t last_resource_ = trace::kNoResource, last_lane_ = kNone;  // records come in runs
  UidIndex op_of_uid_, item_of_uid_;
  // Items are staged straight into p_.items: each lane's slots
  // [begin, end) are counted first (reserve_staging), filled in record
  // order (stage), then sorted and stacked into rows in place (place),
  // lanes in parallel.
  std::vector<uint32_t> fill_;  // per lane: its next free slot
  // Per rank: the end of the slots it and the ranks before it fill. The
  // slots are reserved at once but touched rank by rank (grow_staging),
  // so the memory of the ranks' records, freed once staged, serves the
  // next ranks' slots.
  std::vector<uint32_t> staged_end_;
  HugeVector<Uid> staged_uids_;  // per slot; after place, in each lane's start order
  HugeVector<uint32_t> placed_;  // after place: where the item of staged_uids_[k] went
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
  void reserve_staging();
  void grow_staging(size_t rank);
  void stage(uint32_t lane, Item item, Uid uid, Time ready, Time create);
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
  std::atomic<uint64_t> clamped_times_{0};  // at() runs on several threads in links()
  std::string undescribed_;                 // the first few such lanes' names
  uint64_t huge_sizes_ = 0, strings_left_out_ = 0;
  std::string huge_size_example_;
};

}  // namespace legato::analysis::detail
