// A writer that cannot create or write its file says so, and leaves on disk
// a valid prefix of every frame written before the failure.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>

#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

TEST_CASE("a trace in a missing directory is refused with the path and the fix", "[writer]") {
  TempDir dir;
  const std::string path = dir.file("no/such/dir/legate_0.prof");
  CHECK_THROWS_WITH(TraceWriter(path), Catch::Contains("cannot create trace file '" + path +
                                                       "': No such file or directory; check that "
                                                       "the directory exists and is writable"));
}

// A disk full at the first write is tests/faults/test_full_disk.cpp's (a small
// tmpfs); a device such as /dev/full is not a file and is never opened.
TEST_CASE("a device is refused with what it is, before any write", "[writer]") {
  CHECK_THROWS_WITH(TraceWriter("/dev/full"),
                    Catch::Contains("cannot create trace file '/dev/full': Is a character device, "
                                    "not a regular file"));
}

TEST_CASE("running out of space mid-run drops only the frame being written", "[writer]") {
  TempDir dir;
  const std::string path = dir.file("full.prof");
  // RLIMIT_FSIZE stands in for a disk that fills up: writes past it fail with EFBIG.
  rlimit saved{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &saved) == 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 20000;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  uint64_t flushed_tasks = 0;
  std::string error;
  {
    TraceWriter w(path, WriterOptions{.zstd_level = 1, .chunk_bytes = 1 << 30, .compress = false});
    try {
      for (int frame = 0; frame < 100; ++frame) {
        for (int i = 0; i < 50; ++i) {
          w.add(TaskRecord{make_uid(0, static_cast<uint64_t>(frame * 50 + i + 1)), 1, 1, 1, 1,
                           i * 1000, i * 1000 + 500, i * 1000, i * 1000});
        }
        w.flush();
        flushed_tasks += 50;
      }
    } catch (const TraceError& e) {
      error = e.what();
    }
    // Out of space, the writer can still try to finish the file (the
    // footer may fit where the frame did not); here not one byte more fits.
    CHECK_FALSE(w.failed());
    small.rlim_cur = w.bytes_written();
    REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
    CHECK_THROWS_AS(w.finish(), TraceError);
    CHECK(w.failed());
    w.add(TaskRecord{});  // ignored once failed: no throw
  }
  REQUIRE(setrlimit(RLIMIT_FSIZE, &saved) == 0);
  std::signal(SIGXFSZ, old_handler);
  CHECK(error.find("error writing trace file '" + path + "'") != std::string::npos);
  CHECK(error.find("File too large") != std::string::npos);
  CHECK(flushed_tasks > 0);
  Loaded l = load_file(path);
  CHECK_FALSE(l.clean);
  CHECK(l.records.get<TaskRecord>().size() == flushed_tasks);
  REQUIRE(l.diagnostics.size() == 1);
  CHECK(l.diagnostics[0].message.find("no footer") != std::string::npos);
}

namespace {
bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
}  // namespace

TEST_CASE("a link planted at the trace's path is replaced, its target never written",
          "[writer][security]") {
  TempDir dir;
  const std::string victim = dir.file("victim.txt");
  write_bytes(victim, {'k', 'e', 'e', 'p'});
  const std::string path = dir.file("legate_0.prof");
  REQUIRE(::symlink(victim.c_str(), path.c_str()) == 0);
  {
    TraceWriter w(path);
    w.finish();
  }
  CHECK(read_bytes(victim) == std::vector<uint8_t>{'k', 'e', 'e', 'p'});
  CHECK(is_regular_file(path));
  CHECK(read_bytes(path).size() > 8);  // a trace: header, frames, trailer
  // Nothing is left beside it.
  using It = std::filesystem::directory_iterator;
  CHECK(std::distance(It(dir.path()), It()) == 2);
}

TEST_CASE("an earlier run's trace is replaced, and a device is refused unopened", "[writer]") {
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  write_bytes(path, std::vector<uint8_t>(100000, 'x'));
  {
    TraceWriter w(path);
    w.finish();
  }
  CHECK(read_bytes(path).size() < 100000);
  CHECK(read_bytes(path)[0] == 'L');
  CHECK_THROWS_WITH(TraceWriter("/dev/null"),
                    Catch::Contains("Is a character device, not a regular file"));
  struct stat st {};
  REQUIRE(::lstat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}
