// The bytes of a log file, decompressed, through a bounded window: a plain
// file is read as it is; a gzip file (one member or several, told apart by
// its first bytes, never by its name) is inflated with ISA-L's igzip, about
// twice as fast as zlib, its CRC and length checked at the end of each
// member. A stream that ends early or is damaged gives every byte decoded
// before that point, and error() says why. Where a core would otherwise
// idle, a gzip file can be inflated on a thread of its own, a few blocks
// ahead of the decoder (Inflate::Ahead).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace legato::legion {

enum class Inflate { Inline, Ahead };

class LogInput {
 public:
  // Throws ImportError naming the file when it cannot be opened. Ahead
  // applies to gzip files only (a plain file's reads cost too little).
  explicit LogInput(const std::string& path, Inflate inflate = Inflate::Inline);
  ~LogInput();
  LogInput(const LogInput&) = delete;
  LogInput& operator=(const LogInput&) = delete;

  bool gzip() const { return gzip_; }
  // About how many bytes the file decodes to: a plain file's size; a gzip
  // file's from its trailer (ISIZE, the size modulo 4 GiB), trusted up to
  // 16 times the compressed size; 0 when unknown.
  uint64_t size_hint() const { return size_hint_; }

  uint64_t offset() const { return base_ + pos_; }  // bytes consumed of the decoded stream
  size_t available() const { return end_ - pos_; }
  const char* data() const { return buf_.data() + pos_; }
  void consume(size_t n) { pos_ += n; }
  // At least n bytes in the window unless the stream ends first.
  bool fill(size_t n);
  bool read(void* dst, size_t n);
  bool skip(size_t n);
  // Up to and excluding the terminator; false when the stream ends first or
  // the text passes `limit` bytes (then too_long is set).
  bool read_until(char terminator, std::string& out, size_t limit, bool& too_long);
  // Why the stream ended before its end ("unexpected end of file" when it
  // was cut short); empty when it ended cleanly or has not ended.
  const std::string& error() const;

 private:
  struct Inflater;
  struct Ahead;
  // Up to `room` decoded bytes into dst; 0 at the end of the stream. With
  // a thread ahead, next_bytes takes what it made, and only that thread
  // calls produce (and sets error_ until it is done).
  size_t next_bytes(char* dst, size_t room);
  size_t produce(char* dst, size_t room);
  void start(Inflate inflate);
  void run_ahead();
  size_t read_file(void* dst, size_t room);

  int fd_ = -1;
  bool gzip_ = false;
  uint64_t size_hint_ = 0;
  std::unique_ptr<Inflater> inflater_;
  std::unique_ptr<Ahead> ahead_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  uint64_t base_ = 0;  // stream offset of buf_[0]
  bool eof_ = false;
  std::string error_;
};

}  // namespace legato::legion
