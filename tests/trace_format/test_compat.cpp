// Compatibility: the committed golden trace keeps opening with the same
// content, and files from newer writers (new minor versions, record kinds,
// columns, frame types) load with what this reader knows.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "trace_format/metadata.hpp"
#include "trace_format/record_json.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

namespace {

std::string golden_path(const std::string& name) {
  const char* src = LEGATO_SOURCE_DIR;
  return std::string(src) + "/sample_traces/" + name;
}

std::vector<uint8_t> file_with(const std::vector<std::vector<uint8_t>>& frames,
                               uint16_t minor = 0) {
  std::vector<uint8_t> file = forge_file_header(1, minor);
  for (const auto& f : frames) file.insert(file.end(), f.begin(), f.end());
  return file;
}

std::string dump_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Loaded load_memory(const std::vector<uint8_t>& bytes) {
  auto reader = TraceReader::open(make_memory_source(bytes.data(), bytes.size()), "forged.prof");
  return load_all(*reader);
}

// Task columns as the writer lays them out, with custom codecs.
const std::vector<std::vector<uint64_t>> kTaskColumns = {
    {11, 12}, {5, 5}, {3, 3}, {1, 1}, {1, 2}, {1000, 5000}, {4000, 9000}, {900, 4100}, {100, 4000}};

}  // namespace

TEST_CASE("the golden v1.0 trace opens with exactly its recorded content", "[compat]") {
  Loaded l = load_file(golden_path("golden_v1.0.prof"));
  CHECK(l.clean);
  CHECK(l.diagnostics.empty());
  std::ifstream expected(golden_path("golden_v1.0.jsonl"));
  REQUIRE(expected.good());
  std::string line;
  REQUIRE(std::getline(expected, line));
  CHECK(nlohmann::json::parse(line) == nlohmann::json{{"metadata", l.metadata}});
  size_t n = 0;
  for_each_record_json(l.records, nullptr, [&](const nlohmann::json& j) {
    REQUIRE(std::getline(expected, line));
    CHECK(nlohmann::json::parse(line) == nlohmann::json::parse(dump_line(j)));
    ++n;
  });
  CHECK_FALSE(std::getline(expected, line));
  // Every record kind is in the golden file.
  l.records.for_each_kind([&](const auto& v) {
    using R = typename std::remove_cvref_t<decltype(v)>::value_type;
    if (R::kKind != RecordKind::ChunkIndex && R::kKind != RecordKind::KindCount) {
      INFO(R::kName);
      CHECK_FALSE(v.empty());
    }
  });
  CHECK(n > 100);
}

// Writes the golden file and its JSON lines; run explicitly with
// LEGATO_GOLDEN_OUT=<dir> test_trace_format "[.golden]" when a new format
// version needs a golden of its own. Existing goldens are never rewritten.
TEST_CASE("write a golden trace", "[.golden]") {
  const char* out = std::getenv("LEGATO_GOLDEN_OUT");
  REQUIRE(out != nullptr);
  const std::string path = std::string(out) + "/golden_v" + std::to_string(kFormatMajor) + "." +
                           std::to_string(kFormatMinor) + ".prof";
  {
    std::mt19937_64 rng(2024);
    TraceWriter w(path, WriterOptions{.zstd_level = 3, .chunk_bytes = 4096, .compress = true});
    RunInfo run;
    run.id = "5eed5eed5eed5eed5eed5eed5eed5eed";
    run.host = "golden";
    run.pid = 1;
    run.program = "golden";
    w.write_metadata({{"run", run.to_json()}, {"clock", {{"units", "ns"}, {"zero_unix_ns", 0}}}});
    for (int i = 0; i < 20; ++i) {
      for_each_record_type([&](auto t) {
        using R = typename decltype(t)::type;
        if constexpr (R::kKind != RecordKind::ChunkIndex && R::kKind != RecordKind::KindCount) {
          R r = random_record<R>(rng);
          if constexpr (std::is_same_v<R, StringRecord>)
            r.text = "golden text " + std::to_string(i);
          w.add(r);
        }
      });
    }
    w.finish();
  }
  Loaded l = load_file(path);
  std::ofstream jsonl(path.substr(0, path.size() - 5) + ".jsonl");
  jsonl << dump_line(nlohmann::json{{"metadata", l.metadata}}) << "\n";
  for_each_record_json(l.records, nullptr,
                       [&](const nlohmann::json& j) { jsonl << dump_line(j) << "\n"; });
}

TEST_CASE("a newer minor version loads with a warning", "[compat]") {
  ByteBuffer payload;
  forge_section(payload, static_cast<uint32_t>(RecordKind::Task),
                std::vector<ColumnCodec>(kTaskColumns.size(), raw()), kTaskColumns);
  Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 2)}, 7));
  REQUIRE(l.records.get<TaskRecord>().size() == 2);
  REQUIRE_FALSE(l.diagnostics.empty());
  CHECK(l.diagnostics[0].message.find("1.7, newer than this reader") != std::string::npos);
}

TEST_CASE("a newer major version is refused with a clear reason", "[compat]") {
  std::vector<uint8_t> v2 = forge_file_header(2, 3);
  try {
    TraceReader::open(make_memory_source(v2.data(), v2.size()), "future.prof");
    FAIL("opened a 2.x file");
  } catch (const TraceError& e) {
    const std::string what = e.what();
    CHECK(what.find("future.prof") != std::string::npos);
    CHECK(what.find("2.3, newer than this reader") != std::string::npos);
    CHECK(what.find("newer legate_prof") != std::string::npos);
  }
}

TEST_CASE("sections of unknown record kinds are kept as plain columns", "[compat]") {
  ByteBuffer payload;
  forge_section(payload, 99, {delta(), raw(), ColumnCodec{Codec::Bytes, 1}}, {{7, 8}, {2, 3}, {}},
                {"hiyou"});
  forge_section(payload, static_cast<uint32_t>(RecordKind::Task),
                std::vector<ColumnCodec>(kTaskColumns.size(), raw()), kTaskColumns);
  Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 4)}));
  REQUIRE(l.records.unknown.size() == 1);
  const UnknownSection& u = l.records.unknown[0];
  CHECK(u.kind == 99);
  CHECK(u.columns[0].values == std::vector<uint64_t>{7, 8});
  CHECK(u.columns[2].texts == std::vector<std::string>{"hi", "you"});
  CHECK(l.records.get<TaskRecord>().size() == 2);
  CHECK(unknown_row_to_json(u, 1) == nlohmann::json{{"kind", 99}, {"columns", {8, 3, "you"}}});
  REQUIRE_FALSE(l.diagnostics.empty());
  CHECK(l.diagnostics[0].message.find("record kinds this reader does not know") !=
        std::string::npos);
}

TEST_CASE("known kinds decode under any codecs and any number of columns", "[compat]") {
  const TaskRecord first{11, 5, 3, 1, 1, 1000, 4000, 900, 100};
  SECTION("all raw codecs take the generic path to the same values") {
    ByteBuffer payload;
    forge_section(payload, static_cast<uint32_t>(RecordKind::Task),
                  std::vector<ColumnCodec>(kTaskColumns.size(), raw()), kTaskColumns);
    Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 2)}));
    REQUIRE(l.records.get<TaskRecord>().size() == 2);
    CHECK(l.records.get<TaskRecord>()[0] == first);
    CHECK(l.records.get<TaskRecord>()[1].stop == 9000);
  }
  SECTION("extra columns from a newer writer are skipped") {
    auto cols = kTaskColumns;
    cols.push_back({77, 78});
    std::vector<ColumnCodec> codecs(cols.size(), raw());
    codecs.push_back(ColumnCodec{Codec::Bytes, 9});
    ByteBuffer payload;
    forge_section(payload, static_cast<uint32_t>(RecordKind::Task), codecs, cols, {"extra bytes"});
    Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 2)}));
    REQUIRE(l.records.get<TaskRecord>().size() == 2);
    CHECK(l.records.get<TaskRecord>()[0] == first);
  }
  SECTION("columns an older writer did not have keep their defaults") {
    auto cols = kTaskColumns;
    cols.resize(6);
    ByteBuffer payload;
    forge_section(payload, static_cast<uint32_t>(RecordKind::Task),
                  std::vector<ColumnCodec>(cols.size(), delta()), cols);
    Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 2)}));
    REQUIRE(l.records.get<TaskRecord>().size() == 2);
    const TaskRecord& t = l.records.get<TaskRecord>()[1];
    CHECK(t.uid == 12);
    CHECK(t.start == 5000);
    CHECK(t.stop == 0);
    CHECK(t.create == 0);
  }
  SECTION("a text field stored without its bytes column is an error, not a crash") {
    ByteBuffer payload;
    forge_section(payload, static_cast<uint32_t>(RecordKind::String), {raw(), raw()}, {{1}, {3}});
    Loaded l = load_memory(file_with({forge_events_frame(payload, 0, 1)}));
    CHECK(l.records.get<StringRecord>().empty());
    REQUIRE_FALSE(l.diagnostics.empty());
    CHECK(l.diagnostics[0].message.find("do not match the record's fields") != std::string::npos);
  }
}

TEST_CASE("frames of unknown types are skipped with a warning", "[compat]") {
  FrameHeader odd;
  odd.type = static_cast<FrameType>(9);
  odd.compression = Compression::None;
  odd.raw_size = 3;
  ByteBuffer payload;
  forge_section(payload, static_cast<uint32_t>(RecordKind::Task),
                std::vector<ColumnCodec>(kTaskColumns.size(), raw()), kTaskColumns);
  Loaded l =
      load_memory(file_with({forge_frame(odd, {1, 2, 3}), forge_events_frame(payload, 1, 2)}));
  CHECK(l.records.get<TaskRecord>().size() == 2);
  REQUIRE_FALSE(l.diagnostics.empty());
  CHECK(l.diagnostics[0].message.find("type this reader does not know") != std::string::npos);
}
