// The profile model on synthetic traces with known answers: lanes and rows,
// utilization, folding, states, details and the critical path.
#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/stats.hpp"
#include "analysis/timeline.hpp"
#include "analysis/utilization.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

uint32_t lane_named(const Profile& p, const std::string& name, uint32_t rank = 0) {
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    if (p.lanes[l].name == name && p.lanes[l].rank == rank) return l;
  }
  FAIL("no lane " << name);
  return kNone;
}

// The first of items [begin, end) that starts at t.
uint32_t item_at(const Profile& p, uint32_t begin, uint32_t end, Time t) {
  for (uint32_t i = begin; i < end; ++i) {
    if (p.items[i].start == t) return i;
  }
  FAIL("no item at " << t);
  return kNone;
}
// The item of a lane that starts at t.
uint32_t item_at(const Profile& p, uint32_t lane, Time t) {
  return item_at(p, p.lanes[lane].begin, p.lanes[lane].end, t);
}

}  // namespace

// Whether std::min could bind references to both (a misaligned one, were
// Item::start a plain Time in a packed struct).
template <class A, class B>
concept MinBindsBoth = requires(A a, B b) {
  std::min(a, b);
};

TEST_CASE("compact items keep their times exactly, and bind no misaligned reference",
          "[analysis]") {
  static_assert(sizeof(Item) == 28 && alignof(Item) == 4);
  static_assert(sizeof(Precondition) == 6);
  static_assert(!MinBindsBoth<Time&, const decltype(Item::start)&>);
  static_assert(!MinBindsBoth<uint32_t&, const decltype(Precondition::item)&>);
  std::vector<Item> items(3);  // items[1].start lies 4 bytes off an 8-byte boundary
  for (const Time t : {Time{0}, Time{-1}, -kTimeLimit, kTimeLimit, Time{0x123456789abcdef}}) {
    items[1].set_span(t, t + 5);
    CHECK(items[1].start == t);
    CHECK(items[1].stop() == t + 5);
    items[1].start = items[1].start + 7;
    CHECK(std::min<Time>(t + 100, items[1].start) == t + 7);
  }
  Precondition pre{0xfedcba98u, 1, 2};
  CHECK(uint32_t{pre.item} == 0xfedcba98u);
}

TEST_CASE("lanes form the node -> kind -> lane tree, and overlaps stack into rows", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto mem = t.memory(trace::MemKind::System, 1000, "sysmem");
    const auto k = t.task_kind("add");
    t.task(c0, k, 0, 10);
    t.task(c1, k, 5, 20);
    t.meta(u0, "Mapping", 0, 1);
    t.instance(mem, 100, "a", 0, 0, 50);
    t.instance(mem, 100, "b", 10, 10, 30);
    t.instance(mem, 100, "c", 40, 40, 60);  // fits in row 1 after b, not row 0
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  CHECK(p.warnings.empty());
  REQUIRE(p.nodes.size() == 1);
  REQUIRE(p.nodes[0].kinds.size() == 3);
  CHECK(p.nodes[0].kinds[0].kind == LaneKind::Cpu);
  CHECK(p.nodes[0].kinds[0].lanes.size() == 2);
  CHECK(p.nodes[0].kinds[1].kind == LaneKind::Utility);
  CHECK(p.nodes[0].kinds[2].kind == LaneKind::SystemMemory);
  CHECK(p.nodes[0].host == "host0");
  const uint32_t mem = lane_named(p, "sysmem");
  REQUIRE(p.lanes[mem].rows.size() == 2);
  CHECK(p.lanes[mem].rows[0].end - p.lanes[mem].rows[0].begin == 1);  // a
  CHECK(p.lanes[mem].rows[1].end - p.lanes[mem].rows[1].begin == 2);  // b, c
  CHECK(p.lane_of(item_at(p, mem, 40)) == mem);
  CHECK(p.row_of(mem, item_at(p, mem, 40)) == 1);
  CHECK(p.start == 0);
  CHECK(p.stop == 60);
  CHECK(p.memory_bytes() / p.records <= 200);  // tiny traces are dominated by fixed costs
}

TEST_CASE("each item goes to the lowest row free at its start, however many rows", "[analysis]") {
  // 400 instances with distinct starts and overlaps up to some 40 deep, so
  // that the rows pass the few a lane usually needs and free up again.
  TempDir dir;
  std::vector<std::pair<Time, Time>> spans;
  std::mt19937 rng(7);
  for (Time t = 0; spans.size() < 400; t += 1 + static_cast<Time>(rng() % 20))
    spans.emplace_back(t, t + 1 + static_cast<Time>(rng() % (spans.size() < 200 ? 400 : 60)));
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto mem = t.memory(trace::MemKind::System, 1 << 30, "sysmem");
    for (size_t k = spans.size(); k-- > 0;)  // recorded out of start order
      t.instance(mem, 1, "i", spans[k].first, spans[k].first, spans[k].second);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const uint32_t mem = lane_named(p, "sysmem");
  std::vector<Time> last_stop;  // per row, as the model must stack them
  for (const auto& [start, stop] : spans) {
    uint32_t r = 0;
    while (r < last_stop.size() && last_stop[r] > start) ++r;
    if (r == last_stop.size()) last_stop.push_back(0);
    last_stop[r] = stop;
    CHECK(p.row_of(mem, item_at(p, mem, start)) == r);
  }
  CHECK(last_stop.size() > 20);
  CHECK(p.lanes[mem].rows.size() == last_stop.size());
}

TEST_CASE("utilization counts busy processors, not blocked time, and live bytes", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto mem = t.memory(trace::MemKind::System, 1000, "sysmem");
    const auto ch = t.channel(mem, mem, "sysmem to sysmem");
    const auto k = t.task_kind("work");
    t.task(c0, k, 0, 100);
    const auto b = t.task(c1, k, 50, 150);
    t.wait(b, 60, 80, 90);                  // c1 busy 50..60 and 90..150
    t.instance(mem, 400, "x", 0, 10, 110);  // live (ready) 10..110
    t.copy(ch, 64, 0, 50);
    t.copy(ch, 64, 150, 200);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const auto cpu = utilization(p, LaneKind::Cpu);
  CHECK(cpu.average(0, 200) == Approx(170.0 / 400));
  const auto s = cpu.sample(0, 200, 2);
  REQUIRE(s.size() == 2);
  CHECK(s[0] == Approx(120.0 / 200));
  CHECK(s[1] == Approx(50.0 / 200));
  CHECK(utilization(p, LaneKind::Cpu, 0).average(0, 200) == Approx(0.425));
  CHECK(utilization(p, LaneKind::SystemMemory).average(0, 200) == Approx(400.0 * 100 / 1000 / 200));
  CHECK(utilization(p, LaneKind::Channel).average(0, 200) == Approx(0.5));
  CHECK(utilization(p, LaneKind::Channel).average(0, 50) == Approx(1.0));
  CHECK_FALSE(has_lanes(p, LaneKind::GpuDevice));
  const auto summary = utilization_summary(p);
  REQUIRE(summary.size() == 3);
  CHECK(summary[0].kind == LaneKind::Cpu);
  CHECK(summary[0].lanes == 2);
  CHECK(summary[0].average == Approx(0.425));
}

TEST_CASE("utilization averages of a long curve match a direct sum", "[analysis]") {
  std::mt19937_64 rng(11);
  std::vector<std::pair<Time, int64_t>> changes;
  for (int i = 0; i < 20000; ++i) {
    const Time a = static_cast<Time>(rng() % 10'000'000), d = 1 + static_cast<Time>(rng() % 5000);
    changes.emplace_back(a, 1);
    changes.emplace_back(a + d, -1);
  }
  const UtilizationCurve curve(changes, 8);
  // The in-use amount integrated over [t0, t1), one change at a time.
  const auto direct = [&](Time t0, Time t1) {
    double area = 0;
    for (const auto& [t, d] : changes) {
      const Time from = std::clamp(t, t0, t1);
      area += static_cast<double>(d) * static_cast<double>(t1 - from);
    }
    return area / static_cast<double>(t1 - t0) / 8;
  };
  for (int k = 0; k < 300; ++k) {
    const Time t0 = static_cast<Time>(rng() % 10'100'000) - 50'000;
    const Time t1 = t0 + 1 + static_cast<Time>(rng() % (k % 2 ? 100 : 3'000'000));
    INFO(t0 << ".." << t1);
    CHECK(curve.average(t0, t1) == Approx(direct(t0, t1)).margin(1e-9));
  }
  // Samples: narrow buckets are exact; wide ones (edges taken from the
  // curve's grid, moved by at most 1/16 of a bucket) within 1/8 of full.
  for (const auto& [t0, t1, n] : {std::tuple<Time, Time, int>{3'000'000, 3'000'500, 100},
                                  {0, 10'000'000, 50},
                                  {-200'000, 12'000'000, 333}}) {
    const auto values = curve.sample(t0, t1, n);
    const double w = static_cast<double>(t1 - t0) / n;
    for (int i = 0; i < n; ++i) {
      const auto a = static_cast<Time>(std::llround(static_cast<double>(t0) + w * i));
      const auto b = static_cast<Time>(std::llround(static_cast<double>(t0) + w * (i + 1)));
      INFO("bucket " << i << " of " << t0 << ".." << t1);
      CHECK(values[static_cast<size_t>(i)] ==
            Approx(direct(a, b)).margin(t1 - t0 < 1000 ? 1e-6 : 1.0 / 8));
    }
  }
}

TEST_CASE("utilization curves from sorted runs equal those from shuffled changes", "[analysis]") {
  // Five lanes' busy edges, each run sorted (the usual input), and the same
  // changes shuffled: the curves must agree everywhere.
  std::mt19937_64 rng(5);
  std::vector<std::pair<Time, int64_t>> runs;
  for (int lane = 0; lane < 5; ++lane) {
    Time at = static_cast<Time>(rng() % 100);
    for (int i = 0; i < 2000; ++i) {
      const Time d = static_cast<Time>(rng() % 50), gap = static_cast<Time>(rng() % 30);
      runs.emplace_back(at, 1);
      runs.emplace_back(at + d, -1);
      at += d + gap;
    }
  }
  auto shuffled = runs;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  const UtilizationCurve merged(runs, 5), sorted(shuffled, 5);
  for (int k = 0; k < 200; ++k) {
    const Time t0 = static_cast<Time>(rng() % 100'000),
               t1 = t0 + 1 + static_cast<Time>(rng() % 5000);
    CHECK(merged.average(t0, t1) == Approx(sorted.average(t0, t1)).margin(1e-12));
  }
  CHECK(merged.sample(0, 100'000, 77) == sorted.sample(0, 100'000, 77));
}

TEST_CASE("tiny items fold into gray boxes with count and total time", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto k = t.task_kind("tiny");
    const auto big = t.task_kind("big");
    for (int i = 0; i < 100; ++i) t.task(c0, k, 2 * i, 2 * i + 1);
    t.task(c0, big, 1000, 2000);
    for (int i = 0; i < 50; ++i) t.task(c0, k, 3000 + 2 * i, 3000 + 2 * i + 1);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const uint32_t c0 = lane_named(p, "c0");
  std::vector<DrawBox> boxes;
  visible_boxes(p, c0, Window{0, 4000, 10, 3}, boxes);  // min 30 ns
  REQUIRE(boxes.size() == 3);
  CHECK(boxes[0].item == kNone);
  CHECK(boxes[0].count == 100);
  CHECK(boxes[0].busy == 100);
  CHECK(boxes[0].start == 0);
  CHECK(boxes[0].stop == 199);
  CHECK(boxes[1].item != kNone);
  CHECK(p.str(p.items[boxes[1].item].name) == "big");
  CHECK(boxes[2].count == 50);
  CHECK(boxes[2].busy == 50);
  // Zoomed in, every item is its own box; only visible ones are returned.
  boxes.clear();
  visible_boxes(p, c0, Window{0, 20, 0.01, 3}, boxes);
  CHECK(boxes.size() == 10);
  for (const auto& b : boxes) CHECK(b.count == 1);
  // A window past everything shows nothing.
  boxes.clear();
  visible_boxes(p, c0, Window{5000, 6000, 1, 3}, boxes);
  CHECK(boxes.empty());
}

// The plain definition folding must match: each tiny item joins the box of
// the one before it when it starts within min_ns of that one's end.
static std::vector<DrawBox> reference_boxes(const Profile& p, uint32_t lane, const Window& w) {
  std::vector<DrawBox> out;
  const Time min_ns = std::max<Time>(1, static_cast<Time>(std::ceil(w.min_px * w.ns_per_px)));
  const Row& row = p.lanes[lane].rows.at(0);
  for (uint32_t i = row.begin; i < row.end; ++i) {
    const Item& it = p.items[i];
    if (it.stop() <= w.t0 || it.start >= w.t1) continue;
    const bool joins = !out.empty() && out.back().first + out.back().count == i &&
                       it.duration() < min_ns && p.items[i - 1].duration() < min_ns &&
                       it.start - p.items[i - 1].stop() < min_ns;
    if (joins) {
      out.back().count += 1;
      out.back().stop = it.stop();
      out.back().busy += it.duration();
      out.back().item = kNone;
    } else {
      out.push_back(DrawBox{it.start, it.stop(), i, 1, it.duration(), 0, i});
    }
  }
  return out;
}

TEST_CASE("folding skips blocks of tiny items and matches the plain definition", "[analysis]") {
  TempDir dir;
  std::mt19937_64 rng(7);
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto k = t.task_kind("t");
    Time at = 0;
    for (int i = 0; i < 20000; ++i) {
      // Mostly tiny tasks with tiny gaps, some long ones and long gaps.
      const Time gap =
          rng() % 50 == 0 ? 5000 + static_cast<Time>(rng() % 50000) : static_cast<Time>(rng() % 20);
      const Time d = rng() % 40 == 0 ? 2000 + static_cast<Time>(rng() % 9000)
                                     : 1 + static_cast<Time>(rng() % 30);
      t.task(c0, k, at + gap, at + gap + d);
      at += gap + d;
    }
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const uint32_t c0 = lane_named(p, "c0");
  REQUIRE(p.lanes[c0].rows.size() == 1);
  const Time end = p.items[p.lanes[c0].end - 1].stop();
  for (int trial = 0; trial < 200; ++trial) {
    const double ns_per_px = std::pow(10.0, static_cast<double>(rng() % 600) / 100.0);  // 1..1e6
    const Time t0 = static_cast<Time>(rng() % static_cast<uint64_t>(end));
    const Time t1 = t0 + 1 + static_cast<Time>(ns_per_px * 1500);
    const Window w{t0, t1, ns_per_px, 3};
    std::vector<DrawBox> boxes;
    visible_boxes(p, c0, w, boxes);
    const auto expected = reference_boxes(p, c0, w);
    INFO("window " << t0 << ".." << t1 << " at " << ns_per_px << " ns/px");
    REQUIRE(boxes.size() == expected.size());
    for (size_t b = 0; b < boxes.size(); ++b) {
      CHECK(boxes[b].first == expected[b].first);
      CHECK(boxes[b].count == expected[b].count);
      CHECK(boxes[b].stop == expected[b].stop);
      CHECK(boxes[b].busy == expected[b].busy);
      CHECK(boxes[b].item == expected[b].item);
    }
  }
}

TEST_CASE("a model built on several threads: staging in pieces, busy sums, fold blocks, span",
          "[analysis]") {
  // Over a million items: staging cuts each lane's records into pieces of
  // 2^15 that any thread stages, and tree() sums the items in chunks of
  // 2^18 on several threads, then adds the chunks before each. The model
  // is the same whatever the threads, and its sums match a direct pass.
  // On c0, the first task of each piece (named "tie") runs when the last of
  // the piece before does: of two items with the same times, the one staged
  // first (written first) takes the lower row, so c0's second row holds the
  // ties only if the pieces were staged in record order.
  TempDir dir;
  std::mt19937_64 rng(5);
  using Span = std::tuple<Time, Time, bool>;  // start, stop, a tie
  std::vector<std::vector<Span>> rows(4);     // c0's two rows, then c1's, c2's
  constexpr int kPiece = 1 << 15;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto k = t.task_kind("t"), tie_kind = t.task_kind("tie");
    for (int lane = 0; lane < 3; ++lane) {
      const auto c = t.processor(trace::ProcKind::Cpu, static_cast<uint32_t>(lane),
                                 "c" + std::to_string(lane));
      Time at = 1000 * lane;
      for (int i = 0; i < 350'000; ++i) {
        const bool tie = lane == 0 && i > 0 && i % kPiece == 0;
        const Time d = rng() % 100 == 0 ? 100'000 : 1 + static_cast<Time>(rng() % 500);
        const Time start = tie ? std::get<0>(rows[0].back()) : at;
        const Time stop = tie ? std::get<1>(rows[0].back()) : at + d;
        t.task(c, tie ? tie_kind : k, start, stop);
        const size_t row = tie ? 1 : lane == 0 ? 0 : static_cast<size_t>(lane) + 1;
        rows[row].emplace_back(start, stop, tie);
        at = stop + static_cast<Time>(rng() % 50);
      }
    }
    t.finish();
  }
  using legato::load::LoadOptions;
  const Profile one =
      legato::load::load_profile({dir.file("legate_0.prof")}, LoadOptions::with_threads(1));
  for (const unsigned threads : {1u, 3u}) {
    const Profile p =
        legato::load::load_profile({dir.file("legate_0.prof")}, LoadOptions::with_threads(threads));
    INFO(threads << " threads");
    REQUIRE(p.items.size() == 1'050'000);
    // Each lane holds its tasks row by row, each row as written.
    std::vector<Span> expected, got;
    for (const auto& row : rows) expected.insert(expected.end(), row.begin(), row.end());
    for (int lane = 0; lane < 3; ++lane) {
      const Lane& l = p.lanes[lane_named(p, "c" + std::to_string(lane))];
      CHECK(l.rows.size() == (lane == 0 ? 2 : 1));
      for (uint32_t i = l.begin; i < l.end; ++i)
        got.emplace_back(p.items[i].start, p.items[i].stop(), p.str(p.items[i].name) == "tie");
    }
    REQUIRE(got.size() == expected.size());
    size_t misplaced = 0, differ = 0;
    for (size_t i = 0; i < got.size(); ++i) misplaced += got[i] != expected[i];
    for (size_t i = 0; i < p.items.size(); ++i) {
      const Item &a = p.items[i], &b = one.items[i];
      differ += a != b;  // every field
    }
    CHECK(misplaced == 0);
    CHECK(differ == 0);
    REQUIRE(p.busy_blocks.size() == p.items.size() / 16 + 1);
    REQUIRE(p.fold_blocks.size() == (p.items.size() + kFoldBlock - 1) / kFoldBlock);
    Time sum = 0, lo = p.items[0].start, hi = p.items[0].stop();
    size_t wrong_busy = 0, wrong_fold = 0;
    float fold = 0;
    for (size_t i = 0; i <= p.items.size(); ++i) {
      if (i % 16 == 0) wrong_busy += p.busy_blocks[i / 16] != sum;
      if (i > 0 && (i % kFoldBlock == 0 || i == p.items.size())) {
        wrong_fold += p.fold_blocks[(i - 1) / kFoldBlock] < fold;
        fold = 0;
      }
      if (i == p.items.size()) break;
      sum += p.items[i].duration();
      lo = std::min<Time>(lo, p.items[i].start);
      hi = std::max(hi, p.items[i].stop());
      fold = std::max(fold, static_cast<float>(p.fold_key(static_cast<uint32_t>(i))));
    }
    CHECK(wrong_busy == 0);
    CHECK(wrong_fold == 0);
    CHECK(p.busy_between(0, static_cast<uint32_t>(p.items.size())) == sum);
    CHECK(p.start == lo);
    CHECK(p.stop == hi);
  }
}

TEST_CASE("tasks split into running, blocked and ready segments", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto io = t.processor(trace::ProcKind::Io, 0, "io0");
    const auto top = t.task(io, t.task_kind("TopLevelTask"), 0, 100);
    t.wait(top, 20, 50, 60);
    t.wait(top, 70, 70, 75);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const auto segs = states(p, p.lanes[lane_named(p, "io0")].begin);
  REQUIRE(segs.size() == 6);
  CHECK((segs[0].start == 0 && segs[0].stop == 20 && segs[0].state == State::Running));
  CHECK((segs[1].start == 20 && segs[1].stop == 50 && segs[1].state == State::Blocked));
  CHECK((segs[2].start == 50 && segs[2].stop == 60 && segs[2].state == State::Ready));
  CHECK((segs[3].start == 60 && segs[3].stop == 70 && segs[3].state == State::Running));
  CHECK((segs[4].start == 70 && segs[4].stop == 75 && segs[4].state == State::Ready));
  CHECK((segs[5].start == 75 && segs[5].stop == 100 && segs[5].state == State::Running));
  // In a window, the segments that overlap it, whole.
  const auto in_view = states(p, p.lanes[lane_named(p, "io0")].begin, 55, 71);
  REQUIRE(in_view.size() == 3);
  CHECK((in_view[0].start == 50 && in_view[0].stop == 60 && in_view[0].state == State::Ready));
  CHECK((in_view[1].start == 60 && in_view[1].stop == 70 && in_view[1].state == State::Running));
  CHECK((in_view[2].start == 70 && in_view[2].stop == 75 && in_view[2].state == State::Ready));
  CHECK(states(p, p.lanes[lane_named(p, "io0")].begin, 100, 200).empty());
  const auto d = details(p, p.lanes[lane_named(p, "io0")].begin);
  CHECK(d.blocked == 30);
  CHECK(d.resuming == 15);
  CHECK(d.running == 55);
  // Blocked and resuming time is not busy time.
  CHECK(utilization(p, LaneKind::Io).average(0, 100) == Approx(0.55));
}

TEST_CASE("details and the critical path answer why an item started when it did", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto k = t.task_kind("step");
    const auto top = t.operation("TopLevelTask", "");
    const auto op_a = t.operation("fill", "prog.cc:10", top);
    const auto op_c = t.operation("add", "prog.cc:12", top);
    const auto op_d = t.operation("sum", "prog.cc:13", top);
    const auto a = t.task(c0, k, 0, 10, op_a);
    const auto b = t.task(c1, k, 0, 20, op_a);
    t.meta(u0, "Mapping", 21, 22, op_c);
    const auto c = t.task(c0, k, 25, 40, op_c, 22, 5);
    const auto d = t.task(c1, k, 45, 50, op_d, 41, 30);
    t.edge(c, a);
    t.edge(c, b);
    t.edge(d, c);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const uint32_t c0 = lane_named(p, "c0"), c1 = lane_named(p, "c1"), u0 = lane_named(p, "u0");
  const uint32_t a = item_at(p, c0, 0), b = item_at(p, c1, 0), c = item_at(p, c0, 25),
                 d = item_at(p, c1, 45), m = item_at(p, u0, 21);
  // c waited for a, b (data) and for its mapping, which finished last.
  CHECK(last_precondition(p, c) == m);
  CHECK(last_precondition(p, d) == c);
  CHECK(critical_path(p, d) == std::vector<uint32_t>{d, c, m});
  const ItemDetails det = details(p, c);
  CHECK(det.name == "step");
  CHECK(det.operation == "add");
  CHECK(det.provenance == "prog.cc:12");
  CHECK(det.lane == "c0 (node 0)");
  CHECK(det.create == 5);
  CHECK(det.ready == 22);
  CHECK(det.waiting_for_dependencies == 17);
  CHECK(det.waiting_for_processor == 3);
  CHECK(det.running == 15);
  CHECK(det.previous == a);
  CHECK(det.critical == m);
  REQUIRE(det.preconditions.size() == 3);
  CHECK(det.preconditions[0].item == a);
  CHECK(det.preconditions[1].item == b);
  CHECK(precondition_name(det.preconditions[0].kind) == "data");
  CHECK(precondition_name(det.preconditions.back().kind) == "mapped by");
  REQUIRE(det.creator != kNone);
  CHECK(p.str(p.operations[det.creator].name) == "TopLevelTask");
  CHECK(describe(p, d) == "step (task) on c1, node 0");
  // Search by provenance and by name.
  CHECK(search(p, "PROG.cc:13") == std::vector<uint32_t>{d});
  CHECK(search(p, "mapping") == std::vector<uint32_t>{m});
  CHECK(search(p, "no such thing").empty());
  const auto stats = kind_stats(p);
  REQUIRE(!stats.empty());
  CHECK(stats[0].name == "step");
  CHECK(stats[0].count == 4);
  CHECK(stats[0].total == 10 + 20 + 15 + 5);
  CHECK(stats[0].min == 5);
  CHECK(stats[0].max == 20);
}

// An item keeps ready - create where its kind has room for it (tasks,
// meta tasks and partitions in the item, copies and fills in their table),
// or in the overflow table when it does not fit in 32 bits.
TEST_CASE("every kind of item keeps its ready and create times", "[analysis]") {
  TempDir dir;
  const Time s = 1000000000LL;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto sys = t.memory(trace::MemKind::System, 1 << 30, "sysmem");
    const auto ch = t.channel(sys, sys, "sysmem -> sysmem");
    t.task(c0, t.task_kind("work"), 1000, 2000, 0, 900, 700);
    auto& w = t.writer();
    w.add(trace::MetaTaskRecord{trace::make_uid(0, 100), u0, w.intern("mapping"), 0, 3000, 4000,
                                2900, 2500});
    w.add(trace::DepPartRecord{trace::make_uid(0, 101), 0, c0, w.intern("by field"), 5000, 5500,
                               4800, 4700});
    w.add(trace::CopyRecord{trace::make_uid(0, 102), 0, ch, trace::CopyKind::Copy, 64, 0, 0, 6000,
                            7000, 5900, 5600});
    w.add(trace::CopyRecord{trace::make_uid(0, 103), 0, ch, trace::CopyKind::Fill, 64, 0, 0, 8000,
                            9000, 7950, 7000});
    w.add(trace::CopyRecord{trace::make_uid(0, 104), 0, ch, trace::CopyKind::Copy, 64, 0, 0, 20 * s,
                            21 * s, 19 * s, 10 * s});  // ready - create: 9 s
    t.instance(sys, 128, "b", 10000, 10400, 30000);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(p.warnings.empty());
  const auto at = [&](Time start) {
    return item_at(p, 0, static_cast<uint32_t>(p.items.size()), start);
  };
  const std::vector<std::tuple<Time, Time, Time>> expected = {
      {1000, 900, 700},   {3000, 2900, 2500}, {5000, 4800, 4700},
      {6000, 5900, 5600}, {8000, 7950, 7000}, {20 * s, 19 * s, 10 * s}};
  for (const auto& [start, ready, create] : expected) {
    INFO("the item starting at " << start);
    CHECK(p.ready_of(at(start)) == ready);
    CHECK(p.create_of(at(start)) == create);
  }
  // An instance's item spans create..destroy; its ready is in its table.
  const uint32_t inst = at(10000);
  CHECK(p.create_of(inst) == 10000);
  CHECK(p.instance_of(p.items[inst])->ready == 10400);
  CHECK(p.copy_of(p.items[at(6000)])->bytes == 64);
}

// An item keeps the low 32 bits of its duration; one of 2^32 ns (4.3 s) or
// longer keeps the rest in place of start - ready, which then goes to the
// overflow table with its create time.
TEST_CASE("items of 4.3 s and longer keep their exact times", "[analysis]") {
  TempDir dir;
  const Time s = 1000000000LL, m = 60 * s;
  const Time long_task = (Time{1} << 40) + 7;  // 18 min 20 s
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto sys = t.memory(trace::MemKind::System, 1 << 30, "sysmem");
    const auto kind = t.task_kind("work");
    t.task(c0, kind, 1000, 1000 + long_task, 0, 900, 700);
    const trace::Uid waited = t.task(c0, kind, 20 * m, 20 * m + (Time{1} << 32), 0, 20 * m - 5);
    t.wait(waited, 20 * m + 100, 20 * m + s, 20 * m + 2 * s);
    t.task(c0, kind, 21 * m, 21 * m + (Time{1} << 32) - 1);  // the longest short item
    t.meta(u0, "mapping", 5 * s, 14 * s);
    t.instance(sys, 128, "b", 2 * s, 2 * s + 400, 100 * s);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(p.warnings.empty());
  const auto at = [&](Time start) {
    return item_at(p, 0, static_cast<uint32_t>(p.items.size()), start);
  };
  const std::vector<std::tuple<Time, Time, Time, Time>> expected = {
      // start, stop, ready, create
      {1000, 1000 + long_task, 900, 700},
      {20 * m, 20 * m + (Time{1} << 32), 20 * m - 5, 20 * m - 5},
      {21 * m, 21 * m + (Time{1} << 32) - 1, 21 * m, 21 * m},
      {5 * s, 14 * s, 5 * s, 5 * s},
      {2 * s, 100 * s, 2 * s, 2 * s}};
  Time busy = 0;
  for (const auto& [start, stop, ready, create] : expected) {
    INFO("the item starting at " << start);
    const uint32_t i = at(start);
    CHECK(p.items[i].stop() == stop);
    CHECK(p.items[i].duration() == stop - start);
    CHECK(p.ready_of(i) == ready);
    CHECK(p.create_of(i) == create);
    if (p.items[i].kind == ItemKind::Task) busy += stop - start;
  }
  CHECK((p.items[at(21 * m)].flags & kItemLongSpan) == 0);
  // The long item's wait is still found, and the lane's busy time is exact.
  const auto [w, wend] = p.waits_of(at(20 * m));
  REQUIRE(wend - w == 1);
  CHECK(w->end == 20 * m + 2 * s);
  const Lane& cpu = p.lanes[p.lane_of(at(1000))];
  CHECK(p.busy_between(cpu.begin, cpu.end) == busy);
  CHECK(p.stop == 21 * m + (Time{1} << 32) - 1);
}

TEST_CASE("operations keep their kind, name and provenance, and an unknown kind stays unknown",
          "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    auto& w = t.writer();
    const trace::OpKind kinds[] = {trace::OpKind::Task, trace::OpKind::Copy, trace::OpKind::Fill,
                                   trace::OpKind::Collect, trace::OpKind{33}};
    for (uint64_t i = 0; i < std::size(kinds); ++i)
      w.add(trace::OperationRecord{trace::make_uid(0, 10 + i), 0, kinds[i], 0,
                                   w.intern("op " + std::to_string(i)),
                                   w.intern("prog.py:" + std::to_string(i))});
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(p.operations.size() == 5);
  const char* expected[] = {"task", "copy", "fill", "collect", "unknown"};
  for (size_t i = 0; i < 5; ++i) {
    const Operation& o = p.operations[i];
    CHECK(to_string(o.kind) == expected[i]);  // 33 is not cut to 5 bits (1: "task")
    CHECK(p.str(o.name) == "op " + std::to_string(i));
    CHECK(p.str(o.provenance) == "prog.py:" + std::to_string(i));
  }
}

TEST_CASE("waits longer than 4 s keep exact create and ready times", "[analysis]") {
  TempDir dir;
  const Time s = 1000000000LL;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    t.task(c0, t.task_kind("late"), 10 * s, 11 * s, 0, 5 * s, 0);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  CHECK(p.ready_of(0) == 5 * s);
  CHECK(p.create_of(0) == 0);
}
