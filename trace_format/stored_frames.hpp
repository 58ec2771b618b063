// Events frames kept as their stored bytes, for the records of some kinds
// to be decoded again when they are needed, and freed after: a reader that
// keeps a file's tasks, waits and edges this way holds about 6 bytes per
// record instead of 24 to 64 (records.hpp), and whoever builds from them
// decodes a frame at a time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "trace_format/decoder.hpp"
#include "trace_format/frame.hpp"
#include "trace_format/record_batch.hpp"

namespace legato::trace {

class StoredFrames {
 public:
  // kinds: the record kinds it keeps; bytes: room to reserve for the
  // frames (the file's size: what they can take at most).
  StoredFrames(KindSet kinds, uint64_t bytes);

  KindSet kinds() const { return kinds_; }
  // Keeps an events frame whose payload decoded (as far as `decoded`
  // says) into `records`: its stored bytes as they are (`compression` as
  // its header says) when it decoded whole, else the raw sections that did.
  void add(Compression compression, std::span<const uint8_t> stored, std::span<const uint8_t> raw,
           const DecodeResult& decoded, const RecordBatch& records);
  // Records of kind k the frames hold.
  uint64_t count(RecordKind k) const {
    return static_cast<uint32_t>(k) < counts_.size() ? counts_[static_cast<uint32_t>(k)] : 0;
  }
  // Bytes the frames take.
  uint64_t bytes() const { return bytes_.size(); }
  // Frames kept, in file order.
  size_t frames() const { return frames_.size(); }
  // Appends frame i's records of `kinds` to batch: the records it gave
  // when it was first decoded. Safe to call from several threads at once.
  void decode_frame(size_t i, KindSet kinds, RecordBatch& batch) const;
  // The kinds frame i holds records of.
  KindSet frame_kinds(size_t i) const { return frames_.at(i).kinds; }

 private:
  struct Kept {
    uint64_t at = 0;  // in bytes_
    uint32_t size = 0, raw_size = 0;
    Compression compression = Compression::None;
    KindSet kinds = 0;  // of those kept, the kinds it has records of
  };
  KindSet kinds_;
  std::vector<uint8_t> bytes_;
  std::vector<Kept> frames_;
  std::array<uint64_t, 64> counts_{};
};

}  // namespace legato::trace
