// Two runs writing one trace file: the second is refused with the first one
// named, whatever the timing; runs that do not overlap replace each other's
// files as before.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "recorder/recorder_test_util.hpp"

using namespace legato;
using trace::testing::load_file;
using trace::testing::TempDir;

namespace {

nlohmann::json run_metadata(const std::string& id) {
  return {{"run",
           {{"id", id},
            {"rank", 0},
            {"ranks", 1},
            {"host", "h"},
            {"pid", 4242},
            {"program", "/bin/first"},
            {"args", nlohmann::json::array()},
            {"start_unix_ns", 1}}}};
}

}  // namespace

TEST_CASE("a trace being written is not replaced by a second writer", "[fault][lock]") {
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  const nlohmann::json first = run_metadata("0123456789abcdef0123456789abcdef");
  trace::TraceWriter a(path, {}, &first);
  a.add(trace::TaskRecord{1, 1, 1, 1, 1, 10, 20, 10, 10});
  a.flush();
  try {
    trace::TraceWriter b(path);
    FAIL("a second writer replaced a live trace");
  } catch (const trace::TraceError& e) {
    CHECK(e.code() == EBUSY);
    CHECK_THAT(e.what(), Catch::Contains("another run is still writing the trace file '" + path) &&
                             Catch::Contains("0123456789abcdef0123456789abcdef of /bin/first") &&
                             Catch::Contains("pid 4242"));
  }
  a.add(trace::TaskRecord{2, 1, 1, 1, 1, 30, 40, 30, 30});
  a.finish();
  const trace::testing::Loaded l = load_file(path);
  CHECK(l.clean);
  CHECK(l.records.get<trace::TaskRecord>().size() == 2);
  CHECK(l.metadata["run"]["pid"] == 4242);
  // Once it is finished, a later run replaces it.
  {
    trace::TraceWriter c(path);
    c.add(trace::TaskRecord{9, 1, 1, 1, 1, 1, 2, 1, 1});
  }
  CHECK(load_file(path).records.get<trace::TaskRecord>().size() == 1);
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("runs starting together in one log directory: exactly one writes the trace",
          "[fault][lock]") {
  constexpr int kTrials = 20, kRuns = 4;
  for (int trial = 0; trial < kTrials; ++trial) {
    TempDir dir;
    int go[2], results[2], done[2];
    REQUIRE(::pipe(go) == 0);
    REQUIRE(::pipe(results) == 0);
    REQUIRE(::pipe(done) == 0);
    std::vector<pid_t> pids;
    for (int k = 0; k < kRuns; ++k) {
      std::fflush(nullptr);
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::close(go[1]);
        ::close(results[0]);
        ::close(done[1]);
        char c;
        [[maybe_unused]] ssize_t n = ::read(go[0], &c, 1);  // all start at once
        char outcome = 'W';
        try {
          rec::start(rec::testing::options_in(dir));
        } catch (const rec::RecorderError& e) {
          outcome = e.cause() == rec::RecorderError::Cause::Busy ? 'B' : 'E';
        }
        n = ::write(results[1], &outcome, 1);
        n = ::read(done[0], &c, 1);  // every run has tried before any finishes
        if (outcome == 'W') {
          const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
          for (uint64_t i = 0; i < 1000; ++i)
            rec::record(trace::TaskRecord{i, 1, cpu, 1, 1, 0, 1, 0, 0});
          rec::finish();
        }
        std::_Exit(outcome == 'W' ? 0 : outcome == 'B' ? 3 : 4);
      }
      pids.push_back(pid);
    }
    ::close(go[0]);
    ::close(results[1]);
    ::close(done[0]);
    ::close(go[1]);  // go
    std::string outcomes;
    char c;
    while (outcomes.size() < kRuns && ::read(results[0], &c, 1) == 1) outcomes += c;
    ::close(done[1]);
    ::close(results[0]);
    int winners = 0, busy = 0;
    pid_t winner = 0;
    for (pid_t pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      REQUIRE(WIFEXITED(status));
      if (WEXITSTATUS(status) == 0) {
        ++winners;
        winner = pid;
      }
      busy += WEXITSTATUS(status) == 3;
    }
    INFO("trial " << trial << ": outcomes " << outcomes);
    REQUIRE(winners == 1);
    CHECK(busy == kRuns - 1);
    const trace::testing::Loaded l = load_file(dir.file("legate_0.prof"));
    CHECK(l.clean);
    CHECK(l.metadata["run"]["pid"] == winner);
    CHECK(l.records.get<trace::TaskRecord>().size() == 1000);
  }
}
