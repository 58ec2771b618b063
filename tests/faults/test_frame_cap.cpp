// What one damaged frame can cost, and what is on disk before the first
// flush.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>

#include "recorder/recorder_test_util.hpp"

using namespace legato;
using trace::testing::load_file;
using trace::testing::TempDir;

TEST_CASE("a short run is several frames: one flipped bit costs one frame's records",
          "[fault][frames]") {
  TempDir dir;
  rec::RecorderOptions o = rec::testing::options_in(dir);
  o.flush_interval_ms = 10000;  // frames close on the record cap alone
  constexpr uint64_t kTasks = 100000;
  rec::start(o);
  const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
  for (uint64_t i = 0; i < kTasks; ++i) rec::record(trace::TaskRecord{i, 1, cpu, 1, 1, 0, 1, 0, 0});
  rec::finish();
  const std::string path = dir.file("legate_0.prof");
  // The offsets of the events frames.
  std::vector<trace::Frame> events;
  for (const auto& f : load_file(path).frames) {
    if (f.header.type == trace::FrameType::Events) events.push_back(f);
  }
  REQUIRE(events.size() >= kTasks / trace::WriterOptions{}.max_frame_records);
  std::vector<uint8_t> bytes = trace::testing::read_bytes(path);
  const trace::Frame& victim = events[events.size() / 2];
  bytes[victim.offset + trace::kFrameHeaderSize + victim.header.stored_size / 2] ^= 0x10;
  trace::testing::write_bytes(path, bytes);
  const trace::testing::Loaded l = load_file(path);
  const uint64_t kept = l.records.get<trace::TaskRecord>().size();
  CHECK(kept < kTasks);
  CHECK(kTasks - kept <= trace::WriterOptions{}.max_frame_records);
  CHECK(kTasks - kept == victim.records.get<trace::TaskRecord>().size());
}

TEST_CASE("a run killed before its first flush leaves its run and configuration on disk",
          "[fault][frames]") {
  TempDir dir;
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  int hold[2];
  REQUIRE(::pipe(hold) == 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    rec::RecorderOptions o = rec::testing::options_in(dir);
    o.flush_interval_ms = 10000;
    o.config = {{"cpus", 3}};
    rec::start(o);
    [[maybe_unused]] ssize_t n = ::write(ready[1], "r", 1);
    char c;
    n = ::read(hold[0], &c, 1);  // until the test kills it
    std::_Exit(0);
  }
  char c;
  REQUIRE(::read(ready[0], &c, 1) == 1);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const trace::testing::Loaded l = load_file(dir.file("legate_0.prof"));
  CHECK_FALSE(l.clean);
  CHECK(l.metadata["run"]["pid"] == pid);
  CHECK(l.metadata["run"]["id"].get<std::string>().size() == 32);
  CHECK(l.metadata["config"]["cpus"] == 3);
  CHECK(l.metadata.contains("clock"));
}
