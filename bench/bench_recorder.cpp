// Recorder benchmark: the cost of recording an event (the begin or the end of
// an interval: a clock reading, plus the record at the end), on one and two
// threads, against OTF2 and Chrome-trace JSON writing the same stream in the
// same run. Prints `RESULT <metric> <value> <unit>` lines; targets and last
// figures in bench/README.md.
//
//   bench_recorder [INTERVALS_PER_RUN [RUNS]]
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "event_sinks.hpp"
#include "recorder/recorder.hpp"
#include "result.hpp"

using namespace legato;
using Clock = std::chrono::steady_clock;

namespace {

using legato::bench::result;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// One thread recording `intervals` ranges; returns seconds.
double legato_run(uint64_t intervals, uint32_t lane, uint32_t name) {
  const auto t0 = Clock::now();
  for (uint64_t i = 0; i < intervals; ++i) {
    const rec::Tick begin = rec::now();
    const rec::Tick end = rec::now();
    rec::record(trace::UserRangeRecord{lane, name, 0, rec::stamp(begin), rec::stamp(end)});
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The clock alone, read as often as the runs read it.
double clock_run(uint64_t intervals) {
  uint64_t sink = 0;
  const auto t0 = Clock::now();
  for (uint64_t i = 0; i < intervals; ++i) sink += rec::now().count + rec::now().count;
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return sink == 42 ? 0 : s;
}

// Lets the flusher write what the last run recorded, so the next run
// measures recording, not waiting for buffers.
void let_flusher_catch_up(uint64_t recorded) {
  while (rec::stats().records < recorded) usleep(2000);
}

}  // namespace

int main(int argc, char** argv) {
  const legato::bench::CountArgs args(
      argc, argv, "bench_recorder [INTERVALS] [RUNS]",
      "Recorder cost per interval against OTF2 and JSON (INTERVALS per run, default 100000; RUNS, "
      "default 31).");
  const uint64_t n = args.get(1, 100'000);
  const int runs = static_cast<int>(args.get(2, 31));
  const auto dir = std::filesystem::temp_directory_path() /
                   ("legato_bench_recorder_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);

  rec::RecorderOptions o;
  o.logdir = dir.string();
  o.name = "bench";
  rec::start(o);
  const uint32_t name = rec::intern("work");
  const uint32_t lanes[2] = {rec::add_processor(trace::ProcKind::Cpu, 0, "c0"),
                             rec::add_processor(trace::ProcKind::Cpu, 1, "c1")};
  auto json = bench::make_json_sink((dir / "trace.json").string());
  auto otf2 = bench::make_otf2_sink((dir / "otf2").string());

  std::vector<double> legato_1t, legato_2t, clock, otf2_ns, json_ns;
  uint64_t recorded = 0;
  legato_run(n, lanes[0], name);  // warm up: buffers allocated, caches warm
  recorded += n;
  for (int r = 0; r < runs; ++r) {
    let_flusher_catch_up(recorded);
    legato_1t.push_back(legato_run(n, lanes[0], name) * 1e9 / (2.0 * static_cast<double>(n)));
    recorded += n;
    let_flusher_catch_up(recorded);
    std::vector<double> per_thread(2);
    std::barrier sync(2);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        sync.arrive_and_wait();
        per_thread[static_cast<size_t>(t)] =
            legato_run(n, lanes[t], name) * 1e9 / (2.0 * static_cast<double>(n));
      });
    }
    for (auto& th : threads) th.join();
    legato_2t.push_back((per_thread[0] + per_thread[1]) / 2);
    recorded += 2 * n;
    clock.push_back(clock_run(n) * 1e9 / (2.0 * static_cast<double>(n)));
    json_ns.push_back(json->run(n) * 1e9 / (2.0 * static_cast<double>(n)));
    if (otf2) otf2_ns.push_back(otf2->run(n) * 1e9 / (2.0 * static_cast<double>(n)));
  }
  const std::string path = rec::trace_path();
  rec::finish();
  const double events = 2.0 * static_cast<double>(recorded);
  const double legato_bytes = static_cast<double>(std::filesystem::file_size(path));
  const double json_bytes = static_cast<double>(json->close());

  std::printf("%llu intervals per run, %d runs, clock source %s\n",
              static_cast<unsigned long long>(n), runs, rec::to_string(rec::detail::g_tick_source));
  result("ns_per_event_1t", median(legato_1t), "ns");
  result("ns_per_event_2t", median(legato_2t), "ns");
  result("clock_read_ns", median(clock), "ns");
  result("legato_overhead_over_clock_ns", median(legato_1t) - median(clock), "ns");
  result("json_over_legato", median(json_ns) / median(legato_1t), "x");
  if (otf2) {
    const double otf2_bytes = static_cast<double>(otf2->close());
    result("otf2_over_legato", median(otf2_ns) / median(legato_1t), "x");
    result("otf2_ns_per_event", median(otf2_ns), "ns");
    result("otf2_overhead_over_clock_ns", median(otf2_ns) - median(clock), "ns");
    result("otf2_bytes_per_event", otf2_bytes / (2.0 * static_cast<double>(n) * runs), "B");
  } else {
    std::printf(
        "OTF2 not available (install libopen-trace-format2-dev and rebuild): no OTF2 figures\n");
  }
  result("json_ns_per_event", median(json_ns), "ns");
  result("bytes_per_event", legato_bytes / events, "B");
  result("json_bytes_per_event", json_bytes / (2.0 * static_cast<double>(n) * runs), "B");
  std::filesystem::remove_all(dir);
  return 0;
}
