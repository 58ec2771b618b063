#include "analysis/rank_trace.hpp"

#include <exception>

#include "legion_import/import.hpp"
#include "trace_format/reader.hpp"

namespace legato::analysis {

namespace {

template <class R>
void append(std::vector<R>& to, std::vector<R>& from) {
  if (to.empty()) {
    to.swap(from);
  } else {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  }
  from.clear();
}

}  // namespace

RankTrace read_rank_trace(const std::string& path, bool spare_core) {
  if (legion::is_legion_log(path))  // told apart by content
    return legion::import_log(path, legion::Links::WithRun,
                              spare_core ? legion::SpareCore::Yes : legion::SpareCore::No);
  RankTrace t;
  t.file = path;
  std::unique_ptr<trace::TraceReader> reader;
  try {
    reader = trace::TraceReader::open(path);
  } catch (const std::exception& e) {
    t.problems.push_back(e.what());
    return t;
  }
  t.readable = true;
  trace::Frame frame;
  uint64_t unknown_records = 0;
  while (reader->next(frame)) {
    if (frame.header.type != trace::FrameType::Events) continue;
    t.records += frame.records.size();
    for (auto& s : frame.records.get<trace::StringRecord>()) t.strings[s.id] = std::move(s.text);
    frame.records.get<trace::StringRecord>().clear();
    for (const auto& u : frame.records.unknown) unknown_records += u.count;
    frame.records.unknown.clear();
    t.all.for_each_kind([&](auto& to) {
      using R = typename std::remove_cvref_t<decltype(to)>::value_type;
      append(to, frame.records.get<R>());
    });
  }
  t.metadata = reader->metadata();
  std::vector<std::string> meta_problems;
  t.run = trace::RunInfo::from_json(t.metadata, meta_problems);
  for (const auto& p : meta_problems) t.problems.push_back(path + ": metadata: " + p);
  for (const auto& d : reader->diagnostics()) t.problems.push_back(d.format(path));
  t.finished_cleanly = reader->finished_cleanly();
  t.data_lost = reader->lost_data();
  if (unknown_records > 0) {
    t.problems.push_back(path + ": " + std::to_string(unknown_records) +
                         " records of kinds this version does not know were skipped "
                         "(written by a newer Legato)");
  }
  return t;
}

}  // namespace legato::analysis
