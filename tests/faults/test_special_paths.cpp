// A trace path that holds something other than a file: a FIFO (whose open
// would wait for a reader forever), a socket, a device, a directory. The
// writer and the recorder refuse it at once, saying what it is, and leave it
// as it was; a run then goes on unrecorded (test_fault_runs).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "recorder/recorder_test_util.hpp"
#include "trace_format/writer.hpp"

using namespace legato;
using trace::testing::TempDir;

TEST_CASE("the recorder refuses a FIFO, a device or a directory at its trace path",
          "[fault][special]") {
  TempDir dir;
  rec::RecorderOptions o = rec::testing::options_in(dir);
  const std::string path = o.trace_path();
  for (const char* what : {"fifo", "directory", "device"}) {
    INFO(what);
    std::filesystem::remove_all(path);
    if (std::string(what) == "fifo") REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    if (std::string(what) == "directory") std::filesystem::create_directories(path);
    if (std::string(what) == "device") std::filesystem::create_symlink("/dev/null", path);
    // In a child that SIGALRM ends after a minute, should the open block
    // (a guard only: the refusal takes no time at all).
    const auto r = rec::testing::run_child([&] {
      ::alarm(60);
      try {
        rec::start(o);
        std::_Exit(3);
      } catch (const rec::RecorderError& e) {
        const bool named = std::string(e.what()).find(path) != std::string::npos &&
                           std::string(e.what()).find("not a regular file") != std::string::npos;
        std::_Exit(e.cause() == rec::RecorderError::Cause::NotAFile && named ? 0 : 4);
      }
    });
    CHECK(r.exited);
    CHECK(r.exit_code == 0);
    const auto type = std::filesystem::symlink_status(path).type();
    CHECK(type == (std::string(what) == "fifo"        ? std::filesystem::file_type::fifo
                   : std::string(what) == "directory" ? std::filesystem::file_type::directory
                                                      : std::filesystem::file_type::symlink));
  }
}

TEST_CASE("the trace writer refuses what is not a regular file, unopened", "[fault][special]") {
  TempDir dir;
  const std::string fifo = dir.file("legate_0.prof");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // No reader: an open for writing would block. The refusal comes first.
  const auto child = rec::testing::run_child([&] {
    ::alarm(60);
    try {
      trace::TraceWriter w(fifo);
      std::_Exit(3);
    } catch (const trace::TraceError& e) {
      std::_Exit(e.not_a_file() ? 0 : 4);
    }
  });
  CHECK(child.exit_code == 0);
  try {
    trace::TraceWriter w("/dev/null");
    FAIL("a trace was written to /dev/null");
  } catch (const trace::TraceError& e) {
    CHECK(e.not_a_file());
    CHECK_THAT(e.what(), Catch::Contains("cannot create trace file '/dev/null': Is a character "
                                         "device, not a regular file"));
  }
  struct stat st {};
  REQUIRE(::lstat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}
