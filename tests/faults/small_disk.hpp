// A disk that really fills up: a tmpfs of a given size mounted on a fresh
// directory. Mounting needs root (CI runs as root); where the machine cannot
// mount one, mounted() is false and why() says why, and the tests that need
// it skip with that message.
#pragma once

#include <cstddef>
#include <string>

namespace legato::testing {

class SmallDisk {
 public:
  explicit SmallDisk(size_t bytes);
  ~SmallDisk();
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::string& path() const { return dir_; }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }
  // Writes a filler file until the disk is full; unfill() removes it.
  void fill();
  void unfill();

 private:
  std::string dir_;
  std::string why_;
  bool mounted_ = false;
};

}  // namespace legato::testing

// In a Catch2 test: ends it with a warning that says why when the machine
// cannot mount the disk.
#define LEGATO_SKIP_WITHOUT(disk)      \
  if (!(disk).mounted()) {             \
    WARN("skipped: " << (disk).why()); \
    return;                            \
  }
