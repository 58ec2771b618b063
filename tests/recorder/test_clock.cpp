// Tick -> nanosecond conversion against CLOCK_MONOTONIC.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "recorder/recorder_test_util.hpp"

using namespace legato;
using namespace legato::rec::testing;
using trace::testing::TempDir;

TEST_CASE("the monotonic tick source converts exactly", "[clock]") {
  rec::TickConverter c(rec::TickSource::Monotonic, 500);
  const int64_t zero = c.zero_monotonic_ns();
  CHECK(c.to_ns(rec::Tick{static_cast<uint64_t>(zero)}) == 500);
  CHECK(c.to_ns(rec::Tick{static_cast<uint64_t>(zero + 123456789)}) == 123456789 + 500);
  c.calibrate();
  CHECK(c.to_ns(rec::Tick{static_cast<uint64_t>(zero + 42)}) == 42 + 500);
}

TEST_CASE("recorded times agree with CLOCK_MONOTONIC within 1 us over a 10 s run", "[clock]") {
  TempDir dir;
  rec::start(options_in(dir));
  const std::string path = rec::trace_path();
  // Each record carries a CLOCK_MONOTONIC reading (in its uid field) between
  // two tick readings (its start and stop).
  const int64_t end = rec::detail::monotonic_ns() + 10'000'000'000;
  uint64_t x = 1, n = 0;
  for (int64_t mono = 0; mono < end; ++n) {
    const rec::Tick before = rec::now();
    mono = rec::detail::monotonic_ns();
    const rec::Tick after = rec::now();
    rec::record(trace::TaskRecord{static_cast<uint64_t>(mono), 0, 1, 1, 1, rec::stamp(before),
                                  rec::stamp(after), rec::stamp(before), rec::stamp(before)});
    for (int i = 0; i < 200; ++i) x = busy_work(x);  // real work between readings
  }
  rec::finish();
  trace::testing::Loaded meta = trace::testing::load_file(path);
  const int64_t zero = meta.metadata["clock"]["zero_monotonic_ns"].get<int64_t>();
  std::vector<trace::TaskRecord> readings;
  auto reader = for_each_frame(path, [&](const trace::Frame& f) {
    for (const auto& t : f.records.get<trace::TaskRecord>()) readings.push_back(t);
  });
  // Each CLOCK_MONOTONIC reading lies between its two tick readings, so the
  // conversion's error is how far the reading lies from their midpoint
  // beyond half their span. A reading the scheduler interrupted (or one on
  // a slow machine) has a wide span and says little: the readings judged
  // are the closer half, and any reading within 200 ns, however many.
  std::vector<int64_t> spans;
  for (const auto& t : readings) spans.push_back(t.stop - t.start);
  REQUIRE(!spans.empty());
  std::nth_element(spans.begin(), spans.begin() + spans.size() / 2, spans.end());
  const int64_t tight_span = std::max<int64_t>(200, spans[spans.size() / 2]);
  int64_t worst = 0;
  uint64_t tight = 0;
  for (const auto& t : readings) {
    if (t.stop - t.start > tight_span) continue;
    ++tight;
    const int64_t expected = static_cast<int64_t>(t.uid) - zero;
    const int64_t off = std::llabs((t.start + t.stop) / 2 - expected) - (t.stop - t.start) / 2;
    worst = std::max<int64_t>(worst, off);
  }
  INFO(readings.size() << " readings, " << tight << " within " << tight_span << " ns, clock source "
                       << meta.metadata["clock"]["source"]);
  CHECK(readings.size() == n);
  CHECK(worst <= 1000);
  CHECK(x != 0);
}
