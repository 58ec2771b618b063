// Tick -> nanosecond conversion against CLOCK_MONOTONIC.
#include <catch2/catch.hpp>
#include <cmath>

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
  int64_t worst = 0;
  uint64_t seen = 0, tight = 0;
  auto reader = for_each_frame(path, [&](const trace::Frame& f) {
    for (const auto& t : f.records.get<trace::TaskRecord>()) {
      ++seen;
      // A reading the scheduler interrupted says nothing about the conversion.
      if (t.stop - t.start > 200) continue;
      ++tight;
      const int64_t expected = static_cast<int64_t>(t.uid) - zero;
      worst = std::max<int64_t>(worst, std::llabs((t.start + t.stop) / 2 - expected));
    }
  });
  INFO(seen << " readings, " << tight << " tight ones, clock source "
            << meta.metadata["clock"]["source"]);
  CHECK(seen == n);
  CHECK(tight > seen / 2);
  CHECK(worst <= 1000);
  CHECK(x != 0);
}
