#include "legion_import/import.hpp"

#include <algorithm>
#include <exception>
#include <map>
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

analysis::RankTrace import_log(const std::string& path, Links links, SpareCore spare) {
  try {
    const bool ahead = spare == SpareCore::Yes;
    const auto reader = LogReader::open(path, ahead ? Inflate::Ahead : Inflate::Inline);
    Collector collector(reader->header());
    collector.expect(reader->size_hint());
    {
      // A plain file's spare core prefaults the tables' next pages (a gzip
      // file's inflates it).
      std::unique_ptr<PagesAhead> pages;
      if (ahead && !reader->compressed()) pages = std::make_unique<PagesAhead>();
      std::vector<PagesAhead::Table> ends;
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

void link_runs(std::vector<analysis::RankTrace>& traces) {
  std::map<std::string, std::vector<analysis::RankTrace*>> runs;
  for (auto& t : traces) {
    if (t.legion_links) runs[t.run.id].push_back(&t);
  }
  for (const auto& [id, files] : runs) detail::resolve_links(files);
}

void unify_runs(std::vector<analysis::RankTrace>& traces) {
  struct Entry {
    int64_t zero;
    size_t index;
  };
  std::vector<Entry> legion;
  for (size_t i = 0; i < traces.size(); ++i) {
    const auto& t = traces[i];
    if (!t.readable) continue;
    const auto l = t.metadata.find("legion");
    if (l == t.metadata.end() || !l->is_object()) continue;
    const auto z = l->find("zero_time_ns");
    if (z == l->end() || !z->is_number_integer()) continue;
    legion.push_back(Entry{z->get<int64_t>(), i});
  }
  std::sort(legion.begin(), legion.end(),
            [](const Entry& a, const Entry& b) { return a.zero < b.zero; });
  constexpr int64_t kSameRun = 1'000'000'000;  // ns between nodes' ZeroTimes
  std::vector<size_t> group;
  const auto close = [&] {
    for (size_t i : group) {
      auto& t = traces[i];
      t.run.id = traces[group.front()].run.id;
      t.metadata["run"]["id"] = t.run.id;
    }
    group.clear();
  };
  for (size_t k = 0; k < legion.size(); ++k) {
    const auto& t = traces[legion[k].index];
    bool fits = !group.empty() && legion[k].zero - legion[k - 1].zero < kSameRun;
    for (size_t i : group) {
      const auto& g = traces[i];
      fits = fits && g.run.ranks == t.run.ranks && g.run.rank != t.run.rank;
    }
    if (!fits) close();
    group.push_back(legion[k].index);
  }
  close();
}

}  // namespace legato::legion
