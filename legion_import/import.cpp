#include "legion_import/import.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "base/progress.hpp"
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
      // Its share of the load is its size on disk; how far through it the
      // reader is, by the decompressed bytes of records it expects.
      std::error_code ec;
      const auto disk = std::filesystem::file_size(path, ec);
      base::FileProgress progress(hints.progress, ec ? 0 : disk);
      const double per_byte = 1.0 / static_cast<double>(std::max<uint64_t>(reader->size_hint(), 1));
      Record r;
      for (uint64_t n = 1; reader->next(r); ++n) {
        collector.add(r);
        if (n % kPagesEvery == 0) {
          if (pages) {
            collector.table_ends(ends);
            pages->update(ends);
          }
          progress.at(static_cast<double>(reader->offset()) * per_byte);
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
