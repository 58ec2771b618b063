// Screenshots as PNG files: the path checked before the window opens, and
// the file written the way trace files and reports are (replacing whatever
// is at the path, never writing through a link planted there), with the
// system's reason when it cannot be.
#pragma once

#include <string>

namespace legato::viewer {

// Empty when a PNG can be written at path (a file is created beside it and
// removed again); else why not: "Permission denied", "No such file or
// directory", "Is a directory", "Is a named pipe (FIFO), not a regular
// file" (what is not a regular file is refused, never opened), ...
std::string check_writable(const std::string& path);

// Writes width x height RGBA pixels (top row first) as a PNG at path.
// Empty, or why it could not be written.
std::string write_png_file(const std::string& path, int width, int height,
                           const unsigned char* rgba);

// "cannot write the screenshot PATH: WHY; give a path in a writable
// directory": the line the viewer prints.
std::string screenshot_error(const std::string& path, const std::string& why);

}  // namespace legato::viewer
