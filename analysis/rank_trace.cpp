#include "analysis/rank_trace.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <vector>

#include "legion_import/import.hpp"
#include "trace_format/file_create.hpp"
#include "trace_format/huge_pages.hpp"
#include "trace_format/pages_ahead.hpp"
#include "trace_format/reader.hpp"

namespace legato::analysis {

namespace {

// Records read before each kind's table is reserved at their rate
// (reserve_at_rate).
constexpr uint64_t kSampleRecords = uint64_t{1} << 16;

template <class R>
void append(std::vector<R>& to, std::vector<R>& from) {
  if (to.capacity() == 0) {  // nothing reserved: the frame's table becomes it
    to.swap(from);
  } else {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  }
  from.clear();
}

// Once the first frames are in: each kind's table reserved (as huge pages)
// for 1.25 times what the whole file would give it at their rate, `scale`
// times what it holds, so that a big file's tables do not grow by copying.
// Left to grow where that is over the reservation budget.
void reserve_at_rate(RankTrace& t, double scale) {
  reserve_tables([&](auto&& f) { t.all.for_each_kind(f); },
                 [&](const auto& table) {
                   return static_cast<size_t>(
                              std::min(1.25 * scale * static_cast<double>(table.size()), 1e15)) +
                          1024;
                 },
                 reservation_budget());
}

}  // namespace

RankTrace read_rank_trace(const std::string& path, bool spare_core) {
  // Only a regular file is opened (by either reader): a FIFO would block
  // the open until someone writes to it, a device would never end.
  if (const std::string kind = trace::special_file(path); !kind.empty()) {
    RankTrace t;
    t.file = path;
    t.problems.push_back(path + ": cannot open: " + trace::not_a_file_reason(kind));
    return t;
  }
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
  // A core to spare prefaults the tables' next pages while this one reads.
  std::unique_ptr<PagesAhead> pages;
  if (spare_core) pages = std::make_unique<PagesAhead>();
  std::vector<PagesAhead::Table> ends;
  bool sampled = false;
  while (reader->next(frame)) {
    if (frame.header.type != trace::FrameType::Events) continue;
    if (!sampled && t.records >= kSampleRecords) {  // the records before this frame's offset
      sampled = true;
      reserve_at_rate(t, static_cast<double>(reader->file_size()) /
                             static_cast<double>(std::max<uint64_t>(frame.offset, 1)));
    }
    t.records += frame.records.size();
    for (auto& s : frame.records.get<trace::StringRecord>()) t.strings[s.id] = std::move(s.text);
    frame.records.get<trace::StringRecord>().clear();
    for (const auto& u : frame.records.unknown) unknown_records += u.count;
    frame.records.unknown.clear();
    t.all.for_each_kind([&](auto& to) {
      using R = typename std::remove_cvref_t<decltype(to)>::value_type;
      append(to, frame.records.get<R>());
    });
    if (pages) {
      ends.clear();
      t.all.for_each_kind([&](const auto& table) { ends.push_back(PagesAhead::Table::of(table)); });
      pages->update(ends);
    }
  }
  pages.reset();
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
