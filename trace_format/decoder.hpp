// The raw payload of an events or footer frame -> records (FORMAT.md,
// "Sections and columns"). Every length and count is checked against the
// bytes actually present before anything is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "trace_format/record_batch.hpp"

namespace legato::trace {

struct DecodeResult {
  bool ok = true;
  std::string error;               // when !ok: what was wrong
  size_t error_offset = 0;         // byte offset inside the payload where it was found
  uint64_t out_of_range = 0;       // values too large for their field (stored truncated)
  std::string out_of_range_field;  // "kind.field" of the first such value
  uint64_t unknown_sections = 0;
  // Bytes of the payload's sections read whole before decoding stopped (the
  // payload's size when ok): decoding them again gives the same records.
  size_t sections_end = 0;
};

// A set of record kinds (bit k: RecordKind k; every kind is below 64).
using KindSet = uint64_t;
inline constexpr KindSet kAllKinds = ~KindSet{0};
template <class... R>
constexpr KindSet kinds_of() {
  return ((KindSet{1} << static_cast<uint32_t>(R::kKind)) | ...);
}

// Appends the records of every section of the kinds in `kinds` to batch
// (the others, unknown kinds included, are only checked and skipped). On a
// malformed section the sections before it are kept and the result says
// where decoding stopped.
DecodeResult decode_payload(const uint8_t* data, size_t size, RecordBatch& batch,
                            KindSet kinds = kAllKinds);

}  // namespace legato::trace
