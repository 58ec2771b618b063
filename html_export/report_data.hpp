// The report's data: the profile model packed into parts that
// report_data.js decodes. The index (embedded in index.html) holds what the
// first screen needs at any size: the run, the lanes, an overview of every
// row's items per fold block, each avg line over a fixed grid of slices and
// what each detail chunk can be searched for. The items themselves, and
// the operations, live in chunks (files beside index.html, report.hpp) that
// the page loads where the user looks.
//
// Every part is laid out by pack_part (packed_bytes.hpp): a JSON header,
// then columns of unsigned LEB128 varints ("svarint": zigzag-encoded signed
// ones) unless noted.
//
// The index. Header: version, run, strings, kinds, item_kinds, copy_kinds,
// edge_kinds, nodes, lanes (rows: their item counts), errors, kernel
// signatures, findings (report_findings.hpp; absent when not given), fold
// (the sizes fold_summary.hpp summarises by), labels ([name, operation name,
// operation provenance] string ids: what items are named and searched by),
// lead_keys ([name, kind, label string] of the names and kinds folded items
// are coloured by), palette ([name * 16 + kind, and the CSS colours of its
// items running, ready and blocked] for every name and kind items have:
// analysis/palette.hpp), chunks (items and operations per chunk, the number
// of item chunks, the folder holding them), utilization (slices, and per avg line its node
// (-1: all), kind and whether it is known). Columns:
//    0 block_start   per fold block of kFoldBlock items (in item order, over
//                    all rows): svarint start of its first item - the
//                    previous block's (the first: - the run's start)
//    1 block_busy    total duration of its items
//    2 block_lead    lead key index of Profile::lead_blocks' item
//    3 group_lead    lead key index of Profile::lead_groups' item
//    4 row_span      per row: first start - run start, last stop - first
//                    start, busy time of its items before the first fold
//                    block starting in it (all of them if none does), and of
//                    all its items
//    5 utilization   per avg line, per slice: round(average in use x 10000)
//    6 chunk_labels  per detail chunk: the number of its labels, then per
//                    label (ascending) its index - the previous one's, and
//                    the number of the chunk's items that carry it
//
// A detail chunk: items [k kChunkItems, (k + 1) kChunkItems). Header:
// chunk, first, count, wait_notes ([wait index in the chunk, string]).
// Columns, one entry per item unless noted:
//    0 gap          svarint start - the previous item's stop if it is in
//                   the same row and chunk, else - the run's start
//    1 duration
//    2 name         string id
//    3 op           svarint (operation index + 1, 0: none) - the previous
//                   item's in the chunk
//    4 kind         kind | flags << 4 | a gather, scatter or reduction
//                   copy's CopyKind << 8
//    5 to_ready     svarint start - ready
//    6 to_create    svarint ready - create
//    7 bytes        copies, fills and instances only
//    8 allocated    ready - start, instances only
//    9 pre_count    the item's recorded preconditions (the page derives
//                   the mapped-by edge from its operation's last_meta)
//   10 pre_item     svarint precondition - item, per edge
//   11 pre_kind     u8 edge kind, per edge
//   12 wait_item    the number of waits first, then per wait its item's
//                   offset in the chunk - the previous wait's
//   13 wait_start   svarint start - item start
//   14 wait_ready   ready - start
//   15 wait_end     end - ready
//   16 inst_prov    per instance: string id of where its store was allocated
//   17 lead_block   u8 per kFoldBlock items: Profile::lead_blocks
//   18 lead_group   per kLeadGroup items: Profile::lead_groups
//
// An operation chunk: operations [k kChunkOps, ...). Header: chunk, first,
// count. Columns, one entry per operation: 0 name, 1 provenance (string
// ids), 2 parent (0: none, else zigzag(index - the parent's index) + 1),
// 3 uid (svarint: its low 48 bits - the previous operation's), 4 runtime
// (its meta-tasks' total duration), 5 items (its other items, not
// instances), 6 last_meta (Operation::last_meta + 1, 0: none). The page
// loads the operation chunks a detail chunk's items belong to with it (an
// item's label falls back to its operation's name; search and the findings
// read its provenance).
//
// One column per field lets deflate see runs of alike values (durations with
// durations, kinds with kinds), which interleaved fields hide.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/profile.hpp"
#include "html_export/report_tables.hpp"

namespace legato::html {

// Slices of each avg line's grid in the index.
inline constexpr int kUtilizationSlices = 4096;

// The index (uncompressed), with the findings (report_findings()) when not
// null; data_dir names the folder of the chunks beside index.html.
std::string pack_index(const analysis::Profile& p, const ReportTables& t,
                       const nlohmann::json& findings, const std::string& data_dir);
// Detail chunk k and operation chunk k (uncompressed).
std::string pack_item_chunk(const analysis::Profile& p, uint32_t k);
std::string pack_op_chunk(const analysis::Profile& p, const ReportTables& t, uint32_t k);

}  // namespace legato::html
