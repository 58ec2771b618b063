// Helpers for the trace format tests: random records of every kind, temp
// files, and loading everything a reader yields.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "trace_format/reader.hpp"
#include "trace_format/writer.hpp"

namespace legato::trace::testing {

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::filesystem::path path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::vector<uint8_t> read_bytes(const std::string& path);
void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

// A value for an integer field: extremes (0, 1, max, min...) a third of the
// time, small values a third, anything the rest.
template <class T>
T random_value(std::mt19937_64& rng) {
  using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::type_identity<T>>;
  using I = typename U::type;
  const uint64_t bits = rng();
  I v;
  switch (bits % 6) {
    case 0:
      v = std::numeric_limits<I>::max();
      break;
    case 1:
      v = std::numeric_limits<I>::min();
      break;
    case 2:
      v = static_cast<I>(bits % 3);
      break;
    case 3:
      v = static_cast<I>((bits >> 8) % 1000);
      break;
    default:
      v = static_cast<I>(rng());
      break;
  }
  return static_cast<T>(v);
}

std::string random_text(std::mt19937_64& rng);

// A record with every field random.
template <class R>
R random_record(std::mt19937_64& rng) {
  R r{};
  for_each_field<R>([&](const auto& f, auto) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    if constexpr (std::is_same_v<M, std::string>) {
      r.*(f.member) = random_text(rng);
    } else if constexpr (std::is_same_v<M, bool>) {
      r.*(f.member) = (rng() & 1) != 0;
    } else {
      r.*(f.member) = random_value<M>(rng);
    }
  });
  return r;
}

// Everything a reader yields, frame by frame, with its records merged.
struct Loaded {
  std::vector<Frame> frames;
  RecordBatch records;  // events frames only
  nlohmann::json metadata;
  std::vector<Diagnostic> diagnostics;
  bool clean = false;
};
Loaded load_all(TraceReader& reader);
Loaded load_file(const std::string& path);

// Appends every record of src (all kinds) to dst.
void append_batch(RecordBatch& dst, const RecordBatch& src);

// A realistic multi-frame trace: `frames` events frames of about
// `tasks_per_frame` tasks each, with metadata, strings and edges.
void write_sample_trace(const std::string& path, int frames, int tasks_per_frame,
                        uint64_t seed = 1);

// A frame as a writer would produce it (stored_size and CRCs filled in), for
// forging damaged or unusual files that still pass the checksums.
std::vector<uint8_t> forge_frame(FrameHeader header, const std::vector<uint8_t>& payload);
std::vector<uint8_t> forge_file_header(uint16_t major, uint16_t minor);
// An uncompressed events frame holding payload, its header giving the
// time range of the records it decodes to.
std::vector<uint8_t> forge_events_frame(const ByteBuffer& payload, uint32_t sequence = 0,
                                        uint32_t records = 0);
// A section from plain column values under the given codecs (the encoder's
// job done generically, so tests can write layouts the writer never does).
void forge_section(ByteBuffer& out, uint32_t kind, const std::vector<ColumnCodec>& codecs,
                   const std::vector<std::vector<uint64_t>>& values,
                   const std::vector<std::string>& bytes_columns = {});

}  // namespace legato::trace::testing
