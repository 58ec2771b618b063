#include "base/file_create.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>

namespace legato::base {

NewFile create_beside(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  // Names nobody can predict and no other thread or process shares; a name
  // that exists already (a planted link included) is skipped, never opened.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const uint64_t salt =
        static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        (counter.fetch_add(1) * 0x9e3779b97f4a7c15ULL);
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".%d.%016llx.tmp", static_cast<int>(::getpid()),
                  static_cast<unsigned long long>(salt));
    NewFile f{-1, path + suffix};
    f.fd = ::open(f.temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (f.fd >= 0) return f;
    if (errno != EEXIST) throw std::system_error(errno, std::generic_category());
  }
  throw std::system_error(EEXIST, std::generic_category());
}

int replace_with(const NewFile& file, const std::string& path) {
  if (::rename(file.temp_path.c_str(), path.c_str()) == 0) return 0;
  const int err = errno;
  ::unlink(file.temp_path.c_str());
  return err;
}

std::string special_file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

std::string special_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";  // nothing there (or a link to nothing)
  return special_file_kind(st.st_mode);
}

std::string not_a_file_reason(const std::string& kind) {
  return "Is " + kind + ", not a regular file";
}

namespace {

int write_all(int fd, std::string_view bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : ENOSPC;
    done += static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace

int write_replacing(const std::string& path, std::string_view bytes) {
  if (const std::string kind = special_file(path); !kind.empty())
    return kind == "a directory" ? EISDIR : ENXIO;
  NewFile f;
  try {
    f = create_beside(path);
  } catch (const std::system_error& e) {
    return e.code().value();
  }
  int err = write_all(f.fd, bytes);
  if (::close(f.fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(f.temp_path.c_str());
    return err;
  }
  return replace_with(f, path);
}

namespace {

// The directory holding path, open for locking.
int open_directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  return ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

// Whether a writer holds the regular file at path (its flock).
bool held_by_a_writer(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;  // nothing there, or a link: nobody writes through it
  struct stat st {};
  bool held = false;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

}  // namespace

int replace_unless_busy(const NewFile& file, const std::string& path) {
  // Nobody else can hold a lock on a new file: a failure here means a file
  // system without flock (ENOLCK, EOPNOTSUPP on some network mounts), where
  // nothing could hold the file at path either, so the check finds it free.
  (void)::flock(file.fd, LOCK_EX | LOCK_NB);
  const int dir = open_directory_of(path);
  const bool dir_locked = dir >= 0 && ::flock(dir, LOCK_EX) == 0;
  int err = 0;
  if (held_by_a_writer(path)) {
    ::unlink(file.temp_path.c_str());
    err = EBUSY;
  } else {
    err = replace_with(file, path);
  }
  if (dir_locked) ::flock(dir, LOCK_UN);
  if (dir >= 0) ::close(dir);
  return err;
}

}  // namespace legato::base
