// Where a reader gets its bytes: a file (read with pread, never mapped whole)
// or a buffer in memory (tests, fuzzing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace legato::trace {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Reads exactly n bytes at offset into dst; false if they are not there.
  virtual bool read(uint64_t offset, size_t n, uint8_t* dst) const = 0;
};

// Throws TraceError if the file cannot be opened, or is not a regular file
// (TraceError::not_a_file: a FIFO, a socket, a device, a directory; refused
// without blocking, naming what it is).
std::unique_ptr<ByteSource> open_file_source(const std::string& path);
// The bytes are copied.
std::unique_ptr<ByteSource> make_memory_source(const uint8_t* data, size_t size);

}  // namespace legato::trace
