#include "legion_import/log_input.hpp"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

#include "base/file_create.hpp"
#include "legion_import/header.hpp"

namespace legato::legion {

namespace {

// The window: a refill asks for most of it at once, read or inflated
// straight into it.
constexpr size_t kWindow = 512 * 1024;
constexpr size_t kCompressedChunk = 256 * 1024;
// Inflating ahead: blocks of this size, at most this many made and not
// yet taken (memory stays bounded whatever the decoder's pace).
constexpr size_t kAheadBlock = 512 * 1024;
constexpr size_t kAheadBlocks = 4;

std::string inflate_error(int code) {
  switch (code) {
    case ISAL_INVALID_BLOCK:
      return "invalid compressed data: a bad deflate block";
    case ISAL_INVALID_SYMBOL:
      return "invalid compressed data: a bad code";
    case ISAL_INVALID_LOOKBACK:
      return "invalid compressed data: a distance too far back";
    case ISAL_INVALID_WRAPPER:
      return "not a valid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "an unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check (the CRC or length in the trailer)";
    case ISAL_NEED_DICT:
      return "the stream needs a preset dictionary";
    default:
      return "inflate error " + std::to_string(code);
  }
}

}  // namespace

// One gzip member after another, from a chunk of compressed bytes.
struct LogInput::Inflater {
  inflate_state z{};
  std::vector<uint8_t> in = std::vector<uint8_t>(kCompressedChunk);
  bool in_eof = false;       // the file has no more compressed bytes
  bool member_done = false;  // the current member ended, trailer checked
  bool failed = false;       // error_ says why; nothing more comes

  // A new member starts at next_in (isal_inflate_init clears the input too).
  void start_member() {
    uint8_t* next = z.next_in;
    const uint32_t avail = z.avail_in;
    isal_inflate_init(&z);
    z.crc_flag = ISAL_GZIP;
    z.next_in = next;
    z.avail_in = avail;
    member_done = false;
  }
};

// The inflating thread and the blocks it hands to the decoder, in order.
struct LogInput::Ahead {
  std::mutex m;
  std::condition_variable cv;
  std::deque<std::vector<char>> made;    // oldest first
  std::vector<std::vector<char>> spare;  // taken blocks, for reuse
  bool done = false;                     // the last block is made; error_ is final
  bool stop = false;                     // the input is going away
  // The decoder's side alone: the block it takes bytes from, and whether
  // it has seen the end.
  std::vector<char> current;
  size_t taken = 0;
  bool finished = false;
  std::thread thread;
};

LogInput::LogInput(const std::string& path, Inflate inflate) : buf_(kWindow) {
  // Only regular files, as every trace reader: a FIFO would block the open
  // until someone writes to it, a device would never end. O_NONBLOCK and
  // fstat refuse one that appears at path after the check; they change
  // nothing for a regular file.
  const auto refuse = [&](const std::string& kind) {
    return ImportError(path + ": cannot open: " + base::not_a_file_reason(kind));
  };
  if (const std::string kind = base::special_file(path); !kind.empty()) throw refuse(kind);
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) throw ImportError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    const std::string kind = base::special_file_kind(st.st_mode);
    ::close(fd_);
    throw refuse(kind);
  }
  try {
    start(inflate);
  } catch (...) {  // bad_alloc: the destructor will not run
    ::close(fd_);
    throw;
  }
}

// After open: which the file is, how big it decodes to, and the inflating
// thread if it gets one.
void LogInput::start(Inflate inflate) {
  // The first two bytes say which it is; read (not pread) so that a pipe works.
  unsigned char head[2] = {0, 0};
  size_t got = 0;
  while (got < 2) {
    const size_t n = read_file(head + got, 2 - got);
    if (n == 0) break;
    got += n;
  }
  gzip_ = got == 2 && head[0] == 0x1f && head[1] == 0x8b;
  if (gzip_) {
    inflater_ = std::make_unique<Inflater>();
    std::memcpy(inflater_->in.data(), head, got);
    inflater_->z.next_in = inflater_->in.data();
    inflater_->z.avail_in = static_cast<uint32_t>(got);
    inflater_->start_member();
  } else {
    std::memcpy(buf_.data(), head, got);
    end_ = got;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<uint64_t>(st.st_size);
    unsigned char isize[4] = {0, 0, 0, 0};
    if (!gzip_) {
      size_hint_ = size;
    } else if (size >= 18 && ::pread(fd_, isize, 4, static_cast<off_t>(size - 4)) == 4) {
      const uint64_t trailer = isize[0] | isize[1] << 8 | isize[2] << 16 | uint64_t{isize[3]} << 24;
      size_hint_ = std::min(trailer, size * 16);  // a damaged trailer only misleads a hint
    }
  }
  if (gzip_ && inflate == Inflate::Ahead) {
    ahead_ = std::make_unique<Ahead>();
    try {
      ahead_->thread = std::thread([this] { run_ahead(); });
    } catch (const std::system_error&) {  // no thread to be had: inflate inline
      ahead_.reset();
    }
  }
}

LogInput::~LogInput() {
  if (ahead_) {
    {
      const std::lock_guard lock(ahead_->m);
      ahead_->stop = true;
    }
    ahead_->cv.notify_all();
    ahead_->thread.join();
  }
  if (fd_ >= 0) ::close(fd_);
}

const std::string& LogInput::error() const {
  static const std::string kNone;
  // With a thread ahead, error_ is its until the decoder has seen the end.
  return !ahead_ || ahead_->finished ? error_ : kNone;
}

void LogInput::run_ahead() {
  Ahead& a = *ahead_;
  for (bool end = false; !end;) {
    std::vector<char> block;
    {
      std::unique_lock lock(a.m);
      a.cv.wait(lock, [&] { return a.stop || a.made.size() < kAheadBlocks; });
      if (a.stop) return;
      if (!a.spare.empty()) {
        block = std::move(a.spare.back());
        a.spare.pop_back();
      }
    }
    size_t got = 0;
    try {
      block.resize(kAheadBlock);
      while (got < block.size()) {
        const size_t n = produce(block.data() + got, block.size() - got);
        if (n == 0) break;
        got += n;
      }
      end = got < block.size();
    } catch (const std::exception& e) {  // bad_alloc
      error_ = e.what();
      end = true;
    }
    block.resize(got);
    {
      const std::lock_guard lock(a.m);
      if (got > 0) a.made.push_back(std::move(block));
      a.done = end;
    }
    a.cv.notify_all();
  }
}

size_t LogInput::next_bytes(char* dst, size_t room) {
  if (!ahead_) return produce(dst, room);
  Ahead& a = *ahead_;
  size_t got = 0;
  while (got < room && !a.finished) {
    if (a.taken == a.current.size()) {
      std::unique_lock lock(a.m);
      if (a.current.capacity() > 0) a.spare.push_back(std::move(a.current));
      a.current = {};
      a.taken = 0;
      a.cv.wait(lock, [&] { return !a.made.empty() || a.done; });
      if (a.made.empty()) {
        a.finished = true;
        break;
      }
      a.current = std::move(a.made.front());
      a.made.pop_front();
      a.cv.notify_all();  // room for another block
    }
    const size_t n = std::min(room - got, a.current.size() - a.taken);
    std::memcpy(dst + got, a.current.data() + a.taken, n);
    a.taken += n;
    got += n;
  }
  return got;
}

size_t LogInput::read_file(void* dst, size_t room) {
  for (;;) {
    const ssize_t n = ::read(fd_, dst, room);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    error_ = std::strerror(errno);
    return 0;
  }
}

size_t LogInput::produce(char* dst, size_t room) {
  if (!gzip_) return error_.empty() ? read_file(dst, room) : 0;
  Inflater& f = *inflater_;
  inflate_state& z = f.z;
  bool need_input = false;  // the inflater took nothing from what it had
  while (!f.failed) {
    // Keep at least two compressed bytes at hand (a next member's magic).
    if ((z.avail_in < 2 || need_input) && !f.in_eof) {
      std::memmove(f.in.data(), z.next_in, z.avail_in);
      const size_t got = read_file(f.in.data() + z.avail_in, f.in.size() - z.avail_in);
      if (!error_.empty()) break;
      f.in_eof = got == 0;
      z.next_in = f.in.data();
      z.avail_in += static_cast<uint32_t>(got);
    }
    if (f.member_done) {
      // Another member, or the end: bytes after the last member that do
      // not start one are ignored, as zlib's gz reader does.
      if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) return 0;
      f.start_member();
    }
    z.next_out = reinterpret_cast<uint8_t*>(dst);
    z.avail_out =
        static_cast<uint32_t>(std::min<size_t>(room, std::numeric_limits<uint32_t>::max()));
    const uint32_t room_given = z.avail_out, in_given = z.avail_in;
    const int code = isal_inflate(&z);
    const size_t made = room_given - z.avail_out;
    if (code != ISAL_DECOMP_OK) {
      error_ = inflate_error(code);
      f.failed = true;
      return made;  // what decoded before the damage
    }
    f.member_done = z.block_state == ISAL_BLOCK_FINISH;
    if (made > 0) return made;
    if (f.member_done) continue;
    need_input = z.avail_in == in_given;
    if (f.in_eof && (z.avail_in == 0 || need_input)) {
      error_ = "unexpected end of file";
      break;
    }
    if (need_input && z.avail_in == f.in.size()) {  // a full chunk taken by nothing: never a hang
      error_ = "invalid compressed data: the stream stalls";
      break;
    }
  }
  f.failed = true;
  return 0;
}

bool LogInput::fill(size_t n) {
  if (available() >= n) return true;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, available());
    base_ += pos_;
    end_ -= pos_;
    pos_ = 0;
  }
  if (buf_.size() < n) buf_.resize(n);
  while (!eof_ && end_ < n) {
    const size_t got = next_bytes(buf_.data() + end_, buf_.size() - end_);
    if (got > 0) {
      end_ += got;
    } else {
      eof_ = true;
    }
  }
  return available() >= n;
}

bool LogInput::read(void* dst, size_t n) {
  if (!fill(n)) return false;
  std::memcpy(dst, data(), n);
  pos_ += n;
  return true;
}

bool LogInput::skip(size_t n) {
  while (n > 0) {
    if (!fill(1)) return false;
    const size_t k = std::min(n, available());
    pos_ += k;
    n -= k;
  }
  return true;
}

bool LogInput::read_until(char terminator, std::string& out, size_t limit, bool& too_long) {
  out.clear();
  too_long = false;
  for (;;) {
    if (!fill(1)) return false;
    const char* from = data();
    const void* hit = std::memchr(from, terminator, available());
    const size_t n = hit ? static_cast<size_t>(static_cast<const char*>(hit) - from) : available();
    if (out.size() + n > limit) {
      too_long = true;
      return false;
    }
    out.append(from, n);
    pos_ += n;
    if (hit) {
      ++pos_;
      return true;
    }
  }
}

}  // namespace legato::legion
