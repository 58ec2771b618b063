// Legion Prof logs as the per-rank input of analysis/: one file per node,
// read by LogReader, collected into LogData and converted into the same
// records a Legato .prof file holds, so every tool shows them unchanged.
#pragma once

#include <string>
#include <vector>

#include "analysis/rank_trace.hpp"
#include "legion_import/log_data.hpp"
#include "legion_import/log_input.hpp"

namespace legato::legion {

// Whether the file's content (never its name) says it is a Legion Prof log:
// gzip, "FileType:" or a text-format log. Never throws.
bool is_legion_log(const std::string& path);

// The file as one rank (node) of a run. Never throws: a file that cannot be
// imported comes back with readable = false and the reason in problems; a
// damaged one with the records before the damage and a problem naming the
// byte offset. Its critical-path links come from this file alone
// (Links::FileAlone), or are left in legion_links for link_runs to resolve
// with the other nodes of the run (Links::WithRun). SpareCore::Yes: a core
// would otherwise idle while this file loads, so a thread of its own works
// ahead of the one collecting its records: it inflates a gzip file
// (Inflate::Ahead), or prefaults the tables of a plain one (PagesAhead).
enum class Links { FileAlone, WithRun };
enum class SpareCore { No, Yes };
analysis::RankTrace import_log(const std::string& path, Links links = Links::FileAlone,
                               SpareCore spare = SpareCore::No);

// Resolves the critical path of every run among `traces` whose Legion logs
// left it pending, over all of the run's files together (an event in one
// node's log is often triggered by an item in another's), and keeps each
// file's links in its legion_links, resolved, where build_profile's model
// reads them (an edge record each, for a Legato trace). Traces without
// pending links are left alone.
void link_runs(std::vector<analysis::RankTrace>& traces);

// The conversion step alone (import_log = LogReader + Collector + this).
// `decoding` holds the reader's facts (header, records, compression) and
// problems; they go into the trace's metadata and problems.
struct DecodeFacts {
  std::string first_line;
  uint32_t format = 0;         // the header's format number (1009 on), else 0
  std::string legion_version;  // the header's second line (1009 on)
  size_t layouts = 0;
  uint64_t header_bytes = 0, records = 0, bytes = 0;
  bool compressed = false, clean_end = true, damaged = false;
  std::vector<std::string> problems;
};
analysis::RankTrace convert(LogData& data, const std::string& path, const DecodeFacts& facts,
                            Links links = Links::FileAlone);

// Legion logs name no run: nodes of one run have ZeroTimes within moments of
// each other (Realm sets them between two barriers). Gives the Legion logs
// among `traces` whose ZeroTimes lie within a second of each other, with
// the same node count and different node ids, one run id, so they load as
// one run, and any other Legion log its own (a separate run, left out with
// a warning by the loader). Legato traces are left alone.
void unify_runs(std::vector<analysis::RankTrace>& traces);

}  // namespace legato::legion
