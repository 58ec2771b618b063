// What folded items ran: the lead tables against their plain definition,
// a folded box's columns (its items, busy time and lead each), and a run's
// phases readable from the columns at full zoom-out.
#include <map>
#include <random>

#include <catch2/catch.hpp>

#include "analysis/fold_summary.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

// The item of the heaviest key among `items` weighing `weight` each (ties:
// the key seen first), as the lead tables define it.
template <class Items, class Weight>
uint32_t heaviest(const Profile& p, const Items& items, Weight weight) {
  std::map<uint32_t, std::pair<Time, size_t>> by_key;  // key -> weight, order seen
  std::vector<uint32_t> first;                         // per order: its first item
  for (const uint32_t i : items) {
    const uint32_t key = lead_key(p.items[i]);
    auto [at, fresh] = by_key.try_emplace(key, 0, first.size());
    if (fresh) first.push_back(i);
    at->second.first += weight(i);
  }
  std::pair<Time, size_t> best{-1, 0};
  for (const auto& [key, w] : by_key) {
    if (w.first > best.first || (w.first == best.first && w.second < best.second)) best = w;
  }
  return first[best.second];
}

// Three phases on c0, each of 12000 tiny tasks 10 ns apart: "gemm" alone,
// "axpy" alone, then gemm and axpy mixed three to one (seeded). Each task
// lasts 2 to 6 ns.
Profile phased_run(TempDir& dir) {
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto gemm = t.task_kind("gemm"), axpy = t.task_kind("axpy");
    std::mt19937_64 rng(11);
    Time at = 0;
    for (int phase = 0; phase < 3; ++phase) {
      for (int i = 0; i < 12000; ++i, at += 10) {
        const bool g = phase == 0 || (phase == 2 && rng() % 4 != 0);
        t.task(c0, g ? gemm : axpy, at, at + 2 + static_cast<Time>(rng() % 5));
      }
    }
    t.finish();
  }
  return load::load_profile({dir.file("legate_0.prof")});
}

std::string name_of(const Profile& p, uint32_t item) {
  return p.str(p.items[item].name);
}

}  // namespace

TEST_CASE("the lead tables name each block's heaviest name and kind", "[analysis][fold]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    std::vector<uint32_t> kinds;
    for (int k = 0; k < 7; ++k) kinds.push_back(t.task_kind("k" + std::to_string(k)));
    std::mt19937_64 rng(5);
    for (const auto proc : {c0, c1}) {
      Time at = 0;
      for (int i = 0; i < 5000; ++i) {
        // Runs of a kind, durations 0..40 ns: zero-length items count by number.
        const auto k = kinds[(i / (1 + rng() % 9)) % kinds.size()];
        const Time d = static_cast<Time>(rng() % 41);
        t.task(proc, k, at, at + d);
        at += d + static_cast<Time>(rng() % 7);
      }
    }
    t.finish();
  }
  const Profile p = load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(p.items.size() == 10000);
  REQUIRE(p.lead_blocks.size() == (p.items.size() + kFoldBlock - 1) / kFoldBlock);
  REQUIRE(p.lead_groups.size() == (p.items.size() + kLeadGroup - 1) / kLeadGroup);
  const auto weight = [&](uint32_t i) { return lead_weight(p.items[i]); };
  for (uint32_t b = 0; b < p.lead_blocks.size(); ++b) {
    std::vector<uint32_t> block;
    for (uint32_t i = b * kFoldBlock; i < std::min<size_t>(p.items.size(), (b + 1) * kFoldBlock);
         ++i)
      block.push_back(i);
    REQUIRE(b * kFoldBlock + p.lead_blocks[b] == heaviest(p, block, weight));
  }
  for (uint32_t g = 0; g < p.lead_groups.size(); ++g) {
    std::vector<uint32_t> leads;
    std::map<uint32_t, Time> block_weight;  // lead -> its block's weight
    for (uint32_t b = g * kLeadGroup / kFoldBlock;
         b < std::min<size_t>(p.lead_blocks.size(), (g + 1) * kLeadGroup / kFoldBlock); ++b) {
      const uint32_t lead = b * kFoldBlock + p.lead_blocks[b];
      leads.push_back(lead);
      for (uint32_t i = b * kFoldBlock; i < std::min<size_t>(p.items.size(), (b + 1) * kFoldBlock);
           ++i)
        block_weight[lead] += weight(i);
    }
    REQUIRE(g * kLeadGroup + p.lead_groups[g] ==
            heaviest(p, leads, [&](uint32_t lead) { return block_weight[lead]; }));
  }
  // Up to kLeadSamples items, leading() weighs each: shares of the exact weights.
  const Row& row = p.lanes[p.lane_of(0)].rows.at(0);
  for (uint32_t begin = row.begin; begin + kLeadSamples <= row.end; begin += 97) {
    const auto shares = leading(p, begin, begin + kLeadSamples, 3);
    REQUIRE(!shares.empty());
    std::vector<uint32_t> range;
    Time total = 0;
    for (uint32_t i = begin; i < begin + kLeadSamples; ++i) {
      range.push_back(i);
      total += weight(i);
    }
    CHECK(shares[0].item == heaviest(p, range, weight));
    Time top = 0;
    for (const uint32_t i : range)
      if (lead_key(p.items[i]) == lead_key(p.items[shares[0].item])) top += weight(i);
    CHECK(shares[0].share == Approx(static_cast<double>(top) / static_cast<double>(total)));
    for (size_t s = 1; s < shares.size(); ++s) CHECK(shares[s].share <= shares[s - 1].share);
  }
}

TEST_CASE("a folded box's columns hold its items, their busy time and what led",
          "[analysis][fold]") {
  TempDir dir;
  const Profile p = phased_run(dir);
  const uint32_t lane = p.lane_of(0);
  std::mt19937_64 rng(3);
  size_t columns_checked = 0, by_blocks = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const double ns_per_px = 1 + static_cast<double>(rng() % 400);  // tasks fold below 3 px
    const Time t0 = static_cast<Time>(rng() % 300000);
    const Window w{t0, t0 + static_cast<Time>(ns_per_px * 1200), ns_per_px, 3};
    std::vector<DrawBox> boxes;
    visible_boxes(p, lane, w, boxes);
    for (const DrawBox& box : boxes) {
      if (box.item != kNone) continue;
      std::vector<FoldColumn> cols;
      fold_columns(p, box, static_cast<double>(w.t0), 3 * ns_per_px, cols);
      REQUIRE(!cols.empty());
      const bool by_block = folds_by_block(box, 3 * ns_per_px);
      by_blocks += by_block;
      uint32_t next = box.first;
      for (const FoldColumn& c : cols) {
        REQUIRE(c.first == next);
        REQUIRE(c.count > 0);
        next += c.count;
        Time busy = 0;
        std::vector<uint32_t> items;
        uint32_t later = 0;  // items that start in a later column
        for (uint32_t i = c.first; i < c.first + c.count; ++i) {
          const auto s = static_cast<double>(p.items[i].start);
          CHECK(s >= c.start - 1e-6);
          if (i > c.first && s >= c.stop) ++later;
          busy += p.items[i].duration();
          items.push_back(i);
        }
        // A column ends where the next starts, or at the fold block holding
        // that place in a dense box.
        if (!by_block) CHECK(later == 0);
        CHECK(later < kFoldBlock);
        if (by_block && c.first + c.count < box.first + box.count)
          CHECK((c.first + c.count) % kFoldBlock == 0);
        CHECK(c.busy == busy);
        CHECK(c.stop - c.start == Approx(3 * ns_per_px));
        // Of up to four items the heaviest; of more, one of them that leads
        // its fold block or group, or the middle one.
        if (c.count <= 4) {
          CHECK(c.lead == heaviest(p, items, [&](uint32_t i) { return lead_weight(p.items[i]); }));
        } else {
          CHECK(c.lead - c.first < c.count);
          const uint32_t in_block = c.lead % kFoldBlock, in_group = c.lead % kLeadGroup;
          CHECK((c.lead == c.first + c.count / 2 ||
                 in_block == p.lead_blocks[c.lead / kFoldBlock] ||
                 in_group == p.lead_groups[c.lead / kLeadGroup]));
        }
        ++columns_checked;
      }
      CHECK(next == box.first + box.count);
    }
  }
  CHECK(columns_checked > 1000);
  CHECK(by_blocks > 0);
}

TEST_CASE("zoomed all the way out, a lane's columns show its phases", "[analysis][fold]") {
  TempDir dir;
  const Profile p = phased_run(dir);
  const uint32_t lane = p.lane_of(0);
  // 360 us over 600 px: one folded box, a column per 3 px (1800 ns, 180 tasks).
  const Window w{p.start, p.stop, static_cast<double>(p.stop - p.start) / 600, 3};
  std::vector<DrawBox> boxes;
  visible_boxes(p, lane, w, boxes);
  REQUIRE(boxes.size() == 1);
  REQUIRE(boxes[0].count == 36000);
  std::vector<FoldColumn> cols;
  fold_columns(p, boxes[0], static_cast<double>(w.t0), 3 * w.ns_per_px, cols);
  REQUIRE(cols.size() >= 190);
  std::map<std::string, int> phase[3];
  for (const FoldColumn& c : cols) {
    const double at = (c.start + c.stop) / 2 - static_cast<double>(p.start);
    // Away from the phases' edges, each column leads with its phase's task.
    const int k = static_cast<int>(at / 120000);
    if (std::abs(at - 120000.0 * std::round(at / 120000)) < 4000) continue;
    phase[std::min(k, 2)][name_of(p, c.lead)] += 1;
    // Busy share: 2 to 6 ns of each 10.
    const double share = static_cast<double>(c.busy) / (c.stop - c.start);
    CHECK(share > 0.2);
    CHECK(share < 0.7);
  }
  CHECK(phase[0] == std::map<std::string, int>{{"gemm", phase[0]["gemm"]}});
  CHECK(phase[1] == std::map<std::string, int>{{"axpy", phase[1]["axpy"]}});
  CHECK(phase[2]["gemm"] > 4 * phase[2]["axpy"]);  // 3:1 per task, the heavier one leads
  CHECK(phase[0]["gemm"] > 50);
  CHECK(phase[1]["axpy"] > 50);
  // The whole box: gemm first (two phases and three quarters of one), then axpy.
  const auto shares = leading(p, boxes[0].first, boxes[0].first + boxes[0].count, 4);
  REQUIRE(shares.size() == 2);
  CHECK(name_of(p, shares[0].item) == "gemm");
  CHECK(name_of(p, shares[1].item) == "axpy");
  CHECK(shares[0].share > 0.5);
  CHECK(shares[0].share + shares[1].share == Approx(1));
}
