#include "recorder/options.hpp"

namespace legato::rec {

std::string RecorderOptions::trace_path() const {
  return (logdir.empty() ? std::string(".") : logdir) + "/" + name + "_" + std::to_string(rank) +
         ".prof";
}

std::string RecorderOptions::validate() const {
  if (name.empty() || name.find('/') != std::string::npos) {
    return "invalid profile name '" + name + "': use a plain file name prefix such as 'legate'";
  }
  if (ranks == 0 || rank >= ranks) {
    return "invalid rank " + std::to_string(rank) + " of " + std::to_string(ranks) +
           " ranks: the rank must be below the rank count";
  }
  if (buffer_bytes < (4u << 10) || buffer_bytes > (64u << 20)) {
    return "invalid recorder buffer size " + std::to_string(buffer_bytes) +
           " bytes: use 4 KiB to 64 MiB";
  }
  if (max_buffers < 2 || max_buffers > (1u << 20)) {
    return "invalid recorder buffer count " + std::to_string(max_buffers) + ": use 2 to 1048576";
  }
  if (flush_interval_ms < 1 || flush_interval_ms > 10000) {
    return "invalid recorder flush interval " + std::to_string(flush_interval_ms) +
           " ms: use 1 to 10000 ms";
  }
  if (zstd_level < 1 || zstd_level > 19) {
    return "invalid zstd level " + std::to_string(zstd_level) + ": use 1 to 19";
  }
  return "";
}

}  // namespace legato::rec
