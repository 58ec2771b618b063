// The reader of Legato traces (legate_<rank>.prof), the registry's last:
// it takes any file no other reader recognizes, and its errors say what is
// wrong with one that is no trace.
#include "load/readers.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <type_traits>
#include <vector>

#include "trace_format/reader.hpp"

namespace legato::load {

namespace {

// The kinds left in their frames (RankTrace::stored): the items, waits and
// edges, which a run holds tens of millions of and the model reads frame
// by frame. Operations (one per ten records) are kept decoded: the model
// reads them first, all together, and frees them.
constexpr trace::KindSet kStoredKinds =
    analysis::kItemRecordSet | trace::kinds_of<trace::WaitRecord, trace::EdgeRecord>();

template <class R>
void append(std::vector<R>& to, std::vector<R>& from) {
  if (to.empty()) {
    to.swap(from);
  } else {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  }
  from.clear();
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
  auto stored = std::make_shared<trace::StoredFrames>(kStoredKinds, reader->file_size());
  reader->keep_frames(stored.get());
  trace::Frame frame;
  uint64_t unknown_records = 0;
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
    t.records += frame.records.size();
    for (auto& s : frame.records.get<trace::StringRecord>()) t.strings[s.id] = std::move(s.text);
    frame.records.get<trace::StringRecord>().clear();
    for (const auto& u : frame.records.unknown) unknown_records += u.count;
    frame.records.unknown.clear();
    // The records of the stored kinds stay in the frame's bytes; what
    // counting the items needs of them is taken now.
    t.frame_items.push_back(analysis::tally_items(frame.records));
    t.all.for_each_kind([&](auto& to) {
      using R = typename std::remove_cvref_t<decltype(to)>::value_type;
      if (kStoredKinds & trace::kinds_of<R>()) return frame.records.get<R>().clear();
      append(to, frame.records.get<R>());
    });
  }
  reader->keep_frames(nullptr);
  if (!t.left_out) t.stored = std::move(stored);
  t.metadata = reader->metadata();
  std::vector<std::string> meta_problems;
  t.run = trace::RunInfo::from_json(t.metadata, meta_problems);
  if (t.left_out) return t;  // its problems are nobody's concern
  for (const auto& p : meta_problems) t.problems.push_back(path + ": metadata: " + p);
  for (const auto& d : reader->diagnostics()) t.problems.push_back(d.format(path));
  t.finished_cleanly = reader->finished_cleanly();
  t.data_lost = reader->lost_data();
  t.lost = reader->lost_spans();
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
