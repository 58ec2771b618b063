// Writes a .prof file: header, metadata frames, events frames as they fill,
// and on finish() a footer with the frame index and a trailer. Every frame
// goes to the file with one write as soon as it is complete, so a process
// that dies leaves every earlier frame readable.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "trace_format/encoder.hpp"
#include "trace_format/frame.hpp"

namespace legato::trace {

// A file that cannot be created, written or read; what() names the file and
// says what to do.
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WriterOptions {
  int zstd_level = 3;
  // add() closes the current events frame once its payload reaches this size
  // (at most half the format's frame limit, whatever is asked).
  size_t chunk_bytes = 1 << 20;
  // Writes Compression::None frames (for tests and debugging).
  bool compress = true;
};

class TraceWriter {
 public:
  // Creates (or truncates) path and writes the file header.
  explicit TraceWriter(const std::string& path, WriterOptions options = {});
  ~TraceWriter();  // finishes the file if finish() was not called
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // Writes a metadata frame now. Readers merge metadata frames key by key
  // (a later value of a top-level key replaces the earlier one).
  void write_metadata(const nlohmann::json& object);

  // The id of s, adding its definition to the current frame the first time.
  uint32_t intern(std::string_view s);

  template <class R>
  void add(const R& r) {
    if (failed_) return;
    chunk_.add(r);
    if ((chunk_.records() & 255) == 0 && chunk_.encoded_bytes() >= chunk_limit_) flush();
  }

  // Writes the records added so far as one events frame (nothing if none).
  void flush();
  // Flushes, writes the footer and trailer and closes the file.
  void finish();

  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return offset_; }
  uint64_t frames_written() const { return index_.size(); }
  // True once a write failed (the error was thrown then); later calls do nothing.
  bool failed() const { return failed_; }

 private:
  void write_frame(FrameType type, const ByteBuffer& raw, uint32_t records, Time t_min, Time t_max);
  void write_all(const void* a, size_t na, const void* b, size_t nb);
  [[noreturn]] void fail(const std::string& what, int err);

  std::string path_;
  WriterOptions options_;
  size_t chunk_limit_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  bool failed_ = false;
  bool finished_ = false;
  void* cctx_ = nullptr;  // ZSTD_CCtx
  ChunkEncoder chunk_;
  ByteBuffer raw_, compressed_;
  std::vector<ChunkIndexRecord> index_;
  std::map<uint32_t, uint64_t> kind_counts_;
  std::unordered_map<std::string, uint32_t> strings_;
};

}  // namespace legato::trace
