// The report's embedded data: the profile model packed into one byte string
// that report_data.js decodes. All integers are unsigned LEB128 varints,
// "svarint" zigzag-encoded signed ones. Layout:
//
//   u32 little-endian  length of the JSON header
//   JSON header        run, strings, nodes, lanes (rows), operations, errors, warnings,
//                      findings (report_findings.hpp; absent when not given), fold
//                      (the sizes fold_summary.hpp summarises folded items by)
//   varint             number of columns (19), then each column's byte length,
//                      then the columns one after the other
//
// Item columns hold one entry per item (for each lane, each row, each item in
// start order; that order is the model's item index), except where noted:
//    0 gap          svarint start - previous stop in the row (the run start first)
//    1 duration     varint
//    2 name         varint string index
//    3 op           svarint (operation index + 1, 0: none) - the previous item's in the row
//    4 kind         varint kind | flags << 4
//    5 to_ready     svarint start - ready
//    6 to_create    svarint ready - create
//    7 bytes        varint, copies, fills and instances only
//    8 allocated    varint ready - start, instances only
//    9 pre_count    varint recorded edges of the item (the mapped-by edge is
//                   derived in the page, as Profile::mapped_by does)
//   10 pre_item     svarint precondition - item, per edge
//   11 pre_kind     u8 edge kind, per edge
// Wait columns, one entry per wait (grouped by item, in time order):
//   12 wait_item    varint count first, then the item's delta from the previous wait's
//   13 wait_start   svarint start - item start
//   14 wait_ready   varint ready - start
//   15 wait_end     varint end - ready
// Instance columns, one entry per instance (in item order):
//   16 inst_prov    varint string index of where its store was allocated
// The lead tables (analysis/fold_summary.hpp), in item order:
//   17 lead_block   u8 per kFoldBlock items: Profile::lead_blocks
//   18 lead_group   varint per kLeadGroup items: Profile::lead_groups
//
// One column per field lets deflate see runs of alike values (durations with
// durations, kinds with kinds), which interleaved fields hide.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/profile.hpp"

namespace legato::html {

// The packed data (uncompressed), with the findings (report_findings()) when
// not null.
std::string pack_profile(const analysis::Profile& p,
                         const nlohmann::json& findings = nlohmann::json());

}  // namespace legato::html
