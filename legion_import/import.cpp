#include "legion_import/import.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <vector>

#include "legion_import/collect.hpp"
#include "legion_import/converter.hpp"
#include "legion_import/log_reader.hpp"

namespace legato::legion {

namespace {
// Records collected between two reports of the tables' ends to PagesAhead.
constexpr uint64_t kPagesEvery = 16384;
}  // namespace

bool is_legion_log(const std::string& path) {
  return sniff_file(path) != FileKind::Other;
}

analysis::RankTrace import_log(const std::string& path, Links links,
                               const analysis::ReadHints& hints) {
  try {
    const bool ahead = hints.spare_core;
    const auto reader = LogReader::open(path, ahead ? Inflate::Ahead : Inflate::Inline);
    Collector collector(reader->header());
    collector.expect(reader->size_hint());
    {
      // A plain file's spare core prefaults the tables' next pages (a gzip
      // file's inflates it).
      std::unique_ptr<base::PagesAhead> pages;
      if (ahead && !reader->compressed()) pages = std::make_unique<base::PagesAhead>();
      std::vector<base::PagesAhead::Table> ends;
      Record r;
      for (uint64_t n = 1; reader->next(r); ++n) {
        collector.add(r);
        if (pages && n % kPagesEvery == 0) {
          collector.table_ends(ends);
          pages->update(ends);
        }
      }
    }
    DecodeFacts facts;
    facts.first_line = reader->header().first_line;
    facts.format = reader->header().format;
    facts.legion_version = reader->header().legion_version;
    facts.layouts = reader->header().layouts.size();
    facts.header_bytes = reader->header().size;
    facts.records = reader->records();
    facts.bytes = reader->offset();
    facts.compressed = reader->compressed();
    facts.clean_end = reader->clean_end();
    facts.damaged = reader->damaged();
    facts.problems = reader->problems();
    return convert(collector.data(), path, facts, links);
  } catch (const std::exception& e) {  // ImportError, or bad_alloc on a hostile file
    analysis::RankTrace t;
    t.file = path;
    const std::string what = e.what();
    t.problems.push_back(what.rfind(path, 0) == 0 ? what : path + ": " + what);
    return t;
  }
}

}  // namespace legato::legion
