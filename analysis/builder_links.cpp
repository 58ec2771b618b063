// Builder steps: links between items (edges, mapping, waits, kernels,
// copies), failure markers, and the lane tree.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <span>
#include <tuple>

#include "analysis/builder.hpp"
#include "analysis/details.hpp"
#include "analysis/fold_summary.hpp"
#include "base/parallel.hpp"
#include "base/prefetch.hpp"

namespace legato::analysis::detail {

namespace {
// A fold key as a float no smaller than it, so skipping a block whose
// maximum is below a threshold never skips an item that reaches it.
float fold_key_rounded_up(const Profile& p, uint32_t i) {
  const Time k = p.fold_key(i);
  float f = static_cast<float>(k);
  if (static_cast<double>(f) < static_cast<double>(k)) f = std::nextafter(f, HUGE_VALF);
  return f;
}
}  // namespace

// Each rank's records resolved on a thread of their own, into the rank's
// part of one table (record order kept), then closed up in rank order.
struct Builder::RankParts {
  std::vector<size_t> offset, kept;  // per rank: where its part begins, what it kept
  explicit RankParts(const std::vector<RankTrace>& traces, auto&& size_of)
      : offset(traces.size() + 1, 0), kept(traces.size(), 0) {
    for (size_t r = 0; r < traces.size(); ++r) offset[r + 1] = offset[r] + size_of(traces[r]);
  }
  template <class Table>
  void close_up(Table& table) const {
    size_t to = 0;
    for (size_t r = 0; r + 1 < offset.size(); ++r) {
      std::move(table.begin() + offset[r], table.begin() + offset[r] + kept[r], table.begin() + to);
      to += kept[r];
    }
    table.resize(to);
  }
};

void Builder::links() {
  // Piece 0 (items and operations only) beside the ranks' edges (1..).
  std::vector<Edge> edges;
  RankParts edge_parts(traces_, [](const RankTrace& t) {
    return t.count<trace::EdgeRecord>() + (t.late_edges ? t.late_edges->size_bound() : 0);
  });
  base::reserve_huge(edges, edge_parts.offset.back());
  edges.resize(edge_parts.offset.back());
  EdgeProblems problems(traces_.size());
  base::parallel_for(traces_.size() + 1, threads_, [&](unsigned, size_t piece) {
    if (piece == 0) return last_runtime_work();
    rank_edges(piece - 1, edges.data() + edge_parts.offset[piece - 1], edge_parts, problems);
  });
  for (RankTrace& t : traces_) t.late_edges.reset();
  const std::string in_flight =
      p_.errors.empty() ? "" : " (work in flight when the run failed is not recorded)";
  warn_edge_problems(problems, in_flight);

  // Three pieces that read no waits beside the ranks' waits (3..).
  RankParts wait_parts(traces_, [](const RankTrace& t) { return t.count<trace::WaitRecord>(); });
  base::reserve_huge(p_.waits, wait_parts.offset.back());
  p_.waits.resize(wait_parts.offset.back());
  WaitScratch waits(*this);
  base::parallel_for(traces_.size() + 3, threads_, [&](unsigned, size_t piece) {
    if (piece == 0) return group_edges(edges, edge_parts);
    if (piece == 1) return kernel_tasks();
    if (piece == 2) return copy_instances();
    rank_waits(piece - 3, wait_parts, waits);
  });
  merge_waits(wait_parts, waits);
  if (!p_.window) {
    warn_count(std::accumulate(waits.lost.begin(), waits.lost.end(), uint64_t{0}),
               "waits belong to tasks missing from the loaded files" + in_flight);
  }
}

// The runtime work serving each operation that finished last.
void Builder::last_runtime_work() {
  for (uint32_t i = 0; i < p_.items.size(); ++i) {
    const Item& it = p_.items[i];
    if (it.kind != ItemKind::MetaTask || it.op == kNone) continue;
    uint32_t& last = p_.operations[it.op].last_meta;
    if (last == kNone || p_.items[last].stop() < it.stop()) last = i;
  }
}

// A rank's edges: its edge records, then its reader's late edges, into
// `out` (its part of the run's table).
void Builder::rank_edges(size_t r, Edge* out, RankParts& parts, EdgeProblems& problems) {
  // Counted in locals: the ranks' counters share cache lines.
  size_t count = 0, lost = 0;
  const auto add = [&](std::span<const trace::EdgeRecord> records) {
    base::for_each_prefetched(
        records.size(),
        [&](size_t a) {
          item_of_uid_.prefetch(records[a].item);
          item_of_uid_.prefetch(records[a].precondition);
        },
        [&](size_t k) {
          const trace::EdgeRecord& e = records[k];
          const uint32_t a = item(e.item), b = item(e.precondition);
          if (a == kNone || b == kNone) {
            ++lost;
          } else if (a == b) {  // an item cannot wait for itself: a damaged record
            if (problems.self[r]++ == 0)
              problems.self_example[r] = "uid " + std::to_string(e.item) + ", " + describe(p_, a);
          } else {
            out[count++] = Edge{a, b, static_cast<uint8_t>(e.edge_kind)};
          }
        });
  };
  traces_[r].for_each_block<trace::EdgeRecord>(
      [&](std::span<const trace::EdgeRecord> records, size_t) { add(records); });
  if (const auto& late = traces_[r].late_edges) late->for_each_block(add);
  parts.kept[r] = count;
  problems.dangling[r] = lost;
}

void Builder::warn_edge_problems(const EdgeProblems& problems, const std::string& in_flight) {
  const auto sum = [](const std::vector<uint64_t>& v) {
    return std::accumulate(v.begin(), v.end(), uint64_t{0});
  };
  // A part of the run loaded on purpose leaves out the items of the rest.
  if (!p_.window) {
    warn_count(sum(problems.dangling),
               "dependency edges name items missing from the loaded files" + in_flight);
  }
  const auto first_self =
      std::find_if(problems.self.begin(), problems.self.end(), [](uint64_t x) { return x > 0; });
  warn_count(sum(problems.self),
             "dependency edges go from an item to itself (damaged records?), e.g. on " +
                 (first_self == problems.self.end()
                      ? std::string()
                      : problems.self_example[first_self - problems.self.begin()]) +
                 "; dropped");
}

// Edges grouped by block of kPreBlock items (counting sort, stable), then
// within each block by item (stable), so that each item's edges keep their
// order. The mapping that prepared an item is derived from last_meta
// (Profile::mapped_by), not stored.
void Builder::group_edges(std::vector<Edge>& edges, const RankParts& parts) {
  const auto n = static_cast<uint32_t>(p_.items.size());
  parts.close_up(edges);
  const size_t blocks = n / kPreBlock + 1;
  p_.pre_block.assign(blocks + 1, 0);
  for (const Edge& e : edges) ++p_.pre_block[e.item / kPreBlock + 1];
  for (size_t b = 0; b < blocks; ++b) p_.pre_block[b + 1] += p_.pre_block[b];
  std::vector<uint32_t> next(p_.pre_block.begin(), p_.pre_block.end() - 1);
  base::reserve_huge(p_.pre, edges.size());
  p_.pre.resize(edges.size());
  for (const Edge& e : edges) {
    p_.pre[next[e.item / kPreBlock]++] =
        Precondition{e.pre, e.kind, static_cast<uint8_t>(e.item % kPreBlock)};
  }
  std::vector<Edge>().swap(edges);  // freed, not only emptied
  const auto by_at = [](const Precondition& a, const Precondition& b) { return a.at < b.at; };
  for (size_t b = 0; b < blocks; ++b) {
    Precondition* const first = p_.pre.data() + p_.pre_block[b];
    Precondition* const last = p_.pre.data() + p_.pre_block[b + 1];
    if (std::is_sorted(first, last, by_at)) continue;
    if (last - first > 64) {
      std::stable_sort(first, last, by_at);
      continue;
    }
    for (Precondition* i = first + 1; i < last; ++i) {  // insertion: stable, no buffer
      const Precondition x = *i;
      Precondition* j = i;
      for (; j > first && x.at < (j - 1)->at; --j) *j = *(j - 1);
      *j = x;
    }
  }
}

// Kernels' tasks and copies' instances.
void Builder::kernel_tasks() {
  base::for_each_prefetched(
      kernel_tasks_.size(), [&](size_t a) { item_of_uid_.prefetch(kernel_tasks_[a]); },
      [&](size_t k) { p_.kernels[k].task = item(kernel_tasks_[k]); });
}

void Builder::copy_instances() {
  base::for_each_prefetched(
      copy_instances_.size(),
      [&](size_t a) {
        item_of_uid_.prefetch(copy_instances_[a].first);
        item_of_uid_.prefetch(copy_instances_[a].second);
      },
      [&](size_t c) {
        p_.copies[c].src_instance = item(copy_instances_[c].first);
        p_.copies[c].dst_instance = item(copy_instances_[c].second);
      });
}

Builder::WaitScratch::WaitScratch(Builder& b)
    : noted(b.traces_.size()), note_text(b.traces_.size()), lost(b.traces_.size(), 0) {
  // Notes' strings resolved beforehand: str() may add a placeholder to the
  // profile's strings.
  for (size_t r = 0; r < b.traces_.size(); ++r) {
    for (const auto& [k, text] : b.traces_[r].wait_notes) note_text[r].push_back(b.str(r, text));
  }
}

// A wait for an operation (a future of a whole launch) waited for the
// operation's item that finished last.
uint32_t Builder::waited_for(Uid event, WaitScratch& w) {
  if (const uint32_t i = item(event); i != kNone || event == 0) return i;
  const uint32_t o = op(event);
  if (o == kNone) return kNone;
  std::call_once(w.last_of_op_found, [&] {
    w.last_of_op.assign(p_.operations.size(), kNone);
    for (uint32_t i = 0; i < p_.items.size(); ++i) {
      const Item& it = p_.items[i];
      if (it.op == kNone || it.kind == ItemKind::MetaTask || it.kind == ItemKind::Instance)
        continue;
      uint32_t& last = w.last_of_op[it.op];
      if (last == kNone || p_.items[last].stop() < it.stop()) last = i;
    }
  });
  return w.last_of_op[o];
}

namespace {
bool by_all(const Wait& a, const Wait& b) {
  return std::tie(a.item, a.start, a.ready, a.end, a.event) <
         std::tie(b.item, b.start, b.ready, b.end, b.event);
}
}  // namespace

// Rank r's waits into its part of p_.waits, sorted, and those with a note
// kept aside with its string.
void Builder::rank_waits(size_t r, RankParts& parts, WaitScratch& w) {
  const auto& notes = traces_[r].wait_notes;
  size_t note = 0, count = 0, lost = 0;
  Wait* const out = p_.waits.data() + parts.offset[r];
  traces_[r].for_each_block<trace::WaitRecord>(
      [&](std::span<const trace::WaitRecord> records, size_t first) {
        base::for_each_prefetched(
            records.size(),
            [&](size_t a) {
              item_of_uid_.prefetch(records[a].task);
              item_of_uid_.prefetch(records[a].event);
            },
            [&](size_t a) {
              const trace::WaitRecord& rec = records[a];
              const size_t k = first + a;
              const uint32_t task = item(rec.task);
              while (note < notes.size() && notes[note].first < k) ++note;
              if (task == kNone) {
                ++lost;
                return;
              }
              const Wait wait{task, waited_for(rec.event, w), at(r, rec.start), at(r, rec.ready),
                              at(r, rec.end)};
              out[count++] = wait;
              if (note < notes.size() && notes[note].first == k)
                w.noted[r].emplace_back(wait, w.note_text[r][note]);
            });
      });
  // In place: a stable sort's buffer would be as big as the table. Waits
  // of one item that start together go by their other fields.
  std::sort(out, out + count, by_all);
  parts.kept[r] = count;
  w.lost[r] = lost;
}

// The ranks' sorted waits merged into one table; each note to its wait.
void Builder::merge_waits(const RankParts& parts, const WaitScratch& w) {
  // Ranks' items mostly follow each other.
  size_t sorted_end = 0;
  for (size_t r = 0; r + 1 < parts.offset.size(); ++r) {
    const size_t from = sorted_end;
    std::move(p_.waits.begin() + parts.offset[r],
              p_.waits.begin() + parts.offset[r] + parts.kept[r], p_.waits.begin() + from);
    sorted_end += parts.kept[r];
    if (from > 0 && by_all(p_.waits[from], p_.waits[from - 1])) {
      std::inplace_merge(p_.waits.begin(), p_.waits.begin() + from, p_.waits.begin() + sorted_end,
                         by_all);
    }
  }
  p_.waits.resize(sorted_end);
  for (const Wait& wait : p_.waits) p_.items[wait.item].flags |= kItemHasWaits;
  const auto by_item = [](const Wait& a, const Wait& b) {
    return a.item < b.item || (a.item == b.item && a.start < b.start);
  };
  // The first unnoted wait equal to the noted one, should two be the same.
  std::vector<bool> taken(p_.waits.size());
  for (const auto& rank_noted : w.noted) {
    for (const auto& [wait, text] : rank_noted) {
      auto at = std::lower_bound(p_.waits.begin(), p_.waits.end(), wait, by_item);
      for (; at != p_.waits.end() && !by_item(wait, *at); ++at) {
        const auto k = static_cast<uint32_t>(at - p_.waits.begin());
        if (at->end != wait.end || at->ready != wait.ready || at->event != wait.event || taken[k])
          continue;
        taken[k] = true;
        p_.wait_notes.emplace_back(k, text);
        break;
      }
    }
  }
  std::sort(p_.wait_notes.begin(), p_.wait_notes.end());
}

void Builder::errors() {
  for (size_t r = 0; r < traces_.size(); ++r) {
    for (const auto& e : traces_[r].all.get<trace::ErrorRecord>()) {
      const uint32_t* l = lane_of_resource_.find(e.resource);
      p_.errors.push_back(ErrorMark{at(r, e.time), p_.ranks[r].rank, e.error_kind, op(e.op),
                                    l ? *l : kNone, str(r, e.text)});
    }
  }
  std::stable_sort(p_.errors.begin(), p_.errors.end(),
                   [](const ErrorMark& a, const ErrorMark& b) { return a.time < b.time; });
}

void Builder::tree() {
  // A described memory without a capacity: the bytes of all its instances
  // (Lane::capacity_given).
  for (const uint32_t l : sized_by_instances_) {
    Lane& lane = p_.lanes[l];
    if (lane.capacity_given) continue;  // another file's description gave it
    uint64_t bytes = 0;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      const InstanceInfo* info = p_.instance_of(p_.items[i]);
      if (!info) continue;
      const uint64_t b = info->bytes;
      bytes = b > ~uint64_t{0} - bytes ? ~uint64_t{0} : bytes + b;
    }
    lane.capacity = bytes;
  }
  // Lanes of a node and kind in the order the trace declared them.
  for (uint32_t l = 0; l < p_.lanes.size(); ++l) {
    const Lane& lane = p_.lanes[l];
    auto node = std::find_if(p_.nodes.begin(), p_.nodes.end(),
                             [&](const Node& n) { return n.rank == lane.rank; });
    if (node == p_.nodes.end()) {
      Node fresh;
      fresh.rank = lane.rank;
      for (const auto& r : p_.ranks) {
        if (r.rank == lane.rank) fresh.host = r.host;
      }
      p_.nodes.push_back(std::move(fresh));
      node = p_.nodes.end() - 1;
    }
    auto group = std::find_if(node->kinds.begin(), node->kinds.end(),
                              [&](const KindGroup& g) { return g.kind == lane.kind; });
    if (group == node->kinds.end()) {
      node->kinds.push_back(KindGroup{lane.kind, {}});
      group = node->kinds.end() - 1;
    }
    group->lanes.push_back(l);
  }
  std::sort(p_.nodes.begin(), p_.nodes.end(),
            [](const Node& a, const Node& b) { return a.rank < b.rank; });
  for (auto& node : p_.nodes) {
    std::sort(node.kinds.begin(), node.kinds.end(),
              [](const KindGroup& a, const KindGroup& b) { return a.kind < b.kind; });
  }

  // The busy-time prefix sums, the fold blocks, the lead tables and the span, in chunks on
  // the worker threads: each chunk's busy_blocks relative to the chunk's
  // start first, then the sums of the chunks before it added. (Durations are
  // never negative, so saturating sums add up the same in any grouping.)
  const size_t n = p_.items.size();
  constexpr size_t kChunk = size_t{1} << 18;  // items: a multiple of 16 and of kLeadGroup
  static_assert(kChunk % 16 == 0 && kChunk % kLeadGroup == 0 && kLeadGroup % kFoldBlock == 0);
  struct Part {
    Time sum = 0, lo = std::numeric_limits<Time>::max(), hi = std::numeric_limits<Time>::min();
  };
  std::vector<Part> parts((n + kChunk - 1) / kChunk);
  p_.busy_blocks.assign(n / 16 + 1, 0);
  p_.fold_blocks.assign((n + kFoldBlock - 1) / kFoldBlock, 0.f);
  p_.lead_blocks.assign((n + kFoldBlock - 1) / kFoldBlock, 0);
  p_.lead_groups.assign((n + kLeadGroup - 1) / kLeadGroup, 0);
  base::parallel_for(parts.size(), threads_, [&](unsigned, size_t c) {
    Part part;
    for (size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) {
      if (i % 16 == 0) p_.busy_blocks[i / 16] = part.sum;
      const Item& it = p_.items[i];
      part.sum = saturating_add(part.sum, it.duration());
      part.lo = std::min<Time>(part.lo, it.start);
      part.hi = std::max(part.hi, it.stop());
      float& block = p_.fold_blocks[i / kFoldBlock];
      block = std::max(block, fold_key_rounded_up(p_, static_cast<uint32_t>(i)));
    }
    fill_lead_tables(p_, c * kChunk, std::min(n, (c + 1) * kChunk));
    parts[c] = part;
  });
  Time lo = std::numeric_limits<Time>::max(), hi = std::numeric_limits<Time>::min(), sum = 0;
  std::vector<Time> before(parts.size());  // per chunk: the busy time of the chunks before it
  for (size_t c = 0; c < parts.size(); ++c) {
    before[c] = sum;
    sum = saturating_add(sum, parts[c].sum);
    lo = std::min(lo, parts[c].lo);
    hi = std::max(hi, parts[c].hi);
  }
  if (n % 16 == 0) p_.busy_blocks[n / 16] = sum;
  base::parallel_for(parts.size(), threads_, [&](unsigned, size_t c) {
    if (before[c] == 0) return;
    const size_t end = std::min(n, (c + 1) * kChunk);
    for (size_t k = c * kChunk / 16; k < (end + 15) / 16; ++k)
      p_.busy_blocks[k] = saturating_add(p_.busy_blocks[k], before[c]);
  });
  for (const auto& e : p_.errors) {
    lo = std::min(lo, e.time);
    hi = std::max(hi, e.time);
  }
  if (lo > hi) lo = hi = 0;
  p_.start = lo;
  p_.stop = hi;
}

}  // namespace legato::analysis::detail
