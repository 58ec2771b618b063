// A lane's busy time when its items overlap (rows) and wait: the rows'
// periods merged, checked against a count of busy nanoseconds.
#include <algorithm>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/stats.hpp"
#include "analysis/utilization.hpp"
#include "analysis/utilization_line.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

TEST_CASE("overlapping items and their waits count each busy nanosecond once", "[analysis]") {
  constexpr Time kSpan = 20000;
  TempDir dir;
  // Per processor: which nanoseconds of [0, kSpan) something ran in.
  std::vector<std::vector<bool>> busy(2, std::vector<bool>(kSpan, false));
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const uint32_t procs[] = {t.processor(trace::ProcKind::Cpu, 0, "c0"),
                              t.processor(trace::ProcKind::Cpu, 1, "c1")};
    const auto kind = t.task_kind("work");
    std::mt19937 rng(7);
    // Times on a coarse grid, so that many items start where others stop.
    const auto at = [&](Time lo, Time hi) {
      return lo + 10 * std::uniform_int_distribution<Time>(0, (hi - lo) / 10)(rng);
    };
    for (int k = 0; k < 3000; ++k) {
      const size_t proc = k % 2;
      const Time start = at(0, kSpan - 500), stop = at(start + 10, start + 500);
      const auto uid = t.task(procs[proc], kind, start, stop);
      std::vector<bool> waiting(static_cast<size_t>(stop - start), false);
      for (int w = std::uniform_int_distribution<int>(0, 2)(rng); w > 0; --w) {
        // Waits may overlap one another and reach past the task's end.
        const Time from = at(start, stop), to = at(from, from + 200);
        t.wait(uid, from, from, to);
        for (Time x = from; x < std::min(to, stop); ++x)
          waiting[static_cast<size_t>(x - start)] = true;
      }
      for (Time x = start; x < stop; ++x) {
        if (!waiting[static_cast<size_t>(x - start)]) busy[proc][static_cast<size_t>(x)] = true;
      }
    }
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const auto busy_in = [&](size_t proc, Time from, Time to) {
    return std::count(busy[proc].begin() + from, busy[proc].begin() + to, true);
  };
  for (size_t proc = 0; proc < 2; ++proc) {
    const Lane* lane = nullptr;
    for (const Lane& l : p.lanes) {
      if (l.name == "c" + std::to_string(proc)) lane = &l;
    }
    REQUIRE(lane != nullptr);
    CHECK(lane->rows.size() > 4);  // the items overlap
    CHECK(busy_time(p, *lane) == busy_in(proc, 0, kSpan));
  }
  // Both lanes together, over windows that cut periods.
  const UtilizationCurve cpu = utilization(p, LaneKind::Cpu, 0);
  for (const auto& [from, to] : {std::pair<Time, Time>{0, kSpan}, {1234, 5678}, {9995, 10005}}) {
    const double expected =
        static_cast<double>(busy_in(0, from, to) + busy_in(1, from, to)) / 2.0 / (to - from);
    CHECK(cpu.average(from, to) == Approx(expected));
  }
}

namespace {

// One rank's file of `tasks` tasks of up to max_d ns at random times over
// [0, span) on two CPUs, so they overlap (several rows); some with waits;
// an instance in sysmem (1 MiB) for every fifth, a copy for every fourth.
void write_busy_rank(const std::string& path, uint32_t rank, uint32_t ranks, int tasks, Time span,
                     Time max_d, std::mt19937_64& rng) {
  SyntheticTrace t(path, rank, ranks);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const auto mem = t.memory(trace::MemKind::System, 1 << 20, "sysmem");
  const auto ch = t.channel(mem, mem, "sysmem to sysmem");
  const auto k = t.task_kind("work");
  for (int i = 0; i < tasks; ++i) {
    const Time a = static_cast<Time>(rng() % static_cast<uint64_t>(span));
    const Time d = 1 + static_cast<Time>(rng() % static_cast<uint64_t>(max_d));
    const auto task = t.task(i % 3 ? c0 : c1, k, a, a + d);
    if (i % 7 == 0 && d > 10) t.wait(task, a + d / 4, a + d / 2, a + d / 2 + d / 8);
    if (i % 5 == 0) t.instance(mem, 1 + rng() % 4096, "x", a, a + d / 3, a + 3 * d);
    if (i % 4 == 0) t.copy(ch, 64, a, a + d / 2);
  }
  t.finish();
}

}  // namespace

TEST_CASE("the utilization summary bins items exactly as the curves integrate them",
          "[analysis][utilization]") {
  TempDir dir;
  std::mt19937_64 rng(23);
  for (uint32_t rank = 0; rank < 2; ++rank)
    write_busy_rank(dir.file("legate_" + std::to_string(rank) + ".prof"), rank, 2, 3000, 2'000'000,
                    9000, rng);
  const Profile p = load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  REQUIRE(p.nodes.size() == 2);
  const auto summary = utilization_summary(p);
  REQUIRE(summary.size() == 2 * 3 + 3);  // CPU, System Memory, Channel per node and over both
  const auto edge = [&](int k) { return p.start + (p.stop - p.start) * k / 100; };
  for (const auto& u : summary) {
    INFO(to_string(u.kind) << " on " << (u.rank == kAllNodes ? "all nodes" : "one node"));
    const UtilizationCurve c = utilization(p, u.kind, u.rank);
    CHECK(u.known == c.known());
    CHECK(u.average == Approx(c.average(p.start, p.stop)).epsilon(1e-9));
    double peak = 0;
    for (int s = 0; s < 100; ++s) peak = std::max(peak, c.average(edge(s), edge(s + 1)));
    CHECK(u.peak == Approx(peak).epsilon(1e-9));
    CHECK(u.peak > 0);
  }
}

TEST_CASE("an avg line reads its grid where wide and the items where fine, as the curve does",
          "[analysis][utilization]") {
  TempDir dir;
  std::mt19937_64 rng(29);
  write_busy_rank(dir.file("legate_0.prof"), 0, 1, 20000, 5'000'000, 3000, rng);
  const Profile p = load::load_profile({dir.file("legate_0.prof")});
  for (const LaneKind kind : {LaneKind::Cpu, LaneKind::SystemMemory}) {
    INFO(to_string(kind));
    const UtilizationCurve curve = utilization(p, kind);
    const UtilizationLine line(p, kind, kAllNodes);
    REQUIRE(line.known());
    // About one cell per four items, a double per cell edge.
    REQUIRE(line.cells() > 500);
    CHECK(line.memory_bytes() < 2 * sizeof(double) * line.cells() + 256);
    const double cell = static_cast<double>(p.stop - p.start) / static_cast<double>(line.cells());
    for (int trial = 0; trial < 300; ++trial) {
      const Time t0 = p.start + static_cast<Time>(rng() % static_cast<uint64_t>(p.stop - p.start));
      const Time t1 = t0 + 1 + static_cast<Time>(rng() % (trial % 2 ? 100 : 2'000'000));
      INFO(t0 << ".." << t1 << ", cells of " << cell << " ns");
      const double want = curve.average(t0, t1);
      if (static_cast<double>(t1 - t0) < 8 * cell) {
        CHECK(line.average(t0, t1) == Approx(want).margin(1e-12));  // from the items: exact
      } else {
        // Read from the grid: off by at most one cell's worth at each end.
        CHECK(std::abs(line.average(t0, t1) - want) <= 2 * cell / static_cast<double>(t1 - t0));
      }
      // Samples: finer than a cell exact, else within a cell's worth per edge.
      const int n = 50;
      const auto got = line.sample(t0, t1, n), exact = curve.sample(t0, t1, n);
      const double width = static_cast<double>(t1 - t0) / n;
      for (int s = 0; s < n; ++s) {
        if (width < cell) {
          CHECK(got[s] == Approx(exact[s]).margin(1e-5));
        } else {
          CHECK(std::abs(got[s] - curve.average(t0 + static_cast<Time>(width * s),
                                                t0 + static_cast<Time>(width * (s + 1)))) <=
                2 * cell / width + 2 / width + 1e-5);
        }
      }
    }
  }
}
