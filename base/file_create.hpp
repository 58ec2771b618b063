// Creating a file that replaces whatever is at its path, without ever
// writing through a link someone planted there: the new file is created
// exclusively (O_EXCL | O_NOFOLLOW) under a fresh name in the same
// directory, then renamed over the path, which replaces a link itself, never
// its target. Trace files and reports are written this way.
#pragma once

#include <string>
#include <string_view>

namespace legato::base {

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
// is there through a new file beside it. Something at path that is not a
// file (special_file) is refused, never opened: EISDIR for a directory,
// ENXIO for the others (a FIFO, a socket, a device). Returns 0, or the errno
// of the failure (path is then as it was).
int write_replacing(const std::string& path, std::string_view bytes);

// What is at `path`, following a link, when it is neither a regular file nor
// nothing: "a named pipe (FIFO)", "a socket", "a character device", "a block
// device", "a directory"; "" for a regular file, nothing, or a link to
// nothing. Such a path is never opened for reading or writing by the tools
// or the recorder (a FIFO would block them forever; a device would never
// end): they refuse it, saying what it is. Never blocks.
std::string special_file(const std::string& path);
// The same for a file's mode (st_mode of stat or fstat).
std::string special_file_kind(unsigned mode);
// Why a path where special_file found `kind` is refused, worded as the
// system words its reasons: "Is a named pipe (FIFO), not a regular file".
std::string not_a_file_reason(const std::string& kind);

// Like replace_with for a file that stays open for writing (a trace): the new
// file is locked (flock) for as long as its descriptor is open, and it
// replaces `path` only when no live writer holds the file there; otherwise
// the new file is removed and EBUSY returned. The check and the rename happen
// under a lock on the directory, so two writers starting together cannot
// both pass it. Returns 0 or an errno.
int replace_unless_busy(const NewFile& file, const std::string& path);

}  // namespace legato::base
