// Legion Prof logs as the per-rank input of analysis/: one file per node,
// read by LogReader, collected into LogData and converted into the same
// records a Legato .prof file holds, so every tool shows them unchanged.
// run_reader() is what load/'s registry lists.
#pragma once

#include <string>
#include <vector>

#include "analysis/rank_trace.hpp"
#include "analysis/run_reader.hpp"
#include "legion_import/log_data.hpp"
#include "legion_import/log_input.hpp"

namespace legato::legion {

// Whether the file's content (never its name) says it is a Legion Prof log:
// gzip, "FileType:" or a text-format log. Never throws.
bool is_legion_log(const std::string& path);

// The file as one rank (node) of a run. Never throws: a file that cannot be
// imported comes back with readable = false and the reason in problems; a
// damaged one with the records before the damage and a problem naming the
// byte offset. Its critical-path links come from this file alone, as edge
// records (Links::FileAlone), or are left in its late_edges for the run
// reader's finish_run to resolve with the other nodes of the run
// (Links::WithRun). With a spare core (ReadHints), a thread of its own
// works ahead of the one collecting its records: it inflates a gzip file
// (Inflate::Ahead), or prefaults the tables of a plain one (PagesAhead).
enum class Links { FileAlone, WithRun };
analysis::RankTrace import_log(const std::string& path, Links links = Links::FileAlone,
                               const analysis::ReadHints& hints = {});

// The reader of Legion Prof logs, for load/'s registry: read is
// import_log(Links::WithRun); name_runs gives the logs of one run one run
// id (Legion logs name no run: nodes of one run have ZeroTimes within
// moments of each other, as Realm sets them between two barriers; logs
// whose ZeroTimes lie within a second of each other, with the same node
// count and different node ids, are one run; any other log is a run of its
// own, left out with a warning by the loader); finish_run resolves the
// run's critical path over all its files together (an event in one node's
// log is often triggered by an item in another's).
const analysis::RunReader& run_reader();

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

}  // namespace legato::legion
