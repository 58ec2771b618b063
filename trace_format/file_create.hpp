// Creating a file that replaces whatever is at its path, without ever
// writing through a link someone planted there: the new file is created
// exclusively (O_EXCL | O_NOFOLLOW) under a fresh name in the same
// directory, then renamed over the path, which replaces a link itself, never
// its target. Trace files and reports are written this way.
#pragma once

#include <string>

namespace legato::trace {

// A file created exclusively beside `path` (mode 0644 less the umask),
// open for writing. Throws std::system_error (with errno) when it cannot be
// created.
struct NewFile {
  int fd = -1;
  std::string temp_path;
};
NewFile create_beside(const std::string& path);

// Renames the new file over `path` (atomically, on one file system).
// Returns 0, or the errno of the failure (the new file is then removed).
int replace_with(const NewFile& file, const std::string& path);

// A file open for writing at `path` from its first byte on: a regular file,
// a link or nothing there is replaced (create_beside, then replace_with);
// anything else (a device such as /dev/null, a FIFO) is opened as it is,
// never through a link. Returns the descriptor, or -errno.
int open_replacing(const std::string& path);

}  // namespace legato::trace
