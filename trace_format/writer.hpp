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
  explicit TraceError(const std::string& what, int code = 0, bool not_a_file = false)
      : std::runtime_error(what), code_(code), not_a_file_(not_a_file) {}
  // The errno of the failure (0: not a system error). EBUSY: another run's
  // writer holds the file.
  int code() const { return code_; }
  // The disk (or quota, or file size limit) is full. The writer stays usable:
  // what it holds in reserve is enough to finish the file (see reserve_bytes).
  bool no_space() const;
  // The path holds something that is not a regular file (a FIFO, a socket, a
  // device, a directory: base/file_create.hpp's special_file), refused unopened.
  bool not_a_file() const { return not_a_file_; }

 private:
  int code_ = 0;
  bool not_a_file_ = false;
};

struct WriterOptions {
  int zstd_level = 3;
  // add() closes the current events frame once its payload reaches this size
  // (at most half the format's frame limit, whatever is asked).
  size_t chunk_bytes = 1 << 20;
  // add() also closes the frame at this many records, so one damaged frame
  // costs at most that many (bench_trace_format measures the size cost).
  uint32_t max_frame_records = 16384;
  // Disk space kept allocated past the end of the file (fallocate, where the
  // file system has it), enough for the last frames and the footer: a disk
  // that fills up stops the trace with a footer instead of cutting it short.
  // Given back when the file is finished. 0: none.
  size_t reserve_bytes = 0;
  // Writes Compression::None frames (for tests and debugging).
  bool compress = true;
};

class TraceWriter {
 public:
  // Writes the file header and first_metadata (when given) to a new file, then
  // puts it at path, replacing what is there: an earlier file or a link
  // (never written through), unless another writer still holds that file
  // (TraceError with code EBUSY, naming its run). Something that is not a
  // regular file at path (a FIFO, a socket, a device, a directory) is
  // refused unopened (TraceError::not_a_file). On failure path is left as it
  // was.
  explicit TraceWriter(const std::string& path, WriterOptions options = {},
                       const nlohmann::json* first_metadata = nullptr);
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
    const uint64_t n = chunk_.records();
    if (n >= options_.max_frame_records ||
        ((n & 255) == 0 && chunk_.encoded_bytes() >= chunk_limit_))
      flush();
  }

  // Writes the records added so far as one events frame (nothing if none).
  void flush();
  // Flushes, writes the footer and trailer and closes the file.
  void finish();
  // In a process forked from the one writing: closes this process's copy of
  // the file's descriptor, writing nothing (the parent goes on writing it),
  // so the fork does not keep the file held after the parent is done.
  // Async-signal-safe, as a fork handler needs.
  void close_in_fork();

  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return offset_; }
  uint64_t frames_written() const { return index_.size(); }
  // True once a write failed for a reason other than space (the error was
  // thrown then); later calls do nothing.
  bool failed() const { return failed_; }

 private:
  void write_frame(FrameType type, const ByteBuffer& raw, uint32_t records, Time t_min, Time t_max);
  void write_all(const void* a, size_t na, const void* b, size_t nb);
  void keep_reserve(uint64_t end);
  void give_back_reserve();
  void write_footer();
  [[noreturn]] void fail(const std::string& what, int err);

  std::string path_;
  WriterOptions options_;
  size_t chunk_limit_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  bool failed_ = false;
  bool finished_ = false;
  bool reserving_ = false;     // fallocate works here and reserve_bytes > 0
  bool out_of_space_ = false;  // the reserve could not grow: frames go into it
  uint64_t reserved_to_ = 0;   // space allocated up to this offset
  void* cctx_ = nullptr;       // ZSTD_CCtx
  ChunkEncoder chunk_;
  ByteBuffer raw_, compressed_;
  std::vector<ChunkIndexRecord> index_;
  std::map<uint32_t, uint64_t> kind_counts_;
  std::unordered_map<std::string, uint32_t> strings_;
};

}  // namespace legato::trace
