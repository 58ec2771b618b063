// The first bytes of a file, for telling formats apart by content.
#pragma once

#include <cstddef>
#include <string>

namespace legato::base {

// Up to `bytes` bytes from the start of the regular file at `path`, opened
// without blocking (a FIFO would wait for a writer): "" for anything else
// (a special file, a missing or unreadable one). Never throws.
std::string file_head(const std::string& path, size_t bytes);

}  // namespace legato::base
