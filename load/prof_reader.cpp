// The reader of Legato traces (legate_<rank>.prof), the registry's last:
// it takes any file no other reader recognizes, and its errors say what is
// wrong with one that is no trace.
#include "load/readers.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <vector>

#include "base/huge_pages.hpp"
#include "base/pages_ahead.hpp"
#include "trace_format/reader.hpp"

namespace legato::load {

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
void reserve_at_rate(analysis::RankTrace& t, double scale) {
  base::reserve_tables([&](auto&& f) { t.all.for_each_kind(f); },
                       [&](const auto& table) {
                         return static_cast<size_t>(std::min(
                                    1.25 * scale * static_cast<double>(table.size()), 1e15)) +
                                1024;
                       },
                       base::reservation_budget());
}

class ProfReader final : public analysis::RunReader {
 public:
  std::string_view name() const override { return "Legato trace"; }
  bool recognizes(std::string_view) const override { return true; }
  analysis::RankTrace read(const std::string& path,
                           const analysis::ReadHints& hints) const override;
};

analysis::RankTrace ProfReader::read(const std::string& path,
                                     const analysis::ReadHints& hints) const {
  analysis::RankTrace t;
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
  std::unique_ptr<base::PagesAhead> pages;
  if (hints.spare_core) pages = std::make_unique<base::PagesAhead>();
  std::vector<base::PagesAhead::Table> ends;
  bool sampled = false;
  base::FileProgress progress(hints.progress, reader->file_size());
  const double per_byte = 1.0 / static_cast<double>(std::max<uint64_t>(reader->file_size(), 1));
  while (reader->next(frame)) {
    progress.at(static_cast<double>(frame.offset) * per_byte);
    if (frame.header.type != trace::FrameType::Events) {
      // The metadata names the rank: a file of a rank not wanted stops here.
      std::vector<std::string> ignored;
      if (hints.rank_wanted && reader->metadata().contains("run") &&
          !hints.rank_wanted(trace::RunInfo::from_json(reader->metadata(), ignored).rank)) {
        t.left_out = true;
        break;
      }
      continue;
    }
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
      t.all.for_each_kind(
          [&](const auto& table) { ends.push_back(base::PagesAhead::Table::of(table)); });
      pages->update(ends);
    }
  }
  pages.reset();
  t.metadata = reader->metadata();
  std::vector<std::string> meta_problems;
  t.run = trace::RunInfo::from_json(t.metadata, meta_problems);
  if (t.left_out) return t;  // its problems are nobody's concern
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

}  // namespace

const analysis::RunReader& prof_reader() {
  static const ProfReader reader;
  return reader;
}

}  // namespace legato::load
