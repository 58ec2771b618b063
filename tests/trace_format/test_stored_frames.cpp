// StoredFrames: events frames kept as their stored bytes decode again, kind
// by kind, to the records they gave when first read, also a frame that
// stopped decoding partway.
#include <vector>

#include <zstd.h>

#include <catch2/catch.hpp>

#include "trace_format/encoder.hpp"
#include "trace_format/stored_frames.hpp"

using namespace legato::trace;

namespace {

// A payload of 50 tasks then 30 edges, as a writer encodes it.
ByteBuffer payload() {
  SectionEncoder<TaskRecord> tasks;
  SectionEncoder<EdgeRecord> edges;
  for (uint64_t i = 1; i <= 50; ++i)
    tasks.add(TaskRecord{i, 100 + i, 7, 1, 1, Time(i * 10), Time(i * 10 + 5), 0, 0});
  for (uint64_t i = 1; i <= 30; ++i) edges.add(EdgeRecord{i + 1, i, EdgeKind::Data});
  ByteBuffer out;
  tasks.finish(out);
  edges.finish(out);
  return out;
}

std::vector<uint8_t> compressed(const ByteBuffer& raw) {
  std::vector<uint8_t> out(ZSTD_compressBound(raw.size()));
  out.resize(ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), 3));
  return out;
}

}  // namespace

TEST_CASE("a payload decodes only the kinds asked for", "[trace][stored]") {
  const ByteBuffer raw = payload();
  RecordBatch all, edges;
  REQUIRE(decode_payload(raw.data(), raw.size(), all).ok);
  const DecodeResult res = decode_payload(raw.data(), raw.size(), edges, kinds_of<EdgeRecord>());
  REQUIRE(res.ok);
  CHECK(res.sections_end == raw.size());
  CHECK(edges.get<TaskRecord>().empty());
  CHECK(edges.get<EdgeRecord>() == all.get<EdgeRecord>());
  CHECK(all.get<TaskRecord>().size() == 50);
}

TEST_CASE("stored frames decode again to their records, kind by kind", "[trace][stored]") {
  const ByteBuffer raw = payload();
  const std::vector<uint8_t> stored = compressed(raw);
  RecordBatch first;
  const DecodeResult res = decode_payload(raw.data(), raw.size(), first);
  StoredFrames frames(kinds_of<TaskRecord, EdgeRecord>(), 2 * stored.size());
  const std::span<const uint8_t> raw_bytes(raw.data(), raw.size());
  frames.add(Compression::Zstd, stored, raw_bytes, res, first);
  frames.add(Compression::Zstd, stored, raw_bytes, res, first);
  CHECK(frames.frames() == 2);
  CHECK(frames.count(RecordKind::Task) == 100);
  CHECK(frames.count(RecordKind::Edge) == 60);
  CHECK(frames.bytes() == 2 * stored.size());
  CHECK(frames.frame_kinds(1) == kinds_of<TaskRecord, EdgeRecord>());
  RecordBatch tasks;
  for (size_t i = 0; i < frames.frames(); ++i)
    frames.decode_frame(i, kinds_of<TaskRecord>(), tasks);
  REQUIRE(tasks.get<TaskRecord>().size() == 100);
  CHECK(tasks.get<EdgeRecord>().empty());
  CHECK(std::equal(first.get<TaskRecord>().begin(), first.get<TaskRecord>().end(),
                   tasks.get<TaskRecord>().begin() + 50));
  RecordBatch one;
  frames.decode_frame(1, kinds_of<EdgeRecord>(), one);
  CHECK(one.get<EdgeRecord>() == first.get<EdgeRecord>());
}

TEST_CASE("a frame that stopped decoding partway keeps the sections before the fault",
          "[trace][stored]") {
  ByteBuffer raw = payload();
  RecordBatch whole;
  REQUIRE(decode_payload(raw.data(), raw.size(), whole).ok);
  // A third section whose header claims more bytes than the frame holds.
  raw.put_varint(static_cast<uint32_t>(RecordKind::Task));
  raw.put_varint(5);
  raw.put_varint(1);
  raw.put_u8(0);
  raw.put_varint(1000);
  RecordBatch first;
  const DecodeResult res = decode_payload(raw.data(), raw.size(), first);
  REQUIRE_FALSE(res.ok);
  CHECK(first == whole);
  const std::vector<uint8_t> stored = compressed(raw);
  StoredFrames frames(kinds_of<TaskRecord, EdgeRecord>(), stored.size() + raw.size());
  frames.add(Compression::Zstd, stored, std::span<const uint8_t>(raw.data(), raw.size()), res,
             first);
  RecordBatch again;
  frames.decode_frame(0, kAllKinds, again);  // no throw: only the sections that decoded were kept
  CHECK(again == whole);
  CHECK(frames.count(RecordKind::Task) == 50);
}
