#include "analysis/build.hpp"

#include <algorithm>
#include <set>
#include <thread>

#include "analysis/builder.hpp"
#include "analysis/kernel_names.hpp"
#include "analysis/units.hpp"

namespace legato::analysis {

namespace {

// Keeps the files of one run: the run of the first file given (the first
// named on the command line that could be read). Files of other runs and
// ranks given twice are left out, a warning naming each; then orders the
// files by rank and reports ranks missing.
void check_run(Profile& p, std::vector<RankTrace>& traces,
               const std::function<bool(int64_t)>& rank_wanted) {
  const std::string first_file = traces.front().file;
  p.run_id = traces.front().run.id;
  const auto shown = [](const std::string& id) { return id.empty() ? "(none)" : id; };
  std::vector<RankTrace> kept;
  std::set<int64_t> seen;
  for (auto& t : traces) {
    if (t.run.id != p.run_id) {
      p.warnings.push_back(t.file + ": left out: it belongs to run " + shown(t.run.id) +
                           ", not to run " + shown(p.run_id) + " of " + first_file +
                           " (the first file given decides the run; give the files of one run)");
      continue;
    }
    if (!seen.insert(t.run.rank).second) {
      p.warnings.push_back(t.file + ": rank " + std::to_string(t.run.rank) +
                           " was already loaded from another file; left out");
      continue;
    }
    kept.push_back(std::move(t));
  }
  std::sort(kept.begin(), kept.end(),
            [](const RankTrace& a, const RankTrace& b) { return a.run.rank < b.run.rank; });
  traces = std::move(kept);
  p.ranks_expected = std::max<int64_t>(1, traces.front().run.ranks);
  p.program = traces.front().run.program;
  std::string missing;
  for (int64_t r = 0; r < p.ranks_expected; ++r) {
    if (rank_wanted && !rank_wanted(r)) {
      p.ranks_left_out.push_back(r);
    } else if (!seen.count(r)) {
      missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    }
  }
  if (!missing.empty()) {
    p.warnings.push_back("the run had " + std::to_string(p.ranks_expected) +
                         " ranks but no file was given for rank(s) " + missing +
                         "; their lanes are missing (pass every legate_<rank>.prof of the run)");
  }
}

int64_t clock_value(const nlohmann::json& meta, const char* key, bool& present) {
  const auto clock = meta.find("clock");
  present = false;
  if (clock == meta.end() || !clock->is_object()) return 0;
  const auto v = clock->find(key);
  if (v == clock->end() || !v->is_number_integer()) return 0;
  present = true;
  return v->get<int64_t>();
}

// Files written by a multi-rank run carry rank 0's clock already
// (offset_to_reference_ns). Files without that figure are placed by their
// wall-clock start relative to the first rank, which is only as good as the
// hosts' clock synchronisation: say so.
void align_clocks(Profile& p, const std::vector<RankTrace>& traces) {
  bool ref_present = false;
  const int64_t ref_zero = clock_value(traces.front().metadata, "zero_unix_ns", ref_present);
  for (size_t i = 1; i < traces.size(); ++i) {
    RankInfo& r = p.ranks[i];
    bool aligned = false, zero_present = false;
    clock_value(traces[i].metadata, "offset_to_reference_ns", aligned);
    const int64_t zero = clock_value(traces[i].metadata, "zero_unix_ns", zero_present);
    if (aligned) continue;
    if (zero_present && ref_present) {
      r.clock_shift = static_cast<Time>(
          std::clamp(static_cast<double>(zero) - static_cast<double>(ref_zero),
                     -static_cast<double>(kTimeLimit), static_cast<double>(kTimeLimit)));
      p.warnings.push_back(traces[i].file +
                           ": no clock alignment recorded; placed by its wall-clock start "
                           "(accurate only to the hosts' clock synchronisation)");
    } else {
      p.warnings.push_back(traces[i].file +
                           ": no clock information; its times are taken as they are");
    }
  }
}

// The files' lost stretches on the run's clock, inside its span (a stretch
// lost to the end of a file ends where the run does).
void lost_spans(Profile& p, const std::vector<RankTrace>& traces) {
  for (size_t r = 0; r < traces.size() && r < p.ranks.size(); ++r) {
    for (const trace::LostSpan& l : traces[r].lost) {
      const auto at = [&](Time t, Time open) {
        if (t == trace::LostSpan::kFromStart || t == trace::LostSpan::kToEnd) return open;
        return std::clamp(std::clamp(t, -kTimeLimit, kTimeLimit) + p.ranks[r].clock_shift, p.start,
                          p.stop);
      };
      const Time from = at(l.from, p.start), to = at(l.to, p.stop);
      if (to > from) p.lost.push_back({p.ranks[r].rank, from, to, l.records, l.why});
    }
  }
}

}  // namespace

unsigned threads_or_cores(unsigned threads) {
  return threads ? threads : std::max(1u, std::thread::hardware_concurrency());
}

Profile build_profile(std::vector<RankTrace> traces, unsigned threads, const FinishRun& finish,
                      const std::function<bool(int64_t)>& rank_wanted,
                      const std::optional<TimeRange>& range) {
  threads = threads_or_cores(threads);
  Profile p;
  std::vector<RankTrace> readable;
  std::string unreadable;
  for (auto& t : traces) {
    for (const auto& problem : t.problems) p.warnings.push_back(problem);
    if (!t.readable || t.data_lost) p.incomplete_files.push_back(t.file);
    if (t.readable) {
      if (t.records == 0) {
        p.warnings.push_back(t.file +
                             ": the file holds no records (the run recorded nothing, or only "
                             "the file's header was written); nothing of it can be shown");
      }
      if (!t.finished_cleanly) {
        p.warnings.push_back(t.file +
                             ": the file was not finished (the run crashed, was killed, or "
                             "its disk filled up); showing what it holds");
      }
      readable.push_back(std::move(t));
    } else {
      unreadable += "\n  " + (t.problems.empty() ? t.file : t.problems.front());
    }
  }
  if (readable.empty()) throw LoadError("no trace could be read:" + unreadable);
  check_run(p, readable, rank_wanted);
  for (const auto& t : readable) {
    RankInfo r;
    r.rank = static_cast<uint32_t>(t.run.rank);
    r.file = t.file;
    r.host = t.run.host;
    r.metadata = t.metadata;
    r.finished_cleanly = t.finished_cleanly;
    r.records = t.records;
    const auto& stats = t.all.get<trace::RecorderStatsRecord>();
    if (!stats.empty()) r.dropped = stats.back().dropped;
    if (r.dropped > 0) {
      p.warnings.push_back(t.file + ": the recorder dropped " + std::to_string(r.dropped) +
                           " records (drop mode); lanes have gaps");
    }
    if (const auto stop = t.metadata.find("recording");
        stop != t.metadata.end() && stop->is_object() && stop->contains("stopped_at_ns")) {
      const auto at = stop->value("stopped_at_ns", nlohmann::json(0));
      const auto why = stop->value("reason", nlohmann::json("no reason given"));
      p.warnings.push_back(t.file + ": recording stopped early, at " +
                           (at.is_number() ? human_ns(at.get<double>()) : "an unknown time") +
                           " (" + (why.is_string() ? why.get<std::string>() : "no reason given") +
                           "); nothing after that was recorded");
    }
    p.records += t.records;
    p.ranks.push_back(std::move(r));
  }
  align_clocks(p, readable);
  // The readers' work over the whole run (LateEdges) beside the model's
  // first steps, which read no edges; then that thread helps stage the
  // items (at once, when there is nothing to finish).
  detail::Builder b(p, readable, threads, range);
  std::string finish_error;
  std::thread linking([&readable, &finish_error, &finish, &b] {
    try {
      if (finish) finish(readable);
    } catch (const std::exception& e) {
      finish_error = e.what();
    }
    try {
      b.help_staging();
    } catch (...) {  // a lock that failed: items() stages what is left
    }
  });
  struct Join {
    std::thread& t;
    detail::Builder& b;
    ~Join() {
      b.close_staging();
      if (t.joinable()) t.join();
    }
  } join{linking, b};
  b.strings();
  b.lanes();
  b.operations();
  b.items();
  b.errors();
  linking.join();
  if (!finish_error.empty()) p.warnings.push_back(finish_error);
  b.links();  // after errors: a failed run explains its missing items
  b.tree();
  b.undefined_strings();
  shorten_kernel_names(p);
  lost_spans(p, readable);
  return p;
}

}  // namespace legato::analysis
