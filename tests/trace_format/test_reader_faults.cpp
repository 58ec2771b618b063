// What the reader says about frames whose header contradicts their records,
// and which damage counts as lost data (the tools' exit status 1).
#include <catch2/catch.hpp>

#include "trace_format/record_json.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

namespace {

// Three events frames of tasks at [1000 f, 1000 f + 500], f = 0, 1, 2; the
// file's frames are metadata (0), events (1 to 3), footer (4).
void write_frames(const std::string& path) {
  TraceWriter w(path);
  w.write_metadata({{"run", {{"id", "r"}}}});
  for (int f = 0; f < 3; ++f) {
    w.add(TaskRecord{static_cast<Uid>(f + 1), 0, 0, 1, 1, 1000 * f, 1000 * f + 500, 1000 * f,
                     1000 * f});
    w.flush();
  }
  w.finish();
}

// Offset and header of frame `sequence`.
std::pair<uint64_t, FrameHeader> frame_at(const std::string& path, uint32_t sequence) {
  const auto reader = TraceReader::open(path);
  Frame f;
  while (reader->next(f)) {
    if (f.header.sequence == sequence) return {f.offset, f.header};
  }
  FAIL("no frame " << sequence);
  return {};
}

void set_time_range(const std::string& path, uint32_t sequence, Time t_min, Time t_max) {
  auto [offset, h] = frame_at(path, sequence);
  h.t_min = t_min;
  h.t_max = t_max;
  std::vector<uint8_t> bytes = read_bytes(path);
  encode_frame_header(h, bytes.data() + offset);  // a valid header checksum
  write_bytes(path, bytes);
}

}  // namespace

TEST_CASE("a batch's time range spans every time field of its records", "[reader][fault]") {
  RecordBatch b;
  CHECK_FALSE(time_range(b).has_value());
  b.get<StringRecord>().push_back({1, "x"});
  CHECK_FALSE(time_range(b).has_value());
  b.get<TaskRecord>().push_back(TaskRecord{1, 0, 0, 1, 1, 500, 900, 400, 300});
  b.get<WaitRecord>().push_back(WaitRecord{1, 600, 650, 1200, 0});
  CHECK(time_range(b) == std::pair<Time, Time>{300, 1200});
}

TEST_CASE("frame headers that contradict their records: one warning per file, counted",
          "[reader][fault]") {
  TempDir dir;
  const std::string path = dir.file("t.prof");
  write_frames(path);
  SECTION("intact: no warning") {
    const Loaded l = load_file(path);
    CHECK(l.diagnostics.empty());
  }
  SECTION("a header range wider than its records, and one that misses them") {
    set_time_range(path, 1, -5, Time{1} << 50);
    set_time_range(path, 3, 2000, 2100);  // its records span 2000 to 2500
    const auto reader = TraceReader::open(path);
    Frame f;
    std::vector<Time> header_max;
    while (reader->next(f)) header_max.push_back(f.header.t_max);
    CHECK(header_max[1] == Time{1} << 50);  // the header is given as it is
    REQUIRE(reader->diagnostics().size() == 1);
    const Diagnostic& d = reader->diagnostics()[0];
    CHECK(d.severity == Diagnostic::Severity::Warning);
    CHECK(d.offset == frame_at(path, 1).first);
    CHECK(d.message ==
          "2 events frames give a time range (header t_min/t_max) that contradicts their records, "
          "e.g. frame 1 (events): header -5 to 1125899906842624 ns, records 0 to 500 ns; the "
          "records' times are used");
    CHECK_FALSE(reader->lost_data());
  }
  SECTION("a frame without times must say 0 to 0") {
    TraceWriter w(path);
    w.add(StringRecord{1, "only a string"});
    w.finish();
    set_time_range(path, 0, 0, 7);
    const Loaded l = load_file(path);
    REQUIRE(l.diagnostics.size() == 1);
    CHECK_THAT(l.diagnostics[0].message,
               Catch::Contains("e.g. frame 0 (events): header 0 to 7 ns, records without times"));
  }
}

TEST_CASE("lost data: corrupt frames and files cut inside a frame (not an unfinished file)",
          "[reader][fault]") {
  TempDir dir;
  const std::string path = dir.file("t.prof");
  write_frames(path);
  const auto [offset, h] = frame_at(path, 2);
  const auto lost = [&](const std::vector<uint8_t>& bytes) {
    write_bytes(dir.file("d.prof"), bytes);
    const auto reader = TraceReader::open(dir.file("d.prof"));
    Frame f;
    while (reader->next(f)) {
    }
    return reader->lost_data();
  };
  const std::vector<uint8_t> intact = read_bytes(path);
  CHECK_FALSE(lost(intact));
  std::vector<uint8_t> bytes = intact;
  bytes[offset + kFrameHeaderSize + h.stored_size / 2] ^= 0x40;  // payload checksum mismatch
  CHECK(lost(bytes));
  bytes.assign(intact.begin(), intact.begin() + static_cast<long>(offset + kFrameHeaderSize + 1));
  CHECK(lost(bytes));  // cut inside frame 2's payload
  bytes.assign(intact.begin(), intact.begin() + static_cast<long>(offset + 13));
  CHECK(lost(bytes));  // cut inside frame 2's header
  bytes.assign(intact.begin(), intact.begin() + static_cast<long>(offset));
  CHECK_FALSE(lost(bytes));  // cut between frames: not finished, nothing lost
}

TEST_CASE("dump's string texts show ids never defined as placeholders", "[reader][fault]") {
  const StringTable strings{{1, "work"}};
  const auto j = record_to_json(TaskKindRecord{3, 1}, &strings);
  CHECK(j["name_text"] == "work");
  const auto k = record_to_json(TaskKindRecord{4, 123}, &strings);
  CHECK(k["name_text"] == "<string 123 undefined>");
  CHECK(undefined_string_text(123) == "<string 123 undefined>");
}
