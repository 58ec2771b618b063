// Damaged files: cut short, bit flips, overwrites, random bytes, forged
// frames. The reader must never crash, never hang, and never hand back a
// frame that differs from what was written.
#include <catch2/catch.hpp>
#include <map>

#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

namespace {

struct Original {
  std::vector<uint8_t> bytes;
  std::map<uint64_t, Frame> frames;  // by offset
};

Original make_original(const TempDir& dir, int frames = 6, int tasks = 400) {
  const std::string path = dir.file("orig.prof");
  write_sample_trace(path, frames, tasks);
  Original o;
  o.bytes = read_bytes(path);
  for (Frame& f : load_file(path).frames) o.frames[f.offset] = f;
  return o;
}

struct Outcome {
  bool opened = false;
  std::vector<Frame> frames;
  std::vector<Diagnostic> diagnostics;
  bool clean = false;
};

Outcome read_memory(const std::vector<uint8_t>& bytes) {
  Outcome out;
  try {
    auto reader = TraceReader::open(make_memory_source(bytes.data(), bytes.size()), "damaged.prof");
    out.opened = true;
    Loaded l = load_all(*reader);
    out.frames = std::move(l.frames);
    out.diagnostics = std::move(l.diagnostics);
    out.clean = l.clean;
  } catch (const TraceError& e) {
    CHECK(std::string(e.what()).rfind("damaged.prof: ", 0) == 0);
  }
  return out;
}

// Every frame the reader returned is byte-for-byte what was written there.
void check_frames_intact(const Original& o, const Outcome& out) {
  for (const Frame& f : out.frames) {
    const auto it = o.frames.find(f.offset);
    REQUIRE(it != o.frames.end());
    CHECK(f.records == it->second.records);
    CHECK(f.metadata == it->second.metadata);
  }
}

}  // namespace

TEST_CASE("a file cut at a frame boundary loads every frame before the cut", "[damage]") {
  TempDir dir;
  const Original o = make_original(dir);
  size_t i = 0;
  for (const auto& [offset, frame] : o.frames) {
    std::vector<uint8_t> cut(o.bytes.begin(),
                             o.bytes.begin() + static_cast<std::ptrdiff_t>(offset));
    const Outcome out = read_memory(cut);
    REQUIRE(out.opened);
    CHECK(out.frames.size() == i);
    check_frames_intact(o, out);
    CHECK_FALSE(out.clean);
    REQUIRE(out.diagnostics.size() == 1);
    CHECK(out.diagnostics[0].offset == offset);
    CHECK(out.diagnostics[0].message.find("no footer") != std::string::npos);
    ++i;
  }
  // Without its trailer the file still loads whole, with a warning.
  std::vector<uint8_t> no_trailer(o.bytes.begin(), o.bytes.end() - kTrailerSize);
  const Outcome out = read_memory(no_trailer);
  CHECK(out.frames.size() == o.frames.size());
  CHECK_FALSE(out.clean);
  CHECK(out.diagnostics.size() == 1);
}

TEST_CASE("a file cut anywhere inside a frame yields the complete frames before it", "[damage]") {
  TempDir dir;
  const Original o = make_original(dir);
  std::vector<uint64_t> cuts;
  for (uint64_t at = 0; at < o.bytes.size(); at += 37) cuts.push_back(at);
  for (const auto& [offset, frame] : o.frames) {
    for (uint64_t d = 1; d <= 64; ++d) cuts.push_back(offset + d);
  }
  for (uint64_t at : cuts) {
    if (at >= o.bytes.size()) continue;
    std::vector<uint8_t> cut(o.bytes.begin(), o.bytes.begin() + static_cast<std::ptrdiff_t>(at));
    const Outcome out = read_memory(cut);
    if (at < kFileHeaderSize) {
      CHECK_FALSE(out.opened);
      continue;
    }
    REQUIRE(out.opened);
    check_frames_intact(o, out);
    CHECK_FALSE(out.clean);
    CHECK_FALSE(out.diagnostics.empty());
    // Exactly the frames that end before the cut.
    size_t complete = 0;
    for (const auto& [off, f] : o.frames) {
      complete += off + kFrameHeaderSize + f.header.stored_size <= at;
    }
    CHECK(out.frames.size() == complete);
  }
}

TEST_CASE("bit flips and overwrites are always detected and never alter a frame", "[damage]") {
  TempDir dir;
  const Original o = make_original(dir, 5, 200);
  std::mt19937_64 rng(99);
  int detected = 0;
  const int trials = 3000;
  for (int t = 0; t < trials; ++t) {
    std::vector<uint8_t> b = o.bytes;
    if (t % 2 == 0) {
      b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    } else {
      const size_t at = rng() % b.size();
      const size_t n = 1 + rng() % 8;
      for (size_t i = at; i < std::min(b.size(), at + n); ++i) {
        b[i] = static_cast<uint8_t>(b[i] + 1 + rng() % 255);  // always a different value
      }
    }
    const Outcome out = read_memory(b);
    check_frames_intact(o, out);
    // No damage goes unnoticed: every byte is covered by a checksum or check.
    const bool noticed = !out.opened || !out.diagnostics.empty();
    CHECK(noticed);
    detected += noticed;
  }
  CHECK(detected == trials);
}

TEST_CASE("random bytes are rejected or yield nothing", "[damage]") {
  std::mt19937_64 rng(5);
  for (int t = 0; t < 1000; ++t) {
    std::vector<uint8_t> b = t % 2 ? forge_file_header(1, 0) : std::vector<uint8_t>{};
    const size_t n = rng() % 4096;
    for (size_t i = 0; i < n; ++i) b.push_back(static_cast<uint8_t>(rng()));
    const Outcome out = read_memory(b);
    if (t % 2 == 0) {
      CHECK_FALSE(out.opened);  // no valid header
    } else {
      REQUIRE(out.opened);
      CHECK(out.frames.empty());
      CHECK_FALSE(out.diagnostics.empty());
    }
  }
}

TEST_CASE("forged frames with valid checksums but nonsense payloads are reported", "[damage]") {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 2000; ++t) {
    std::vector<uint8_t> payload(rng() % 512);
    for (auto& c : payload) c = static_cast<uint8_t>(rng() % 4 ? rng() % 8 : rng());
    FrameHeader h;
    h.type = static_cast<FrameType>(1 + rng() % 3);
    h.compression = t % 5 == 0 ? Compression::Zstd : Compression::None;
    h.raw_size = static_cast<uint32_t>(payload.size());
    std::vector<uint8_t> file = forge_file_header(1, 0);
    const std::vector<uint8_t> frame = forge_frame(h, payload);
    file.insert(file.end(), frame.begin(), frame.end());
    const Outcome out = read_memory(file);
    REQUIRE(out.opened);
    CHECK_FALSE(out.diagnostics.empty());  // at least "no footer"
  }
}

TEST_CASE("a corrupt frame in the middle is skipped and the rest loads", "[damage]") {
  TempDir dir;
  const Original o = make_original(dir);
  auto it = std::next(o.frames.begin(), 3);
  const uint64_t bad = it->first;
  std::vector<uint8_t> b = o.bytes;
  b[bad + kFrameHeaderSize + 10] ^= 0x40;
  const Outcome out = read_memory(b);
  REQUIRE(out.opened);
  check_frames_intact(o, out);
  CHECK(out.frames.size() == o.frames.size() - 1);
  CHECK(out.clean);  // the footer and trailer are intact
  REQUIRE(out.diagnostics.size() == 2);
  CHECK(out.diagnostics[0].offset == bad);
  CHECK(out.diagnostics[0].severity == Diagnostic::Severity::Error);
  CHECK(out.diagnostics[0].message.find("checksum") != std::string::npos);
  CHECK(out.diagnostics[1].message.find("footer lists 1 frames (" +
                                        std::to_string(it->second.header.record_count) +
                                        " records) that could not be read") != std::string::npos);
}

TEST_CASE("a corrupt frame header is skipped by finding the next frame", "[damage]") {
  TempDir dir;
  const Original o = make_original(dir);
  auto it = std::next(o.frames.begin(), 2);
  const uint64_t bad = it->first;
  const uint64_t next = std::next(it)->first;
  std::vector<uint8_t> b = o.bytes;
  b[bad + 9] ^= 0xff;  // the stored size: header CRC fails
  const Outcome out = read_memory(b);
  REQUIRE(out.opened);
  check_frames_intact(o, out);
  CHECK(out.frames.size() == o.frames.size() - 1);
  REQUIRE(out.diagnostics.size() >= 3);
  CHECK(out.diagnostics[0].offset == bad);
  CHECK(out.diagnostics[0].message.find("frame header checksum") != std::string::npos);
  CHECK(out.diagnostics[1].message.find("resumes at offset " + std::to_string(next)) !=
        std::string::npos);
  CHECK(out.diagnostics[2].message.find("frames 2 to 2 are missing") != std::string::npos);
}

TEST_CASE("absurd sizes and counts are rejected before anything is allocated", "[damage]") {
  std::vector<uint8_t> file = forge_file_header(1, 0);
  SECTION("a frame claiming 4 GiB decompressed") {
    FrameHeader h;
    h.compression = Compression::Zstd;
    h.raw_size = 0xffffffffu;
    const auto frame = forge_frame(h, std::vector<uint8_t>(16, 0));
    file.insert(file.end(), frame.begin(), frame.end());
    const Outcome out = read_memory(file);
    REQUIRE_FALSE(out.diagnostics.empty());
    CHECK(out.diagnostics[0].message.find("over the limit") != std::string::npos);
    CHECK(out.diagnostics[0].offset == kFileHeaderSize);
  }
  SECTION("a section claiming 2^60 records") {
    ByteBuffer payload;
    payload.put_varint(static_cast<uint32_t>(RecordKind::Task));
    payload.put_varint(uint64_t{1} << 60);
    payload.put_varint(1);
    payload.put_u8(0);
    payload.put_varint(3);
    payload.put_u8(1);
    payload.put_u8(2);
    payload.put_u8(3);
    const auto frame = forge_events_frame(payload);
    file.insert(file.end(), frame.begin(), frame.end());
    const Outcome out = read_memory(file);
    REQUIRE_FALSE(out.diagnostics.empty());
    CHECK(out.diagnostics[0].message.find("claims 1152921504606846976 records") !=
          std::string::npos);
  }
  SECTION("a string claiming more bytes than its column holds") {
    ByteBuffer payload;
    forge_section(payload, static_cast<uint32_t>(RecordKind::String),
                  {delta(), raw(), ColumnCodec{Codec::Bytes, 1}},
                  {{1, 2}, {uint64_t{1} << 63, uint64_t{1} << 63}, {}}, {"ab"});
    const auto frame = forge_events_frame(payload);
    file.insert(file.end(), frame.begin(), frame.end());
    const Outcome out = read_memory(file);
    REQUIRE_FALSE(out.diagnostics.empty());
    CHECK(out.diagnostics[0].severity == Diagnostic::Severity::Error);
    CHECK(out.frames.size() == 1);
    CHECK(out.frames[0].records.size() == 0);
  }
}
