// A stretch of a file's time whose records could not be read (TraceReader::
// lost_spans): a corrupt frame (its header's time range), or damaged or
// missing frames between two intact ones (from the last intact frame's end
// to the next one's start).
#pragma once

#include <cstdint>
#include <string>

#include "trace_format/records.hpp"

namespace legato::trace {

struct LostSpan {
  static constexpr Time kFromStart = INT64_MIN, kToEnd = INT64_MAX;
  Time from = kFromStart, to = kToEnd;  // kFromStart / kToEnd: the trace's start / end
  uint64_t offset = 0;                  // where in the file
  uint64_t records = 0;                 // records the lost frames claimed (0: unknown)
  std::string why;                      // "payload checksum mismatch", ...
};

}  // namespace legato::trace
