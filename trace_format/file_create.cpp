#include "trace_format/file_create.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <system_error>

namespace legato::trace {

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

int open_replacing(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
  }
  NewFile f;
  try {
    f = create_beside(path);
  } catch (const std::system_error& e) {
    return -e.code().value();
  }
  if (const int err = replace_with(f, path); err != 0) {
    ::close(f.fd);
    return -err;
  }
  return f.fd;
}

}  // namespace legato::trace
