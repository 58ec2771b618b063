// The recorder as a program uses it: what lands in the trace, and the clear
// errors for bad configuration.
#include <catch2/catch.hpp>
#include <thread>

#include "recorder/recorder_test_util.hpp"
#include "trace_format/metadata.hpp"

using namespace legato;
using namespace legato::rec::testing;
using trace::testing::TempDir;

TEST_CASE("a recorded run holds its metadata, descriptors, records and strings", "[recorder]") {
  TempDir dir;
  rec::RecorderOptions o = options_in(dir);
  o.rank = 1;
  o.ranks = 2;
  o.run_id = "00112233445566778899aabbccddeeff";
  o.config = {{"cpus", 4}};
  rec::start(o);
  REQUIRE(rec::active());
  const std::string path = rec::trace_path();
  CHECK(path == dir.file("legate_1.prof"));
  const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
  const uint32_t mem = rec::add_memory(trace::MemKind::System, 1 << 20, "sysmem");
  rec::add_task_kind(7, "add");
  CHECK(trace::rank_of_resource(cpu) == 1);
  const trace::Uid op = rec::new_uid();
  CHECK(trace::rank_of_uid(op) == 1);
  const rec::Tick t0 = rec::now();
  uint64_t x = busy_work(1);
  const rec::Tick t1 = rec::now();
  rec::record(trace::TaskRecord{rec::new_uid(), op, cpu, 7, 1, rec::stamp(t0), rec::stamp(t1),
                                rec::stamp(t0), rec::stamp(t0)});
  rec::record(trace::InstanceRecord{rec::new_uid(), mem, op, 4096, 1, rec::intern("a"),
                                    rec::intern("prog.cpp:3"), rec::stamp(t0), rec::stamp(t0),
                                    rec::stamp(t1), 0});
  {
    LEGATO_RANGE("setup");
    x += busy_work(x);
  }
  rec::finish();
  CHECK_FALSE(rec::active());
  CHECK(x != 0);

  trace::testing::Loaded l = trace::testing::load_file(path);
  CHECK(l.clean);
  CHECK(l.diagnostics.empty());
  std::vector<std::string> problems;
  const trace::RunInfo run = trace::RunInfo::from_json(l.metadata, problems);
  CHECK(problems.empty());
  CHECK(run.id == o.run_id);
  CHECK(run.rank == 1);
  CHECK(run.ranks == 2);
  CHECK(run.program.find("test_recorder") != std::string::npos);
  CHECK(l.metadata["config"]["cpus"] == 4);
  CHECK(l.metadata["clock"]["units"] == "ns");
  CHECK(l.metadata["clock"]["calibration_points"].get<int>() >= 2);

  const auto& procs = l.records.get<trace::ProcessorRecord>();
  const auto has_proc = [&](trace::ProcKind k) {
    return std::any_of(procs.begin(), procs.end(), [&](const auto& p) { return p.proc_kind == k; });
  };
  CHECK(has_proc(trace::ProcKind::Cpu));
  CHECK(has_proc(trace::ProcKind::Profiler));
  CHECK(has_proc(trace::ProcKind::Thread));  // the lane of the range
  REQUIRE(l.records.get<trace::TaskRecord>().size() == 1);
  const trace::TaskRecord& task = l.records.get<trace::TaskRecord>()[0];
  CHECK(task.processor == cpu);
  CHECK(task.start >= 0);
  CHECK(task.stop >= task.start);
  CHECK(task.stop - task.start < 1'000'000);  // a few hundred ns of work, converted to ns
  REQUIRE(l.records.get<trace::UserRangeRecord>().size() == 1);
  // Every string a record uses is defined.
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
  CHECK(strings[l.records.get<trace::UserRangeRecord>()[0].name] == "setup");
  CHECK(strings[l.records.get<trace::InstanceRecord>()[0].provenance] == "prog.cpp:3");
  CHECK(strings[l.records.get<trace::TaskKindRecord>()[0].name] == "add");
  // The flusher's own work is on the profiler lane, and the stats are there.
  CHECK_FALSE(l.records.get<trace::MetaTaskRecord>().empty());
  REQUIRE_FALSE(l.records.get<trace::RecorderStatsRecord>().empty());
  CHECK(l.records.get<trace::RecorderStatsRecord>().back().dropped == 0);
}

TEST_CASE("recording with no recorder running costs nothing and records nothing", "[recorder]") {
  CHECK_FALSE(rec::active());
  rec::record(trace::EdgeRecord{1, 2, trace::EdgeKind::Data});
  { LEGATO_RANGE("ignored"); }
  CHECK(rec::new_uid() != rec::new_uid());  // uids are handed out with or without a recorder
  CHECK_THROWS_WITH(rec::add_processor(trace::ProcKind::Cpu, 0, "c0"),
                    Catch::Contains("not running"));
}

TEST_CASE("bad recorder configuration is refused with what to do", "[recorder]") {
  TempDir dir;
  rec::RecorderOptions o = options_in(dir);
  o.buffer_bytes = 100;
  CHECK_THROWS_WITH(rec::start(o), "invalid recorder buffer size 100 bytes: use 4 KiB to 64 MiB");
  o = options_in(dir);
  o.max_buffers = 1;
  CHECK_THROWS_WITH(rec::start(o), Catch::Contains("invalid recorder buffer count 1"));
  o = options_in(dir);
  o.rank = 3;
  o.ranks = 2;
  CHECK_THROWS_WITH(rec::start(o), Catch::Contains("invalid rank 3 of 2 ranks"));
  o = options_in(dir);
  o.name = "a/b";
  CHECK_THROWS_WITH(rec::start(o), Catch::Contains("invalid profile name"));
  o = options_in(dir);
  o.logdir = "/proc/no_such_dir";
  CHECK_THROWS_WITH(rec::start(o),
                    Catch::Contains("cannot create the log directory '/proc/no_such_dir'") &&
                        Catch::Contains("--logdir"));
  CHECK_FALSE(rec::active());
}

TEST_CASE("an unwritable log directory is refused at start", "[recorder]") {
  // A regular file where the directory should be (root can write anywhere else).
  TempDir dir;
  trace::testing::write_bytes(dir.file("file"), {1});
  rec::RecorderOptions o = options_in(dir);
  o.logdir = dir.file("file");
  CHECK_THROWS_WITH(rec::start(o), Catch::Contains(dir.file("file")));
  CHECK_FALSE(rec::active());
}

TEST_CASE("start twice is refused, and start again after finish writes a new trace", "[recorder]") {
  TempDir dir;
  rec::RecorderOptions o = options_in(dir);
  rec::start(o);
  CHECK_THROWS_WITH(rec::start(o), Catch::Contains("already running"));
  const uint32_t name = rec::intern("first");
  { rec::ScopedRange r(name); }
  rec::finish();
  o.name = "second";
  rec::start(o);
  { rec::ScopedRange r(name); }  // the id from before still names "first"
  rec::finish();
  for (const char* file : {"legate_0.prof", "second_0.prof"}) {
    trace::testing::Loaded l = trace::testing::load_file(dir.file(file));
    CHECK(l.clean);
    REQUIRE(l.records.get<trace::UserRangeRecord>().size() == 1);
    std::map<uint32_t, std::string> strings;
    for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
    CHECK(strings[l.records.get<trace::UserRangeRecord>()[0].name] == "first");
  }
}

TEST_CASE("threads bound to a processor record ranges on its lane", "[recorder]") {
  TempDir dir;
  rec::start(options_in(dir));
  const uint32_t util = rec::add_processor(trace::ProcKind::Utility, 0, "u0");
  std::thread t([&] {
    rec::bind_thread(util);
    LEGATO_RANGE("mapping");
  });
  t.join();
  const std::string path = rec::trace_path();
  rec::finish();
  trace::testing::Loaded l = trace::testing::load_file(path);
  REQUIRE(l.records.get<trace::UserRangeRecord>().size() == 1);
  CHECK(l.records.get<trace::UserRangeRecord>()[0].processor == util);
}
