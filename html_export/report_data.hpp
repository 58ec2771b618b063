// The report's embedded data: the profile model packed into one byte string
// that report.js decodes. Layout (all integers unsigned LEB128 varints,
// "svarint" zigzag-encoded signed ones):
//
//   u32 little-endian  length of the JSON header
//   JSON header        run, strings, nodes, lanes (rows), operations, errors, warnings
//   items              for each lane, each row, each item in start order:
//                        svarint start - (previous item's stop in the row, or run start)
//                        varint  duration
//                        varint  name (string index)
//                        varint  operation index + 1 (0: none)
//                        varint  kind | flags << 4
//                        svarint start - ready, svarint ready - create
//                        varint  bytes (copies, fills and instances only)
//                        varint  ready - start (instances only: when allocated)
//                        varint  preconditions n, then n x (svarint precondition - item, u8 kind)
//   waits              varint count, then per wait: varint item delta from the
//                      previous wait's item, svarint start - item start,
//                      varint ready - start, varint end - ready
#pragma once

#include <cstdint>
#include <string>

#include "analysis/profile.hpp"

namespace legato::html {

// The packed data (uncompressed).
std::string pack_profile(const analysis::Profile& p);

}  // namespace legato::html
