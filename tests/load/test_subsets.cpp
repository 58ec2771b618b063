// Loading part of a run (view --nodes): which ranks a filter names, that
// the files of other ranks are left out (a Legato trace's as soon as its
// first frame names its rank), and that what is loaded is what the whole
// run shows of those ranks, for Legato traces and Legion logs alike.
// Inputs are written through the writers' APIs (nothing ran).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "load/load.hpp"
#include "load/rank_filter.hpp"
#include "load/readers.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {

load::RankFilter filter(const std::string& text) {
  std::string error;
  const auto f = load::RankFilter::parse(text, &error);
  INFO(text << ": " << error);
  REQUIRE(f);
  return *f;
}

// Every item of the lanes of `ranks`: (rank, lane, start, stop, name).
using Shown =
    std::vector<std::tuple<uint32_t, std::string, analysis::Time, analysis::Time, std::string>>;
Shown shown(const analysis::Profile& p, const std::set<uint32_t>& ranks) {
  Shown out;
  for (const auto& lane : p.lanes) {
    if (!ranks.count(lane.rank)) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i)
      out.emplace_back(lane.rank, lane.name, p.items[i].start, p.items[i].stop(), p.label(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Four ranks of two CPUs each, every rank its own task names.
std::vector<std::string> write_four_ranks(TempDir& dir) {
  std::vector<std::string> files;
  for (uint32_t rank = 0; rank < 4; ++rank) {
    files.push_back(dir.file("legate_" + std::to_string(rank) + ".prof"));
    analysis::testing::SyntheticTrace t(files.back(), rank, 4);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto k = t.task_kind("step" + std::to_string(rank));
    for (int i = 0; i < 500; ++i) {
      const trace::Time at = 1000 * i + 10 * rank;
      t.task(i % 2 ? c1 : c0, k, at, at + 700);
    }
    t.finish();
  }
  return files;
}

}  // namespace

TEST_CASE("a node filter reads ranks and ranges as users write them", "[load]") {
  const auto f = filter("0-3,7");
  for (const int64_t r : {0, 1, 2, 3, 7}) CHECK(f.contains(r));
  for (const int64_t r : {4, 6, 8, 70}) CHECK_FALSE(f.contains(r));
  CHECK(f.text() == "0-3, 7");
  CHECK(filter("9, 3,1-2,2-4").text() == "1-4, 9");
  CHECK(filter("5").text() == "5");
  for (const char* bad : {"", "a", "5-3", "1,,2", "-1", "3-", "99999999999", "1.5", "0x3"}) {
    std::string error;
    INFO("'" << bad << "'");
    CHECK_FALSE(load::RankFilter::parse(bad, &error));
    CHECK_FALSE(error.empty());
  }
  std::string error;
  load::RankFilter::parse("5-3", &error);
  CHECK(error == "'5-3' ends before it starts (write the smaller rank first)");
  load::RankFilter::parse("1,x", &error);
  CHECK(error == "'x' is not a rank or a range of ranks (such as 0-3,7)");
}

TEST_CASE("a Legato run loaded in part shows its nodes as the whole run does", "[load]") {
  TempDir dir;
  const auto files = write_four_ranks(dir);
  const analysis::Profile whole = load::load_profile(files);
  load::LoadOptions options;
  options.nodes = filter("1,3");
  const analysis::Profile part = load::load_profile(files, options);
  CHECK(part.ranks.size() == 2);
  CHECK(part.ranks_left_out == std::vector<int64_t>{0, 2});
  std::vector<uint32_t> nodes;
  for (const auto& n : part.nodes) nodes.push_back(n.rank);
  CHECK(nodes == std::vector<uint32_t>{1, 3});
  CHECK(part.ranks_expected == 4);
  // Left out on purpose: not reported missing, as the whole run's lack of
  // clock alignment is (SyntheticTrace records none).
  for (const auto& w : part.warnings) CHECK_THAT(w, Catch::EndsWith("clock synchronisation)"));
  CHECK(part.warnings.size() == 1);
  CHECK(shown(part, {0, 1, 2, 3}) == shown(whole, {1, 3}));
  CHECK(shown(part, {1, 3}).size() == 1000);
  // The reader stops at a file's first frame when its rank is not wanted.
  analysis::ReadHints hints;
  hints.rank_wanted = [](int64_t r) { return r == 1; };
  const analysis::RankTrace skipped = load::read_file(files[2], hints);
  CHECK(skipped.readable);
  CHECK(skipped.left_out);
  CHECK(skipped.run.rank == 2);
  CHECK(skipped.records == 0);
  CHECK(skipped.problems.empty());
  const analysis::RankTrace kept = load::read_file(files[1], hints);
  CHECK_FALSE(kept.left_out);
  CHECK(kept.records >= 500);
  // Nodes no file holds: an error that says which the files hold.
  options.nodes = filter("9-12");
  try {
    (void)load::load_profile(files, options);
    FAIL("loaded nodes no file holds");
  } catch (const analysis::LoadError& e) {
    CHECK(std::string(e.what()) ==
          "no file given holds node(s) 9-12; the files hold node(s) 0, 1, 2, 3");
  }
}

TEST_CASE("a Legion run loaded in part shows its nodes as the whole run does", "[load]") {
  TempDir dir;
  legion::testing::write_synthetic_run(dir.path().string(), 3, 3000, false);
  const std::vector<std::string> files{dir.file("prof_0.prof"), dir.file("prof_1.prof"),
                                       dir.file("prof_2.prof")};
  const analysis::Profile whole = load::load_profile(files);
  load::LoadOptions options;
  options.nodes = filter("0,2");
  const analysis::Profile part = load::load_profile(files, options);
  CHECK(part.ranks.size() == 2);
  CHECK(part.ranks_left_out == std::vector<int64_t>{1});
  std::vector<uint32_t> nodes;
  for (const auto& n : part.nodes) nodes.push_back(n.rank);
  CHECK(nodes == std::vector<uint32_t>{0, 2});
  const Shown mine = shown(part, {0, 1, 2});
  CHECK(mine == shown(whole, {0, 2}));
  CHECK(mine.size() > 3000);
}

namespace {

// A part loaded for [a, b] ns from the run's start holds every item of the
// whole run that overlaps that window, and only items of the whole run;
// what it left out is counted, and the edges and waits that name those
// items are not reported as damage. It holds at most `share` of the run.
void check_range(const analysis::Profile& whole, const analysis::Profile& part, double a, double b,
                 double share) {
  REQUIRE(part.window);
  const analysis::Time origin = part.window->origin;
  CHECK(origin == whole.start);
  CHECK(part.window->from == origin + static_cast<analysis::Time>(a));
  CHECK(part.window->to == origin + static_cast<analysis::Time>(b));
  std::set<uint32_t> ranks;
  for (const auto& r : whole.ranks) ranks.insert(r.rank);
  const Shown all = shown(whole, ranks), mine = shown(part, ranks);
  CHECK(mine.size() + part.window->items_left_out == all.size());
  CHECK(static_cast<double>(mine.size()) < share * static_cast<double>(all.size()));
  CHECK(std::includes(all.begin(), all.end(), mine.begin(), mine.end()));
  size_t inside = 0;
  for (const auto& item : all) {
    const auto [rank, lane, start, stop, name] = item;
    if (start > part.window->to || stop < part.window->from) continue;
    ++inside;
    if (!std::binary_search(mine.begin(), mine.end(), item))
      FAIL("an item in the window was left out: " << lane << " " << start << " " << name);
  }
  CHECK(inside > 0);
  for (const auto& w : part.warnings) CHECK_THAT(w, !Catch::Contains("missing from the loaded"));
}

}  // namespace

TEST_CASE("a Legato run loaded for a range of its time holds every item in it", "[load]") {
  TempDir dir;
  std::vector<std::string> files;
  for (uint32_t rank = 0; rank < 2; ++rank) {
    files.push_back(dir.file("legate_" + std::to_string(rank) + ".prof"));
    analysis::testing::SyntheticTrace t(files.back(), rank, 2);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto k = t.task_kind("step");
    for (int i = 0; i < 2000; ++i) {
      const trace::Time at = 1000 * i + 10 * rank;
      t.task(c0, k, at, at + 700);
      t.meta(u0, "Mapping", at, at + 300);
      if (i % 100 == 99) t.writer().flush();  // frames of 100 us
    }
    t.finish();
  }
  const analysis::Profile whole = load::load_profile(files);
  load::LoadOptions options;
  options.range = {{500'000, 700'000}};
  const analysis::Profile part = load::load_profile(files, options);
  // Frames of 100 us: the 200 us asked for, and the frames around it.
  check_range(whole, part, 500'000, 700'000, 0.2);
  // A range that starts after the run: an error saying where it ends.
  options.range = {{1e9, 2e9}};
  try {
    (void)load::load_profile(files, options);
    FAIL("loaded a range past the run");
  } catch (const analysis::LoadError& e) {
    CHECK_THAT(e.what(), Catch::Contains("after the run's last item (at 2.000 ms"));
  }
}

TEST_CASE("a Legion run loaded for a range of its time holds every item in it", "[load]") {
  TempDir dir;
  legion::testing::write_synthetic_run(dir.path().string(), 2, 200000, false);
  const std::vector<std::string> files{dir.file("prof_0.prof"), dir.file("prof_1.prof")};
  const analysis::Profile whole = load::load_profile(files);
  const double span = static_cast<double>(whole.stop - whole.start);
  load::LoadOptions options;
  options.range = {{span * 0.4, span * 0.45}};
  const analysis::Profile part = load::load_profile(files, options);
  // A Legion log's items are staged in slices of its tables in record
  // order, which spread over more of the run than a Legato frame: fewer
  // are left out.
  check_range(whole, part, span * 0.4, span * 0.45, 0.9);
}
