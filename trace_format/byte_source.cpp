#include "trace_format/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "base/file_create.hpp"
#include "trace_format/writer.hpp"

namespace legato::trace {
namespace {

class FileSource final : public ByteSource {
 public:
  FileSource(int fd, uint64_t size) : fd_(fd), size_(size) {}
  ~FileSource() override { ::close(fd_); }
  uint64_t size() const override { return size_; }
  bool read(uint64_t offset, size_t n, uint8_t* dst) const override {
    if (offset > size_ || n > size_ - offset) return false;
    while (n > 0) {
      const ssize_t got = ::pread(fd_, dst, n, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      dst += got;
      offset += static_cast<uint64_t>(got);
      n -= static_cast<size_t>(got);
    }
    return true;
  }

 private:
  int fd_;
  uint64_t size_;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(const uint8_t* data, size_t size) : bytes_(data, data + size) {}
  uint64_t size() const override { return bytes_.size(); }
  bool read(uint64_t offset, size_t n, uint8_t* dst) const override {
    if (offset > bytes_.size() || n > bytes_.size() - offset) return false;
    if (n > 0) std::memcpy(dst, bytes_.data() + offset, n);
    return true;
  }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace

std::unique_ptr<ByteSource> open_file_source(const std::string& path) {
  // Only regular files: a FIFO would block the open until someone writes to
  // it, a device would never end (and opening some has effects). Refused
  // before they are opened; O_NONBLOCK and fstat refuse one that appears
  // at path meanwhile. O_NONBLOCK changes nothing for a regular file.
  const auto refuse = [&](const std::string& kind) {
    return TraceError(path + ": cannot open: " + base::not_a_file_reason(kind), 0,
                      /*not_a_file=*/true);
  };
  if (const std::string kind = base::special_file(path); !kind.empty()) throw refuse(kind);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw TraceError(path + ": cannot open: " + std::strerror(err), err);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const std::string kind = base::special_file_kind(st.st_mode);
    ::close(fd);
    throw refuse(kind);
  }
  return std::make_unique<FileSource>(fd, static_cast<uint64_t>(st.st_size));
}

std::unique_ptr<ByteSource> make_memory_source(const uint8_t* data, size_t size) {
  return std::make_unique<MemorySource>(data, size);
}

}  // namespace legato::trace
