// The faults of the `fault` label as a user meets them: `legate --profile`
// runs of a seed workload on a full disk, two at once in one directory, with
// GPU memory flags and no GPU, in paths that are not UTF-8, and stopped by a
// signal.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "faults/small_disk.hpp"
#include "tools/run_command.hpp"
#include "trace_format/metadata.hpp"

using namespace legato;
using legato::testing::bin;
using legato::testing::run_command;
using legato::testing::SmallDisk;
using trace::testing::load_file;
using trace::testing::TempDir;

namespace {

std::string profiled(const std::string& logdir, const std::string& program = "chunked_update") {
  return bin("legate") + " --cpus 1 --profile --logdir '" + logdir + "' " + bin(program);
}

}  // namespace

TEST_CASE("a run on a full disk runs to its end unrecorded", "[fault][disk]") {
  SmallDisk disk(1 << 20);
  LEGATO_SKIP_WITHOUT(disk);
  disk.fill();
  const auto r = run_command(profiled(disk.path()));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("checksum"));
  CHECK_THAT(r.err, Catch::Contains("profiling is off for this run") &&
                        Catch::Contains("No space left on device"));
  CHECK_FALSE(std::filesystem::exists(disk.file("legate_0.prof")));
  CHECK_FALSE(std::filesystem::exists(disk.file("legate_prof")));
}

TEST_CASE("a run whose disk fills up says where its trace stops", "[fault][disk]") {
  SmallDisk disk(700 << 10);
  LEGATO_SKIP_WITHOUT(disk);
  const auto r = run_command(profiled(disk.path()));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("checksum"));
  CHECK_THAT(r.err, Catch::Contains("profiling stopped") &&
                        Catch::Contains("The trace is finished at that point"));
  CHECK_THAT(r.err, !Catch::Contains("traces are complete") && !Catch::Contains("crashed"));
  CHECK(load_file(disk.file("legate_0.prof")).clean);
  // The report was written from what the trace holds, or it says why not
  // and leaves no empty directory.
  if (std::filesystem::exists(disk.file("legate_prof"))) {
    CHECK(std::filesystem::exists(disk.file("legate_prof/index.html")));
  } else {
    CHECK_THAT(r.err, Catch::Contains("write it later with: legate_prof archive"));
  }
  const auto info = run_command(bin("legate_prof") + " info " + disk.file("legate_0.prof"));
  CHECK_THAT(info.out, Catch::Contains("finished cleanly"));
}

TEST_CASE("a second run in the same log directory is refused, naming the first", "[fault][lock]") {
  TempDir dir;
  const std::string first_err = dir.file("first.err");
  const pid_t first = ::fork();
  if (first == 0) {
    ::execl("/bin/sh", "sh", "-c",
            (profiled(dir.path().string()) + " >/dev/null 2>" + first_err).c_str(), nullptr);
    std::_Exit(127);
  }
  // Wait until the first run's trace is in place (it is, before it records).
  const std::string trace = dir.file("legate_0.prof");
  for (int i = 0; i < 120'000 && !std::filesystem::exists(trace); ++i)  // a guard of 120 s
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(std::filesystem::exists(trace));
  const auto second = run_command(profiled(dir.path().string()));
  int status = 0;
  ::waitpid(first, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(second.status == 1);
  CHECK_THAT(second.err, Catch::Contains("another run is still writing the trace file '" + trace) &&
                             Catch::Contains("--logdir DIR or --profile-name NAME"));
  const trace::testing::Loaded l = load_file(trace);
  CHECK(l.clean);
  CHECK_THAT(second.err,
             Catch::Contains("pid " + std::to_string(l.metadata["run"]["pid"].get<int64_t>())));
}

TEST_CASE("GPU memory asked for without GPUs is a warning, not a silent setting", "[fault]") {
  const auto r =
      run_command("LEGATE_CONFIG='--fbmem 512 --zcmem 64 --show-config' " + bin("chunked_update"));
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("--fbmem 512 in LEGATE_CONFIG has no effect: this run uses "
                                    "no GPUs") &&
                        Catch::Contains("--zcmem 64 in LEGATE_CONFIG has no effect"));
  CHECK_THAT(r.out, !Catch::Contains("512 MiB"));
}

TEST_CASE("paths and programs that are not UTF-8 are profiled and reported", "[fault][bytes]") {
  TempDir dir;
  const std::string logdir = dir.file("logs\xe9\xff");
  const std::string program = dir.file("prog\xfe");
  std::filesystem::copy_file(bin("chunked_update"), program);
  const auto r = run_command(bin("legate") + " --cpus 1 --profile --logdir '" + logdir + "' '" +
                             program + "'");
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("wrote"));
  const trace::testing::Loaded l = load_file(logdir + "/legate_0.prof");
  CHECK(l.clean);
  CHECK(trace::unescape_bytes(l.metadata["run"]["program"].get<std::string>()) == program);
  CHECK(std::filesystem::exists(logdir + "/legate_prof/index.html"));
}

TEST_CASE("a run stopped by SIGTERM says how to write its report", "[fault][signal]") {
  TempDir dir;
  const std::string err = dir.file("err");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c",
            ("exec " + profiled(dir.path().string()) + " >/dev/null 2>" + err).c_str(), nullptr);
    std::_Exit(127);
  }
  const std::string trace = dir.file("legate_0.prof");
  for (int i = 0; i < 120'000 && !std::filesystem::exists(trace); ++i)  // a guard of 120 s
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // into the run
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  const std::string text = legato::testing::slurp(err);
  CHECK_THAT(text, Catch::Contains("stopped by signal 15") &&
                       Catch::Contains("write the profile report with: legate_prof archive " +
                                       trace + " -o " + dir.file("legate_prof")));
  CHECK(load_file(trace).clean);
}

TEST_CASE("a trace path that holds a FIFO, a socket or a directory: the run ends unrecorded",
          "[fault][special]") {
  TempDir dir;
  const std::string trace = dir.file("legate_0.prof");
  for (const char* what : {"FIFO", "socket", "directory"}) {
    INFO(what);
    std::filesystem::remove_all(trace);
    const std::string kind = std::string(what) == "FIFO"     ? "a named pipe (FIFO)"
                             : std::string(what) == "socket" ? "a socket"
                                                             : "a directory";
    if (kind == "a named pipe (FIFO)") {
      REQUIRE(::mkfifo(trace.c_str(), 0600) == 0);
    } else if (kind == "a socket") {
      REQUIRE(run_command("python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX)"
                          ".bind(sys.argv[1])' " +
                          trace)
                  .status == 0);
    } else {
      std::filesystem::create_directories(trace);
    }
    // Opening the FIFO would wait for a reader forever: the timeout only guards.
    const auto r = run_command("timeout -s KILL 120 " + profiled(dir.path().string()));
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("checksum"));
    CHECK_THAT(r.err, Catch::StartsWith("legate: warning: profiling is off for this run: cannot "
                                        "create trace file '" +
                                        trace + "': Is " + kind + ", not a regular file"));
    CHECK_FALSE(std::filesystem::exists(dir.file("legate_prof")));
    CHECK(std::filesystem::status(trace).type() ==
          (kind == "a named pipe (FIFO)" ? std::filesystem::file_type::fifo
           : kind == "a socket"          ? std::filesystem::file_type::socket
                                         : std::filesystem::file_type::directory));
  }
}

TEST_CASE("a FIFO where the report goes: the run ends, saying the report was not written",
          "[fault][special]") {
  TempDir dir;
  std::filesystem::create_directories(dir.file("legate_prof"));
  const std::string report = dir.file("legate_prof/index.html");
  REQUIRE(::mkfifo(report.c_str(), 0600) == 0);
  // Writing the FIFO would wait for a reader forever: the timeout only guards.
  const auto r = run_command("timeout -s KILL 120 " + profiled(dir.path().string()));
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("checksum"));
  CHECK_THAT(r.err, Catch::Contains("cannot write " + report +
                                    ": Is a named pipe (FIFO), not a regular file"));
  CHECK_THAT(r.err, Catch::Contains("the profile report was not written"));
  CHECK(load_file(dir.file("legate_0.prof")).clean);
  CHECK(std::filesystem::is_fifo(report));
}
