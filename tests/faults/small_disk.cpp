#include "faults/small_disk.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace legato::testing {

SmallDisk::SmallDisk(size_t bytes) {
  std::string pattern = (std::filesystem::temp_directory_path() / "legato-disk-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    why_ = std::string("cannot create a mount point: ") + std::strerror(errno);
    return;
  }
  dir_ = pattern;
  const std::string options = "size=" + std::to_string(bytes);
  if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    why_ = std::string("this machine cannot mount a small tmpfs (") + std::strerror(errno) +
           "; it needs root): the full-disk case is not exercised here";
    return;
  }
  mounted_ = true;
}

SmallDisk::~SmallDisk() {
  if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  if (!dir_.empty()) ::rmdir(dir_.c_str());
}

void SmallDisk::fill() {
  const int fd = ::open(file("filler").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::vector<char> block(4096, 'x');
  while (::write(fd, block.data(), block.size()) > 0) {
  }
  // The last partial block.
  while (::write(fd, block.data(), 1) > 0) {
  }
  ::close(fd);
}

void SmallDisk::unfill() {
  ::unlink(file("filler").c_str());
}

}  // namespace legato::testing
