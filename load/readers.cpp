#include "load/readers.hpp"

#include <algorithm>

#include "base/file_create.hpp"
#include "base/file_head.hpp"
#include "legion_import/import.hpp"

namespace legato::load {

namespace {

// The files each reader read, in the order given.
template <class Each>
void by_reader(std::vector<analysis::RankTrace>& traces, Each&& each) {
  for (const analysis::RunReader* reader : run_readers()) {
    std::vector<analysis::RankTrace*> files;
    for (auto& t : traces) {
      if (t.reader == reader->name()) files.push_back(&t);
    }
    if (!files.empty()) each(*reader, files);
  }
}

}  // namespace

const std::vector<const analysis::RunReader*>& run_readers() {
  static const std::vector<const analysis::RunReader*> readers{&legion::run_reader(),
                                                               &prof_reader()};
  return readers;
}

const analysis::RunReader& reader_for(const std::string& path) {
  const std::string head = base::file_head(path, analysis::RunReader::kHeadBytes);
  for (const analysis::RunReader* reader : run_readers()) {
    if (reader->recognizes(head)) return *reader;
  }
  return prof_reader();
}

analysis::RankTrace read_file(const std::string& path, const analysis::ReadHints& hints) {
  // Only a regular file is opened (by any reader): a FIFO would block the
  // open until someone writes to it, a device would never end.
  if (const std::string kind = base::special_file(path); !kind.empty()) {
    analysis::RankTrace t;
    t.file = path;
    t.problems.push_back(path + ": cannot open: " + base::not_a_file_reason(kind));
    return t;
  }
  const analysis::RunReader& reader = reader_for(path);
  analysis::RankTrace t = reader.read(path, hints);
  t.reader = reader.name();
  return t;
}

void name_runs(std::vector<analysis::RankTrace>& traces) {
  by_reader(traces,
            [](const analysis::RunReader& reader, const auto& files) { reader.name_runs(files); });
}

void finish_run(std::vector<analysis::RankTrace>& files) {
  by_reader(files,
            [](const analysis::RunReader& reader, const auto& mine) { reader.finish_run(mine); });
}

}  // namespace legato::load
