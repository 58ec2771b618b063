// The user's line in a Python program: the innermost frame whose file is
// not part of the legato package, so an operation issued through
// legato.numpy is recorded at the line of the user's script that called it.
#pragma once

#include <cstdint>
#include <string>

namespace legato::python {

// Files under this directory (the package's own, as the bytes of its path)
// are skipped.
void set_package_dir(std::string dir);

struct UserSite {
  // The file's name as bytes (the runtime writes those that are not UTF-8
  // \xNN in what it records).
  std::string file = "<unknown>";
  uint32_t line = 0;
};
// Needs the GIL.
UserSite user_site();

}  // namespace legato::python
