// Loading several ranks: one run, aligned clocks, warnings for what is
// missing or foreign, damaged files read as far as they go.
#include <filesystem>
#include <span>

#include <catch2/catch.hpp>

#include "load/load.hpp"
#include "load/readers.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

const std::string kRun = "0123456789abcdef0123456789abcdef";

// A rank with one task on c0 from 100 to 200 (its own clock).
void write_rank(const std::string& path, uint32_t rank, uint32_t ranks, nlohmann::json clock,
                const std::string& run = kRun) {
  SyntheticTrace t(path, rank, ranks, run, std::move(clock));
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  t.task(c0, t.task_kind("work"), 100, 200);
  t.finish();
}

bool has_warning(const Profile& p, const std::string& text) {
  for (const auto& w : p.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

Time first_start(const Profile& p, uint32_t rank) {
  for (const auto& l : p.lanes) {
    if (l.rank == rank && l.end > l.begin) return p.items[l.begin].start;
  }
  FAIL("rank " << rank << " has no items");
  return 0;
}

}  // namespace

TEST_CASE("ranks load in parallel into one run with a node each", "[analysis][ranks]") {
  TempDir dir;
  for (uint32_t r = 0; r < 4; ++r) {
    write_rank(dir.file("legate_" + std::to_string(r) + ".prof"), r, 4,
               {{"zero_unix_ns", 5000 + r}, {"offset_to_reference_ns", 7}});
  }
  // Given in any order.
  const Profile p =
      legato::load::load_profile({dir.file("legate_2.prof"), dir.file("legate_0.prof"),
                                  dir.file("legate_3.prof"), dir.file("legate_1.prof")},
                                 legato::load::LoadOptions::with_threads(3));
  CHECK(p.warnings.empty());
  REQUIRE(p.nodes.size() == 4);
  REQUIRE(p.ranks.size() == 4);
  for (uint32_t r = 0; r < 4; ++r) {
    CHECK(p.nodes[r].rank == r);
    CHECK(p.ranks[r].rank == r);
    // Already aligned by the runtime (offset_to_reference_ns): left as written.
    CHECK(first_start(p, r) == 100);
  }
  CHECK(p.run_id == kRun);
  CHECK(p.lanes.size() == 4);
}

TEST_CASE("ranks without alignment are placed by their wall-clock start", "[analysis][ranks]") {
  TempDir dir;
  write_rank(dir.file("legate_0.prof"), 0, 2, {{"zero_unix_ns", 1000000}});
  write_rank(dir.file("legate_1.prof"), 1, 2, {{"zero_unix_ns", 1000250}});
  const Profile p =
      legato::load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  CHECK(first_start(p, 0) == 100);
  CHECK(first_start(p, 1) == 350);
  CHECK(p.ranks[1].clock_shift == 250);
  CHECK(has_warning(p, "no clock alignment recorded"));
}

TEST_CASE("missing ranks and files of other runs are warnings", "[analysis][ranks]") {
  TempDir dir;
  write_rank(dir.file("legate_0.prof"), 0, 4, {{"offset_to_reference_ns", 0}});
  write_rank(dir.file("legate_2.prof"), 2, 4, {{"offset_to_reference_ns", 0}});
  write_rank(dir.file("other_1.prof"), 1, 4, {{"offset_to_reference_ns", 0}},
             "ffffffffffffffffffffffffffffffff");
  const Profile p = legato::load::load_profile(
      {dir.file("legate_0.prof"), dir.file("legate_2.prof"), dir.file("other_1.prof")});
  CHECK(p.nodes.size() == 2);
  CHECK(has_warning(p, "no file was given for rank(s) 1, 3"));
  CHECK(
      has_warning(p, "other_1.prof: left out: it belongs to run ffffffffffffffffffffffffffffffff"));
  // The same rank twice: the second is left out.
  const Profile twice =
      legato::load::load_profile({dir.file("legate_0.prof"), dir.file("legate_0.prof")});
  CHECK(twice.nodes.size() == 1);
  CHECK(has_warning(twice, "rank 0 was already loaded"));
}

TEST_CASE("damaged and unreadable files", "[analysis][ranks]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto k = t.task_kind("work");
    for (int i = 0; i < 1000; ++i) {
      t.task(c0, k, 10 * i, 10 * i + 5);
      if (i % 100 == 99) t.writer().flush();
    }
    t.finish();
  }
  // Cut in the middle: the frames before the cut load, with a warning.
  auto bytes = trace::testing::read_bytes(dir.file("legate_0.prof"));
  bytes.resize(bytes.size() / 2);
  trace::testing::write_bytes(dir.file("cut_0.prof"), bytes);
  const Profile cut = legato::load::load_profile({dir.file("cut_0.prof")});
  CHECK(has_warning(cut, "was not finished"));
  CHECK(cut.items.size() > 100);
  CHECK(cut.items.size() < 1000);
  // An unreadable file next to a good one is a warning; alone, an error.
  trace::testing::write_bytes(dir.file("junk.prof"), {'n', 'o', 't', ' ', 'a', ' ', 't', 'r'});
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof"), dir.file("junk.prof")});
  CHECK(p.items.size() == 1000);
  CHECK(has_warning(p, "junk.prof"));
  CHECK_THROWS_WITH(legato::load::load_profile({dir.file("junk.prof")}),
                    Catch::Contains("no trace could be read") && Catch::Contains("junk.prof"));
  CHECK_THROWS_WITH(legato::load::load_profile({dir.file("missing.prof")}),
                    Catch::Contains("missing.prof"));
  CHECK_THROWS_AS(legato::load::load_profile({}), LoadError);
}

TEST_CASE("a string id defined twice takes its last text", "[analysis]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto kind = t.task_kind("first name");
    t.task(c0, kind, 0, 10);
    t.writer().flush();  // the second definition in a later frame
    t.writer().add(trace::StringRecord{t.writer().intern("first name"), "second name"});
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  CHECK(p.warnings.empty());
  REQUIRE(p.items.size() == 1);
  CHECK(p.str(p.items[0].name) == "second name");
}

TEST_CASE("a big rank file keeps its items in their frames, read again as the model stages them",
          "[analysis][ranks]") {
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  {
    // 100,000 tasks and 100,000 meta tasks in frames of 10,000 (written
    // through the public writer API; nothing ran).
    SyntheticTrace t(path);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto kind = t.task_kind("work");
    for (int i = 0; i < 100000; ++i) {
      const trace::Time at = i * 1000;
      t.task(c0, kind, at, at + 800);
      t.meta(u0, "Mapping", at, at + 300);
      if (i % 5000 == 4999) t.writer().flush();
    }
    t.finish();
  }
  RankTrace stored = legato::load::read_file(path);
  REQUIRE(stored.stored);
  CHECK(stored.problems.empty());
  CHECK(stored.all.get<trace::TaskRecord>().empty());
  CHECK(stored.count<trace::TaskRecord>() == 100000);
  CHECK(stored.count<trace::MetaTaskRecord>() == 100000);
  // The frames' bytes are a fraction of the decoded records.
  CHECK(stored.stored->bytes() * 4 <
        100000 * (sizeof(trace::TaskRecord) + sizeof(trace::MetaTaskRecord)));
  // Each frame's tally counts its records on their processors.
  REQUIRE(stored.frame_items.size() == stored.stored->frames());
  uint64_t tallied = 0;
  for (const ItemTally& tally : stored.frame_items) {
    for (const ItemTally::Use& u : tally.uses) tallied += u.count;
    CHECK(tally.strings.size() <= 1);  // "Mapping", in the frame that names it first
  }
  CHECK(tallied == 200000);
  // Read again, the records are those written, in order.
  trace::Time expected = 0;
  size_t seen = 0;
  stored.for_each_block<trace::TaskRecord>(
      [&](std::span<const trace::TaskRecord> block, size_t first) {
        CHECK(first == seen);
        for (const auto& task : block) {
          if (task.start != expected) FAIL("task " << seen << " starts at " << task.start);
          expected += 1000;
          ++seen;
        }
      });
  CHECK(seen == 100000);
  // The same file with every record decoded up front (as a Legion log's
  // are) gives the same model: staged from frames or from table slices.
  RankTrace decoded = legato::load::read_file(path);
  for (size_t i = 0; i < decoded.stored->frames(); ++i)
    decoded.stored->decode_frame(i, trace::kAllKinds, decoded.all);
  decoded.stored.reset();
  decoded.frame_items.clear();
  std::vector<RankTrace> a, b;
  a.push_back(std::move(stored));
  b.push_back(std::move(decoded));
  const Profile p = build_profile(std::move(a)), q = build_profile(std::move(b));
  REQUIRE(p.items.size() == 200000);
  REQUIRE(q.items.size() == p.items.size());
  for (size_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].start != q.items[i].start || p.items[i].stop() != q.items[i].stop() ||
        p.items[i].kind != q.items[i].kind || p.items[i].name != q.items[i].name)
      FAIL("item " << i << " differs");
  }
  CHECK(p.lanes.size() == q.lanes.size());
}
