// Producers that outrun the flusher: lossless mode waits (and records how
// long), drop mode counts what it drops; a disk that fills up stops the
// recording with a warning while the program goes on.
#include <sys/resource.h>
#include <catch2/catch.hpp>
#include <csignal>
#include <thread>

#include "analysis/units.hpp"
#include "recorder/recorder_test_util.hpp"
#include "tools/run_command.hpp"

using namespace legato;
using namespace legato::rec::testing;
using trace::testing::TempDir;

namespace {

// 4 threads recording as fast as they can into a tiny buffer pool.
rec::Stats flood(const rec::RecorderOptions& o, uint64_t per_thread) {
  rec::start(o);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([=] {
      for (uint64_t i = 0; i < per_thread; ++i) {
        rec::record(trace::EdgeRecord{(static_cast<uint64_t>(t) << 40) | (i + 1), 1,
                                      trace::EdgeKind::Data});
      }
    });
  }
  for (auto& th : threads) th.join();
  rec::finish();
  // stats() needs a running recorder: read them back from the trace.
  rec::Stats s;
  trace::testing::Loaded l = trace::testing::load_file(o.trace_path());
  const auto& st = l.records.get<trace::RecorderStatsRecord>();
  REQUIRE_FALSE(st.empty());
  s.dropped = st.back().dropped;
  s.wait_ns = st.back().wait_ns;
  s.records = l.records.get<trace::EdgeRecord>().size();
  return s;
}

}  // namespace

TEST_CASE("lossless mode: producers wait for buffers, nothing is lost", "[recorder][pressure]") {
  TempDir dir;
  rec::RecorderOptions o = options_in(dir);
  o.buffer_bytes = 4096;
  o.max_buffers = 4;
  const rec::Stats s = flood(o, 200'000);
  CHECK(s.records == 800'000);
  CHECK(s.dropped == 0);
  CHECK(s.wait_ns > 0);
  // The waits are on the timeline as ranges.
  trace::testing::Loaded l = trace::testing::load_file(o.trace_path());
  CHECK_FALSE(l.records.get<trace::UserRangeRecord>().empty());
}

TEST_CASE("drop mode: counts what it drops, and legate_prof info shows it",
          "[recorder][pressure]") {
  TempDir dir;
  rec::RecorderOptions o = options_in(dir);
  o.buffer_bytes = 4096;
  o.max_buffers = 2;
  o.drop_when_full = true;
  const rec::Stats s = flood(o, 200'000);
  CHECK(s.dropped > 0);
  CHECK(s.records + s.dropped == 800'000);
  CHECK(s.wait_ns == 0);
  const auto info = testing::run_command(testing::bin("legate_prof") + " info " + o.trace_path());
  CHECK(info.status == 0);
  CHECK(info.out.find(analysis::grouped(s.dropped) + " dropped") != std::string::npos);
}

TEST_CASE("a disk that fills up mid-run: a warning, a valid file, a program that goes on",
          "[recorder][pressure]") {
  TempDir dir;
  const ChildResult child = run_child([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{200'000, 200'000};  // the "disk" holds 200 kB
    setrlimit(RLIMIT_FSIZE, &limit);
    rec::RecorderOptions o = options_in(dir);
    rec::start(o);
    uint64_t x = 1;
    for (uint64_t i = 0; i < 2'000'000; ++i) {
      const auto t = rec::stamp(rec::now());
      x = busy_work(x + i);
      rec::record(trace::TaskRecord{i, x, 1, 1, 1, t, rec::stamp(rec::now()), t, t});
    }
    rec::finish();
    std::_Exit(x == 0 ? 2 : 0);  // the program ran to the end
  });
  CHECK(child.exit_code == 0);
  const auto info =
      testing::run_command(testing::bin("legate_prof") + " info " + dir.file("legate_0.prof"));
  // The frame that did not fit was dropped, and the rest of the file (a
  // warning where recording stopped, the footer) fits where it was.
  CHECK(info.status == 0);
  CHECK(info.out.find("finished cleanly") != std::string::npos);
  const trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  CHECK(l.clean);
  CHECK(l.metadata["recording"]["reason"].get<std::string>().find("File too large") !=
        std::string::npos);
}
