// Many threads recording at once: nothing lost, nothing duplicated, each
// thread's records in order with non-decreasing times.
#include <catch2/catch.hpp>
#include <thread>

#include "recorder/recorder_test_util.hpp"

using namespace legato;
using namespace legato::rec::testing;
using trace::testing::TempDir;

TEST_CASE("8 threads x 1M records: every record once, in order per thread", "[recorder][threads]") {
  constexpr int kThreads = 8;
  constexpr uint64_t kPerThread = 1'000'000;
  TempDir dir;
  rec::start(options_in(dir));
  std::vector<uint32_t> lanes;
  for (int t = 0; t < kThreads; ++t) {
    lanes.push_back(rec::add_processor(trace::ProcKind::Cpu, static_cast<uint32_t>(t),
                                       "c" + std::to_string(t)));
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < kPerThread; ++i) {
        const auto start = rec::stamp(rec::now());
        // uid: thread in the high bits, sequence in the low bits.
        rec::record(trace::TaskRecord{(static_cast<uint64_t>(t) << 32) | i, 0,
                                      lanes[static_cast<size_t>(t)], 1, 1, start,
                                      rec::stamp(rec::now()), start, start});
      }
    });
  }
  for (auto& th : threads) th.join();
  const std::string path = rec::trace_path();
  const rec::Stats stats = rec::stats();
  rec::finish();
  CHECK(stats.dropped == 0);

  std::vector<uint64_t> next(kThreads, 0);
  std::vector<trace::Time> last(kThreads, std::numeric_limits<trace::Time>::min());
  uint64_t bad_order = 0, bad_time = 0, bad_lane = 0;
  trace::Time worst_step = 0;
  auto reader = for_each_frame(path, [&](const trace::Frame& f) {
    for (const trace::TaskRecord& r : f.records.get<trace::TaskRecord>()) {
      const auto t = static_cast<size_t>(r.uid >> 32);
      const uint64_t i = r.uid & 0xffffffffu;
      if (t >= kThreads || r.processor != lanes[t]) {
        ++bad_lane;
        continue;
      }
      bad_order += i != next[t];
      next[t] = i + 1;
      if (r.start < last[t] || r.stop < r.start) {
        ++bad_time;
        worst_step = std::max(worst_step, std::max(last[t] - r.start, r.start - r.stop));
      }
      last[t] = r.stop;
    }
  });
  CHECK(reader->finished_cleanly());
  CHECK(reader->diagnostics().empty());
  CHECK(bad_lane == 0);
  CHECK(bad_order == 0);
  INFO("largest step back: " << worst_step << " ns");
  CHECK(bad_time == 0);
  for (int t = 0; t < kThreads; ++t) CHECK(next[static_cast<size_t>(t)] == kPerThread);
}

TEST_CASE("threads that exit hand over everything they recorded", "[recorder][threads]") {
  TempDir dir;
  rec::start(options_in(dir));
  for (int round = 0; round < 20; ++round) {
    std::thread([round] {
      for (int i = 0; i < 1000; ++i)
        rec::record(trace::EdgeRecord{static_cast<trace::Uid>(round * 1000 + i + 1), 1,
                                      trace::EdgeKind::Data});
    }).join();
  }
  const std::string path = rec::trace_path();
  rec::finish();
  trace::testing::Loaded l = trace::testing::load_file(path);
  REQUIRE(l.records.get<trace::EdgeRecord>().size() == 20000);
  std::vector<trace::Uid> items;
  for (const auto& e : l.records.get<trace::EdgeRecord>()) items.push_back(e.item);
  std::sort(items.begin(), items.end());
  CHECK(std::adjacent_find(items.begin(), items.end()) == items.end());
  CHECK(items.front() == 1);
  CHECK(items.back() == 20000);
}
