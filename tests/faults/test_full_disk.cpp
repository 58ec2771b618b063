// A disk that is full when the run starts, and one that fills up mid-run
// (a small tmpfs): recording stops, the program goes on, and what is on disk
// says what happened.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "faults/small_disk.hpp"
#include "recorder/recorder_test_util.hpp"
#include "tools/run_command.hpp"

using namespace legato;
using legato::testing::SmallDisk;
using trace::testing::load_file;
using trace::testing::TempDir;

namespace {

size_t entries(const std::string& dir) {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                           std::filesystem::directory_iterator()));
}

rec::RecorderOptions options_on(const SmallDisk& disk) {
  rec::RecorderOptions o;
  o.logdir = disk.path();
  o.flush_interval_ms = 5;
  return o;
}

// Records tasks numbered from `first` on, with real work between them.
void record_tasks(uint32_t cpu, uint64_t first, uint64_t count) {
  uint64_t x = first + 1;
  for (uint64_t i = first; i < first + count; ++i) {
    const auto start = rec::stamp(rec::now());
    x = rec::testing::busy_work(x);
    rec::record(trace::TaskRecord{i, x, cpu, 1, 1, start, rec::stamp(rec::now()), start,
                                  start});  // op: incompressible
  }
}

}  // namespace

TEST_CASE("a full disk refuses a new trace and leaves an earlier one as it was", "[fault][disk]") {
  SmallDisk disk(1 << 20);
  LEGATO_SKIP_WITHOUT(disk);
  const std::string path = disk.file("legate_0.prof");
  trace::testing::write_bytes(path, {'o', 'l', 'd'});
  disk.fill();
  try {
    trace::TraceWriter w(path, trace::WriterOptions{.reserve_bytes = 256 << 10});
    FAIL("the writer was created on a full disk");
  } catch (const trace::TraceError& e) {
    CHECK(e.no_space());
    CHECK_THAT(e.what(), Catch::Contains("No space left on device") && Catch::Contains(path));
  }
  CHECK(trace::testing::read_bytes(path) == std::vector<uint8_t>{'o', 'l', 'd'});
  CHECK(entries(disk.path()) == 2);  // the old trace and the filler: no temporary left
}

TEST_CASE("the recorder on a full disk says so and does not start", "[fault][disk]") {
  SmallDisk disk(1 << 20);
  LEGATO_SKIP_WITHOUT(disk);
  disk.fill();
  try {
    rec::start(options_on(disk));
    FAIL("the recorder started on a full disk");
  } catch (const rec::RecorderError& e) {
    CHECK(e.cause() == rec::RecorderError::Cause::NoSpace);
  }
  CHECK_FALSE(rec::active());
  disk.unfill();
  rec::start(options_on(disk));  // space again: it starts
  CHECK(rec::active());
  rec::finish();
}

TEST_CASE("a disk that fills mid-run: the trace is finished where recording stopped",
          "[fault][disk]") {
  SmallDisk disk(3 << 20);
  LEGATO_SKIP_WITHOUT(disk);
  const std::string path = disk.file("legate_0.prof");
  rec::start(options_on(disk));
  const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
  record_tasks(cpu, 0, 20000);
  rec::finish();  // a first run leaves its trace...
  rec::start(options_on(disk));
  const uint32_t cpu2 = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
  record_tasks(cpu2, 0, 20000);
  disk.fill();  // ...and the disk fills during the second
  record_tasks(cpu2, 20000, 400000);
  rec::finish();

  const trace::testing::Loaded l = load_file(path);
  CHECK(l.clean);
  CHECK(l.diagnostics.empty());
  const auto& tasks = l.records.get<trace::TaskRecord>();
  CHECK(tasks.size() >= 1);
  CHECK(tasks.size() < 420000);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].uid != i) FAIL("task " << i << " is " << tasks[i].uid << ": not a prefix");
  }
  REQUIRE(l.metadata.contains("recording"));
  CHECK_THAT(l.metadata["recording"]["reason"].get<std::string>(),
             Catch::Contains("No space left on device"));
  const int64_t stopped = l.metadata["recording"]["stopped_at_ns"].get<int64_t>();
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
  const auto& errors = l.records.get<trace::ErrorRecord>();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].error_kind == trace::ErrorKind::Warning);
  CHECK(errors[0].time == stopped);
  CHECK_THAT(strings[errors[0].text], Catch::StartsWith("recording stopped here: "));
  // The reserve went back to the file system with the finished file.
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(static_cast<uint64_t>(st.st_blocks) * 512 <=
        (static_cast<uint64_t>(st.st_size) + 4095) / 4096 * 4096);

  // legate_prof says where the trace stops, not that the run crashed.
  const auto info =
      legato::testing::run_command(legato::testing::bin("legate_prof") + " stats " + path);
  CHECK(info.status == 0);
  CHECK_THAT(info.err, Catch::Contains("recording stopped early"));
  CHECK_THAT(info.err, !Catch::Contains("crashed"));
}

TEST_CASE("a report that cannot be written leaves no directory behind", "[fault][disk]") {
  SmallDisk disk(1 << 20);
  LEGATO_SKIP_WITHOUT(disk);
  TempDir dir;
  rec::RecorderOptions o;
  o.logdir = dir.path().string();
  rec::start(o);
  record_tasks(rec::add_processor(trace::ProcKind::Cpu, 0, "c0"), 0, 5000);
  rec::finish();
  disk.fill();
  const std::string out = disk.file("report");
  const auto r = legato::testing::run_command(legato::testing::bin("legate_prof") + " archive " +
                                              dir.file("legate_0.prof") + " -o " + out);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("No space left on device"));
  CHECK_FALSE(std::filesystem::exists(out));
}
