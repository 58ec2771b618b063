#include <catch2/catch.hpp>

#include "trace_format/metadata.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

namespace {

// Writes n random records of every kind (extremes included) and checks the
// reader returns exactly them, in order.
void round_trip_all_kinds(WriterOptions options, int n, uint64_t seed) {
  TempDir dir;
  const std::string path = dir.file("all.prof");
  std::mt19937_64 rng(seed);
  RecordBatch written;
  {
    TraceWriter w(path, options);
    w.write_metadata({{"run", {{"id", "abc"}}}});
    for (int i = 0; i < n; ++i) {
      for_each_record_type([&](auto t) {
        using R = typename decltype(t)::type;
        const R r = random_record<R>(rng);
        w.add(r);
        written.get<R>().push_back(r);
      });
      if (i % 97 == 0) w.flush();
    }
    w.finish();
  }
  Loaded l = load_file(path);
  CHECK(l.clean);
  for (const auto& d : l.diagnostics) {
    // Random values overflow nothing: every field holds what its type holds.
    FAIL_CHECK(d.format(path));
  }
  written.for_each_kind([&](const auto& v) {
    using R = typename std::remove_cvref_t<decltype(v)>::value_type;
    INFO("record kind " << R::kName);
    REQUIRE(l.records.get<R>().size() == v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (!(l.records.get<R>()[i] == v[i])) FAIL("record " << i << " differs");
    }
  });
  CHECK(l.records.unknown.empty());
}

}  // namespace

TEST_CASE("every record kind round-trips with random and extreme values", "[round_trip]") {
  SECTION("zstd frames") {
    round_trip_all_kinds(WriterOptions{}, 500, 1);
  }
  SECTION("uncompressed frames") {
    round_trip_all_kinds(WriterOptions{.zstd_level = 1, .chunk_bytes = 1 << 20, .compress = false},
                         300, 2);
  }
  SECTION("tiny frames") {
    round_trip_all_kinds(WriterOptions{.zstd_level = 1, .chunk_bytes = 64, .compress = true}, 300,
                         3);
  }
}

TEST_CASE("metadata frames merge key by key, later values win", "[round_trip]") {
  TempDir dir;
  const std::string path = dir.file("meta.prof");
  {
    TraceWriter w(path);
    RunInfo run;
    run.id = new_run_id();
    run.rank = 2;
    run.ranks = 4;
    run.host = "node7";
    run.pid = 4242;
    run.program = "./prog";
    run.args = {"--n", "10"};
    w.write_metadata({{"run", run.to_json()}, {"clock", {{"calibrated", false}}}});
    w.add(TaskRecord{});
    w.flush();
    w.write_metadata({{"clock", {{"calibrated", true}}}});
    w.finish();
  }
  Loaded l = load_file(path);
  REQUIRE(l.clean);
  CHECK(l.metadata["clock"]["calibrated"] == true);
  std::vector<std::string> problems;
  const RunInfo run = RunInfo::from_json(l.metadata, problems);
  CHECK(problems.empty());
  CHECK(run.id.size() == 32);
  CHECK(run.rank == 2);
  CHECK(run.ranks == 4);
  CHECK(run.host == "node7");
  CHECK(run.args == std::vector<std::string>{"--n", "10"});
  // Each metadata frame is also returned on its own.
  int meta_frames = 0;
  for (const auto& f : l.frames) meta_frames += f.header.type == FrameType::Metadata;
  CHECK(meta_frames == 2);
}

TEST_CASE("run metadata with missing or mistyped keys is described, not trusted", "[round_trip]") {
  std::vector<std::string> problems;
  RunInfo r = RunInfo::from_json({{"run", {{"id", 5}, {"rank", 9}, {"ranks", 4}}}}, problems);
  CHECK(r.id.empty());
  CHECK(problems.size() >= 3);
  CHECK(std::any_of(problems.begin(), problems.end(),
                    [](const std::string& p) { return p.find("run.id") != std::string::npos; }));
  CHECK(std::any_of(problems.begin(), problems.end(), [](const std::string& p) {
    return p.find("not within") != std::string::npos;
  }));
  problems.clear();
  RunInfo::from_json(nlohmann::json::object(), problems);
  CHECK(problems == std::vector<std::string>{"metadata has no \"run\" object"});
}

TEST_CASE("interned strings get stable ids and are defined before use", "[round_trip]") {
  TempDir dir;
  const std::string path = dir.file("strings.prof");
  {
    TraceWriter w(path, WriterOptions{.zstd_level = 3, .chunk_bytes = 256, .compress = true});
    CHECK(w.intern("") == 0);
    const uint32_t a = w.intern("alpha");
    CHECK(w.intern("alpha") == a);
    for (int i = 0; i < 2000; ++i) {
      const uint32_t id = w.intern("name" + std::to_string(i % 300));
      w.add(TaskKindRecord{static_cast<uint32_t>(i), id});
    }
    w.finish();
  }
  Loaded l = load_file(path);
  REQUIRE(l.clean);
  CHECK(l.frames.size() > 5);
  // Walk frames in order: every string a record uses is already defined.
  std::unordered_map<uint32_t, std::string> defined;
  for (const auto& f : l.frames) {
    for (const auto& s : f.records.get<StringRecord>()) defined[s.id] = s.text;
    for (const auto& k : f.records.get<TaskKindRecord>()) {
      REQUIRE(defined.count(k.name) == 1);
      CHECK(defined[k.name] == "name" + std::to_string(k.id % 300));
    }
  }
  CHECK(l.records.get<StringRecord>().size() == 301);
}

TEST_CASE("frame headers carry the records' time range and the footer indexes every frame",
          "[round_trip]") {
  TempDir dir;
  const std::string path = dir.file("index.prof");
  write_sample_trace(path, 5, 100);
  Loaded l = load_file(path);
  REQUIRE(l.clean);
  REQUIRE(l.frames.size() == 7);  // metadata, 5 events, footer
  const Frame& footer = l.frames.back();
  REQUIRE(footer.header.type == FrameType::Footer);
  const auto& index = footer.records.get<ChunkIndexRecord>();
  REQUIRE(index.size() == 6);
  for (size_t i = 0; i < index.size(); ++i) {
    CHECK(index[i].offset == l.frames[i].offset);
    CHECK(index[i].sequence == l.frames[i].header.sequence);
    CHECK(index[i].records == l.frames[i].header.record_count);
  }
  for (const auto& f : l.frames) {
    if (f.header.type != FrameType::Events) continue;
    Time lo = std::numeric_limits<Time>::max(), hi = std::numeric_limits<Time>::min();
    for (const auto& t : f.records.get<TaskRecord>()) {
      lo = std::min({lo, t.create, t.ready, t.start});
      hi = std::max(hi, t.stop);
    }
    CHECK(f.header.t_min == lo);
    CHECK(f.header.t_max == hi);
  }
  uint64_t tasks = 0;
  for (const auto& kc : footer.records.get<KindCountRecord>()) {
    if (kc.record_kind == static_cast<uint32_t>(RecordKind::Task)) tasks = kc.count;
  }
  CHECK(tasks == 500);
  CHECK(l.records.get<TaskRecord>().size() == 500);
}

TEST_CASE("a trace with no records is valid", "[round_trip]") {
  TempDir dir;
  const std::string path = dir.file("empty.prof");
  { TraceWriter w(path); }  // the destructor finishes the file
  Loaded l = load_file(path);
  CHECK(l.clean);
  CHECK(l.diagnostics.empty());
  CHECK(l.records.size() == 0);
}
