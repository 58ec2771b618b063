// Creating a file that replaces whatever is at its path, without ever
// writing through a link someone planted there: the new file is created
// exclusively (O_EXCL | O_NOFOLLOW) under a fresh name in the same
// directory, then renamed over the path, which replaces a link itself, never
// its target. Trace files and reports are written this way.
#pragma once

#include <string>
#include <string_view>

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

// Writes `bytes` as the whole content of the file at `path`, replacing what
// is there through a new file beside it (a device or FIFO is written in
// place). Returns 0, or the errno of the failure (path is then as it was).
int write_replacing(const std::string& path, std::string_view bytes);

// True when `path` names something other than a regular file, a link or
// nothing (a device such as /dev/null, a FIFO): written in place, never
// replaced.
bool is_special_file(const std::string& path);

// Like replace_with for a file that stays open for writing (a trace): the new
// file is locked (flock) for as long as its descriptor is open, and it
// replaces `path` only when no live writer holds the file there; otherwise
// the new file is removed and EBUSY returned. The check and the rename happen
// under a lock on the directory, so two writers starting together cannot
// both pass it. Returns 0 or an errno.
int replace_unless_busy(const NewFile& file, const std::string& path);

}  // namespace legato::trace
