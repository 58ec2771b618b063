#include "trace_format/trace_test_util.hpp"

#include "trace_format/decoder.hpp"
#include "trace_format/metadata.hpp"

#include <fstream>
#include <iterator>

namespace legato::trace::testing {

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() /
          ("legato-test-" + std::to_string(rd()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::string random_text(std::mt19937_64& rng) {
  const size_t len = rng() % 4 == 0 ? 0 : rng() % 200;
  std::string s(len, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

void append_batch(RecordBatch& dst, const RecordBatch& src) {
  src.for_each_kind([&](const auto& v) {
    using R = typename std::remove_cvref_t<decltype(v)>::value_type;
    auto& out = dst.get<R>();
    out.insert(out.end(), v.begin(), v.end());
  });
  dst.unknown.insert(dst.unknown.end(), src.unknown.begin(), src.unknown.end());
}

Loaded load_all(TraceReader& reader) {
  Loaded l;
  Frame f;
  while (reader.next(f)) {
    if (f.header.type == FrameType::Events) append_batch(l.records, f.records);
    l.frames.push_back(f);
  }
  l.metadata = reader.metadata();
  l.diagnostics = reader.diagnostics();
  l.clean = reader.finished_cleanly();
  return l;
}

Loaded load_file(const std::string& path) {
  auto reader = TraceReader::open(path);
  return load_all(*reader);
}

void write_sample_trace(const std::string& path, int frames, int tasks_per_frame, uint64_t seed) {
  std::mt19937_64 rng(seed);
  TraceWriter w(path, WriterOptions{.zstd_level = 3, .chunk_bytes = 1 << 30, .compress = true});
  RunInfo run;
  run.id = "0123456789abcdef0123456789abcdef";
  run.host = "testhost";
  run.program = "sample";
  w.write_metadata({{"run", run.to_json()}, {"clock", {{"units", "ns"}}}});
  const uint32_t cpu = make_resource_id(0, 1);
  w.add(ProcessorRecord{cpu, ProcKind::Cpu, 0, w.intern("c0"), kNoResource});
  Time t = 1000;
  uint64_t seq = 1;
  for (int f = 0; f < frames; ++f) {
    for (int i = 0; i < tasks_per_frame; ++i) {
      const Uid op = make_uid(0, seq++);
      const uint32_t prov = w.intern("prog.cpp:" + std::to_string(10 + i % 7));
      w.add(OperationRecord{op, 0, OpKind::Task, 1, w.intern("add"), prov});
      TaskRecord task{make_uid(0, seq++), op, cpu, 1, 1, 0, 0, 0, 0};
      task.create = t;
      task.ready = t + 200 + static_cast<Time>(rng() % 300);
      task.start = task.ready + static_cast<Time>(rng() % 1000);
      task.stop = task.start + 2000 + static_cast<Time>(rng() % 5000);
      t = task.stop + 100;
      w.add(task);
      if (seq > 4) w.add(EdgeRecord{task.uid, task.uid - 2, EdgeKind::Data});
    }
    w.flush();
  }
  w.finish();
}

std::vector<uint8_t> forge_frame(FrameHeader h, const std::vector<uint8_t>& payload) {
  h.stored_size = static_cast<uint32_t>(payload.size());
  h.payload_crc = crc32_of(payload.data(), payload.size());
  std::vector<uint8_t> out(kFrameHeaderSize);
  encode_frame_header(h, out.data());
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

std::vector<uint8_t> forge_events_frame(const ByteBuffer& payload, uint32_t sequence,
                                        uint32_t records) {
  FrameHeader h;
  h.compression = Compression::None;
  h.raw_size = static_cast<uint32_t>(payload.size());
  h.sequence = sequence;
  h.record_count = records;
  RecordBatch batch;  // the header's time range, as a writer gives it
  decode_payload(payload.data(), payload.size(), batch);
  if (const auto range = time_range(batch)) std::tie(h.t_min, h.t_max) = *range;
  return forge_frame(h, std::vector<uint8_t>(payload.data(), payload.data() + payload.size()));
}

std::vector<uint8_t> forge_file_header(uint16_t major, uint16_t minor) {
  std::vector<uint8_t> out(kFileHeaderSize);
  FileHeader h;
  h.major = major;
  h.minor = minor;
  encode_file_header(h, out.data());
  return out;
}

void forge_section(ByteBuffer& out, uint32_t kind, const std::vector<ColumnCodec>& codecs,
                   const std::vector<std::vector<uint64_t>>& values,
                   const std::vector<std::string>& bytes_columns) {
  const size_t n = codecs.size();
  const size_t rows = values.empty() ? 0 : values[0].size();
  std::vector<ByteBuffer> cols(n);
  size_t next_bytes = 0;
  for (size_t c = 0; c < n; ++c) {
    if (codecs[c].codec == Codec::Bytes) {
      cols[c].append(bytes_columns[next_bytes].data(), bytes_columns[next_bytes].size());
      ++next_bytes;
      continue;
    }
    for (size_t i = 0; i < rows; ++i) {
      const uint64_t v = values[c][i];
      const ColumnCodec k = codecs[c];
      switch (k.codec) {
        case Codec::Raw:
          cols[c].put_varint(v);
          break;
        case Codec::Delta:
          cols[c].put_varint(zigzag_encode(static_cast<int64_t>(v - (i ? values[c][i - 1] : 0))));
          break;
        case Codec::SameRow:
          cols[c].put_varint(zigzag_encode(static_cast<int64_t>(v - values[k.ref][i])));
          break;
        case Codec::PrevRow:
          cols[c].put_varint(
              zigzag_encode(static_cast<int64_t>(v - (i ? values[k.ref][i - 1] : 0))));
          break;
        case Codec::Bytes:
          break;
      }
    }
  }
  put_section_header(out, kind, rows, codecs.data(), cols.data(), n);
  for (const auto& c : cols) out.append(c);
}

}  // namespace legato::trace::testing
