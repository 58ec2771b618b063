// A waiting task's time per state over any window, from its StateSums,
// against its states() summed; and the state a pixel shows, against the
// time per state summed over the pixel by hand (overlapping and
// out-of-order waits included).
#include <random>

#include <catch2/catch.hpp>

#include "analysis/state_sums.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

// A top-level task of 2 ms on io0 that waits 3000 times, some waits
// overlapping the one before or ending before they became ready.
Profile waiting_task(const TempDir& dir) {
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const uint32_t io = t.processor(trace::ProcKind::Io, 0, "io0");
    const trace::Uid top = t.task(io, t.task_kind("top"), 1000, 2'001'000);
    std::mt19937_64 rng(5);
    trace::Time at = 1000;
    for (int k = 0; k < 3000; ++k) {
      at += static_cast<trace::Time>(rng() % 700);
      const trace::Time ready = at + static_cast<trace::Time>(rng() % 400);
      const trace::Time end =
          ready + static_cast<trace::Time>(rng() % 200) - (k % 17 == 0 ? 300 : 0);
      t.wait(top, at - (k % 11 == 0 ? 150 : 0), ready, end);
    }
    t.finish();
  }
  return load::load_profile({dir.file("legate_0.prof")});
}

// Time item spends in s within [a, b), from states().
Time by_states(const Profile& p, uint32_t item, State s, Time a, Time b) {
  Time sum = 0;
  for (const Segment& g : states(p, item)) {
    if (g.state == s) sum += std::max<Time>(0, std::min(b, g.stop) - std::max(a, g.start));
  }
  return sum;
}

}  // namespace

TEST_CASE("a task's time per state over any window is its states' summed", "[timeline]") {
  TempDir dir;
  const Profile p = waiting_task(dir);
  REQUIRE(p.items.size() == 1);
  const StateSums sums(p, 0);
  REQUIRE(sums.waits() == 3000);
  std::mt19937_64 rng(9);
  for (int k = 0; k < 2000; ++k) {
    const Time a = static_cast<Time>(rng() % 2'100'000), b = a + static_cast<Time>(rng() % 300'000);
    INFO("[" << a << ", " << b << ")");
    CHECK(sums.time_in(State::Blocked, a, b) == by_states(p, 0, State::Blocked, a, b));
    CHECK(sums.time_in(State::Ready, a, b) == by_states(p, 0, State::Ready, a, b));
  }
  CHECK(sums.time_in(State::Blocked, 5000, 5000) == 0);
}

TEST_CASE("a pixel shows the state the task spent most of it in", "[timeline]") {
  TempDir dir;
  const Profile p = waiting_task(dir);
  const StateSums sums(p, 0);
  // 700 pixels over a window wider than the task, then one inside it.
  for (const auto& [t0, t1] : {std::pair<double, double>{0, 2'100'000}, {400'000, 430'000}}) {
    const int n = 700;
    const double w = (t1 - t0) / n;
    std::vector<PixelRun> runs;
    pixel_states(p, 0, sums, t0, w, n, runs);
    REQUIRE(!runs.empty());
    size_t r = 0;
    for (int k = 0; k < n; ++k) {
      while (r + 1 < runs.size() && runs[r + 1].first <= k) ++r;
      const Time a = std::max<Time>(std::llround(t0 + k * w), p.items[0].start);
      const Time b = std::min<Time>(std::llround(t0 + (k + 1) * w), p.items[0].stop());
      INFO("pixel " << k);
      if (b <= a) {
        CHECK(runs[r].empty);
        continue;
      }
      const Time blocked = by_states(p, 0, State::Blocked, a, b);
      const Time ready = by_states(p, 0, State::Ready, a, b), running = b - a - blocked - ready;
      const State want = blocked >= ready && blocked >= running ? State::Blocked
                         : ready >= running                     ? State::Ready
                                                                : State::Running;
      CHECK_FALSE(runs[r].empty);
      CHECK(runs[r].state == want);
    }
  }
}
