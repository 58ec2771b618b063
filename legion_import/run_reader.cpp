// The Legion Prof logs' reader (import.hpp's run_reader).
#include <algorithm>
#include <map>
#include <stdexcept>

#include "legion_import/import.hpp"
#include "legion_import/log_reader.hpp"
#include "legion_import/run_links.hpp"

namespace legato::legion {

namespace {

// ns between the ZeroTimes of two nodes of one run, at most.
constexpr int64_t kSameRun = 1'000'000'000;

class LogRunReader final : public analysis::RunReader {
 public:
  std::string_view name() const override { return "Legion Prof log"; }
  bool recognizes(std::string_view head) const override {
    return sniff_head(head) != FileKind::Other;
  }
  analysis::RankTrace read(const std::string& path,
                           const analysis::ReadHints& hints) const override {
    return import_log(path, Links::WithRun, hints);
  }
  void name_runs(const std::vector<analysis::RankTrace*>& files) const override;
  void finish_run(const std::vector<analysis::RankTrace*>& files) const override;
};

void LogRunReader::name_runs(const std::vector<analysis::RankTrace*>& files) const {
  struct Entry {
    int64_t zero;
    analysis::RankTrace* trace;
  };
  std::vector<Entry> logs;
  for (analysis::RankTrace* t : files) {
    if (!t->readable) continue;
    const auto l = t->metadata.find("legion");
    if (l == t->metadata.end() || !l->is_object()) continue;
    const auto z = l->find("zero_time_ns");
    if (z == l->end() || !z->is_number_integer()) continue;
    logs.push_back(Entry{z->get<int64_t>(), t});
  }
  std::stable_sort(logs.begin(), logs.end(),
                   [](const Entry& a, const Entry& b) { return a.zero < b.zero; });
  std::vector<analysis::RankTrace*> group;
  const auto close = [&] {
    for (analysis::RankTrace* t : group) {
      t->run.id = group.front()->run.id;
      t->metadata["run"]["id"] = t->run.id;
    }
    group.clear();
  };
  for (size_t k = 0; k < logs.size(); ++k) {
    const analysis::RankTrace& t = *logs[k].trace;
    bool fits = !group.empty() && logs[k].zero - logs[k - 1].zero < kSameRun;
    for (const analysis::RankTrace* g : group) {
      fits = fits && g->run.ranks == t.run.ranks && g->run.rank != t.run.rank;
    }
    if (!fits) close();
    group.push_back(logs[k].trace);
  }
  close();
}

void LogRunReader::finish_run(const std::vector<analysis::RankTrace*>& files) const {
  try {
    detail::resolve_links(files);
  } catch (const std::exception& e) {  // bad_alloc on a huge event graph
    throw std::runtime_error("the Legion logs' critical paths could not be resolved (" +
                             std::string(e.what()) + "); items show no preconditions");
  }
}

}  // namespace

const analysis::RunReader& run_reader() {
  static const LogRunReader reader;
  return reader;
}

}  // namespace legato::legion
