// Crafted and damaged traces the model must load with one warning per kind
// of problem (a count and an example) and sane values: no huge sizes or
// percentages, no self-dependencies, visible placeholders, the first file's
// run kept.
#include <algorithm>
#include <cmath>
#include <map>

#include <catch2/catch.hpp>

#include "analysis/crafted_traces.hpp"
#include "analysis/details.hpp"
#include "analysis/stats.hpp"
#include "analysis/utilization.hpp"
#include "load/load.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::analysis::testing;
using trace::testing::TempDir;

namespace {

// The warnings containing text.
std::vector<std::string> warnings_with(const Profile& p, const std::string& text) {
  std::vector<std::string> out;
  for (const auto& w : p.warnings) {
    if (w.find(text) != std::string::npos) out.push_back(w);
  }
  return out;
}

uint32_t item_named(const Profile& p, const std::string& name) {
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.label(i) == name) return i;
  }
  FAIL("no item named " << name);
  return kNone;
}

}  // namespace

TEST_CASE("an instance in an undeclared memory has an unknown size, not a huge utilization",
          "[analysis][fault]") {
  TempDir dir;
  write_undeclared_memory_trace(dir.file("t.prof"));
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto w = warnings_with(p, "used but never described");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("1 processors, memories or channels are used but never "
                                     "described (a damaged frame?); shown as lanes named like "
                                     "sysmem77?") &&
                       Catch::Contains("such memories have no known size, so their utilization "
                                       "is unknown"));
  const UtilizationCurve memory = utilization(p, LaneKind::SystemMemory);
  CHECK_FALSE(memory.known());
  CHECK(memory.average(p.start, p.stop) == 0);
  const auto summary = utilization_summary(p);
  const auto row = std::find_if(summary.begin(), summary.end(), [](const UtilizationSummary& u) {
    return u.kind == LaneKind::SystemMemory;
  });
  REQUIRE(row != summary.end());
  CHECK_FALSE(row->known);
  CHECK(row->peak == 0);
  // The CPU's utilization is unaffected; the instance keeps its size.
  CHECK(utilization(p, LaneKind::Cpu).known());
  const uint32_t x = item_named(p, "x");
  CHECK(p.instance_of(p.items[x])->bytes == kMiB);
}

TEST_CASE("an instance whose memory id is 'none' loads (it used to crash the loader)",
          "[analysis][fault]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("t.prof"));
    t.instance(trace::kNoResource, kMiB, "x", 100, 110, 200);  // the first resource looked up
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  REQUIRE(p.items.size() == 1);
  CHECK(p.lanes.size() == 1);
  CHECK_FALSE(utilization(p, LaneKind::SystemMemory).known());
  CHECK(warnings_with(p, "used but never described").size() == 1);
}

TEST_CASE("in a memory of known size, a memory of unknown size is left out of the utilization",
          "[analysis][fault]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("t.prof"));
    const auto sysmem = t.memory(trace::MemKind::System, 4 * kMiB, "sysmem");
    t.instance(sysmem, kMiB, "a", 0, 0, 1000);
    t.instance(trace::make_resource_id(0, 50), 100 * kMiB, "b", 0, 0, 1000);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const UtilizationCurve c = utilization(p, LaneKind::SystemMemory);
  CHECK(c.known());
  CHECK(c.average(0, 1000) == Approx(0.25));
}

TEST_CASE("sizes past 4 PiB are left out with one warning", "[analysis][fault]") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("t.prof"));
    const auto sysmem = t.memory(trace::MemKind::System, 4 * kMiB, "sysmem");
    const auto chan = t.channel(sysmem, sysmem, "sysmem to sysmem");
    t.instance(sysmem, UINT64_MAX, "huge", 0, 0, 1000);
    t.instance(sysmem, kMiB, "fine", 0, 0, 1000);
    t.copy(chan, UINT64_MAX - 5, 10, 20);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto w = warnings_with(p, "claim more than 4 PiB");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("2 copies and instances claim more than 4 PiB (damaged "
                                     "records?), e.g. copy uid ") &&
                       Catch::EndsWith(" of 18446744073709551610 bytes; their size is left out"));
  CHECK(p.instance_of(p.items[item_named(p, "huge")])->bytes == 0);
  CHECK(p.instance_of(p.items[item_named(p, "fine")])->bytes == kMiB);
  CHECK(p.copies[0].bytes == 0);
  uint64_t bytes = 0;
  for (const auto& s : kind_stats(p)) bytes += s.bytes;
  CHECK(bytes == kMiB);
}

TEST_CASE("uids given to two items or two operations: one warning each, links go to the first",
          "[analysis][fault]") {
  TempDir dir;
  write_duplicate_uid_trace(dir.file("t.prof"));
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto items = warnings_with(p, "items reuse the uid");
  REQUIRE(items.size() == 1);
  CHECK_THAT(items[0], Catch::StartsWith("1 items reuse the uid of another item, e.g. uid ") &&
                           Catch::EndsWith(": first (task) on c0, node 0 and second (task) on "
                                           "c1, node 0; edges and waits naming such a uid go to "
                                           "the first"));
  const auto ops = warnings_with(p, "operations reuse the uid");
  REQUIRE(ops.size() == 1);
  CHECK_THAT(ops[0], Catch::StartsWith("1 operations reuse the uid of another operation, e.g. uid "
                                       "") &&
                         Catch::EndsWith(": 'add' and 'mul'; items of such a uid belong to the "
                                         "first"));
  // Both tasks are shown; the edge of "third" goes to "first".
  CHECK(p.items.size() == 3);
  const uint32_t first = item_named(p, "first"), third = item_named(p, "third");
  CHECK(last_precondition(p, third) == first);
  CHECK(p.str(p.operations[p.items[first].op].name) == "add");
}

TEST_CASE("items on lanes out of their rank's order load whole (staging touches rank by rank)",
          "[analysis][fault]") {
  // The model touches its item slots rank by rank, each rank up to the
  // last lane it fills. Rank 0 fills a lane no file describes (made after
  // every described lane) and rank 2 a lane rank 1 describes.
  TempDir dir;
  const std::string run = "fedcba9876543210fedcba9876543210";
  uint32_t cpu1 = 0;
  {
    SyntheticTrace t(dir.file("r0.prof"), 0, 3, run);
    const uint32_t cpu = t.processor(trace::ProcKind::Cpu, 0, "cpu0");
    const uint32_t k = t.task_kind("k");
    t.task(cpu, k, 0, 10);
    t.task(trace::make_resource_id(0, 90), k, 5, 15);  // undescribed
    t.finish();
  }
  {
    SyntheticTrace t(dir.file("r1.prof"), 1, 3, run);
    cpu1 = t.processor(trace::ProcKind::Cpu, 0, "cpu1");
    const uint32_t k = t.task_kind("k");
    for (int i = 0; i < 3; ++i) t.task(cpu1, k, 20 * i, 20 * i + 10);
    t.finish();
  }
  {
    SyntheticTrace t(dir.file("r2.prof"), 2, 3, run);
    const uint32_t cpu = t.processor(trace::ProcKind::Cpu, 0, "cpu2");
    const uint32_t k = t.task_kind("k");
    t.task(cpu, k, 0, 5);
    t.task(cpu1, k, 100, 110);  // on rank 1's processor
    t.finish();
  }
  const Profile p =
      legato::load::load_profile({dir.file("r0.prof"), dir.file("r1.prof"), dir.file("r2.prof")});
  REQUIRE(p.items.size() == 7);
  // Each lane's items by start time, the lane named as the trace names it
  // (the undescribed one by its placeholder).
  std::map<std::string, std::vector<Time>> starts;
  for (const Lane& l : p.lanes) {
    for (uint32_t i = l.begin; i < l.end; ++i) starts[l.name].push_back(p.items[i].start);
  }
  for (auto& [name, s] : starts) std::sort(s.begin(), s.end());
  CHECK(starts["cpu0"] == std::vector<Time>{0});
  CHECK(starts["cpu1"] == std::vector<Time>{0, 20, 40, 100});
  CHECK(starts["cpu2"] == std::vector<Time>{0});
  const auto w = warnings_with(p, "used but never described");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains("shown as lanes named like c90?"));
  CHECK(starts["c90?"] == std::vector<Time>{5});
}

TEST_CASE("dependency edges from an item to itself are dropped with one warning",
          "[analysis][fault]") {
  TempDir dir;
  write_self_edge_trace(dir.file("t.prof"));
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto w = warnings_with(p, "from an item to itself");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("2 dependency edges go from an item to itself (damaged "
                                     "records?), e.g. on uid ") &&
                       Catch::EndsWith(", b (task) on c0, node 0; dropped"));
  const uint32_t a = item_named(p, "a"), b = item_named(p, "b");
  const ItemDetails d = details(p, b);
  REQUIRE(d.preconditions.size() == 1);
  CHECK(d.preconditions[0].item == a);
  CHECK(details(p, a).preconditions.empty());
  CHECK(critical_path(p, b) == std::vector<uint32_t>{b, a});
}

TEST_CASE("string ids never defined show as placeholders, with one warning", "[analysis][fault]") {
  TempDir dir;
  write_dangling_string_trace(dir.file("t.prof"));
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto w = warnings_with(p, "never defined");
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "2 string ids are used but never defined in their file, e.g. id 998 in " +
                    dir.file("t.prof") +
                    " (a lost frame or a damaged record?); shown as \"<string 998 undefined>\"");
  const uint32_t task = item_named(p, "<string 999 undefined>");
  CHECK(p.items[task].kind == ItemKind::Task);
  const ItemDetails x = details(p, item_named(p, "x"));
  CHECK(x.provenance == "<string 998 undefined>");
  const auto stats = kind_stats(p);
  CHECK(std::any_of(stats.begin(), stats.end(),
                    [](const KindStats& s) { return s.name == "<string 999 undefined>"; }));
}

TEST_CASE("frame headers whose time range contradicts their records: one warning, records' times",
          "[analysis][fault]") {
  TempDir dir;
  write_two_frame_trace(dir.file("t.prof"));
  // Frame 0 is the metadata; 1 and 2 hold the tasks.
  set_frame_time_range(dir.file("t.prof"), 1, 0, trace::Time{1} << 60);
  set_frame_time_range(dir.file("t.prof"), 2, 3200, 3300);
  const Profile p = legato::load::load_profile({dir.file("t.prof")});
  const auto w = warnings_with(p, "contradicts their records");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::Contains(": warning: 2 events frames give a time range (header "
                                   "t_min/t_max) that contradicts their records, e.g. frame 1 "
                                   "(events): header 0 to 1152921504606846976 ns, records 1000 to "
                                   "1500 ns; the records' times are used"));
  CHECK(p.start == 1000);
  CHECK(p.stop == 3500);
  CHECK(p.incomplete_files.empty());  // nothing was lost
}

TEST_CASE("files of two runs: the first file's run is kept, each other file named with its run",
          "[analysis][fault]") {
  TempDir dir;
  const std::string run_a(32, 'a'), run_b(32, 'b');
  const auto write = [&](const std::string& name, uint32_t rank, const std::string& run) {
    SyntheticTrace t(dir.file(name), rank, 2, run, {{"offset_to_reference_ns", 0}});
    t.task(t.processor(trace::ProcKind::Cpu, 0, "c0"), t.task_kind("work"), 100, 200);
    t.finish();
  };
  write("b_0.prof", 0, run_b);
  write("a_0.prof", 0, run_a);
  write("a_1.prof", 1, run_a);
  // The first file decides, even against a majority of the other run.
  const Profile p = legato::load::load_profile(
      {dir.file("b_0.prof"), dir.file("a_0.prof"), dir.file("a_1.prof")});
  CHECK(p.run_id == run_b);
  REQUIRE(p.ranks.size() == 1);
  CHECK(p.ranks[0].file == dir.file("b_0.prof"));
  for (const char* dropped : {"a_0.prof", "a_1.prof"}) {
    const auto w = warnings_with(p, dir.file(dropped) + ": left out");
    REQUIRE(w.size() == 1);
    CHECK(w[0] == dir.file(dropped) + ": left out: it belongs to run " + run_a + ", not to run " +
                      run_b + " of " + dir.file("b_0.prof") +
                      " (the first file given decides the run; give the files of one run)");
  }
  // Given the other way round, the other run is kept.
  const Profile q = legato::load::load_profile(
      {dir.file("a_0.prof"), dir.file("b_0.prof"), dir.file("a_1.prof")});
  CHECK(q.run_id == run_a);
  CHECK(q.ranks.size() == 2);
  CHECK(warnings_with(q, "left out").size() == 1);
  CHECK(warnings_with(q, dir.file("b_0.prof") + ": left out: it belongs to run " + run_b).size() ==
        1);
}

TEST_CASE("files that lose data are listed as incomplete, unfinished ones are not",
          "[analysis][fault]") {
  TempDir dir;
  for (const char* name : {"corrupt.prof", "cut.prof", "unfinished.prof", "good.prof"})
    write_two_frame_trace(dir.file(name));
  corrupt_frame_payload(dir.file("corrupt.prof"), 2);
  cut_file_at_frame(dir.file("cut.prof"), 2);
  cut_file_at_frame(dir.file("unfinished.prof"), 3, /*at_start=*/true);  // before the footer
  const auto incomplete = [&](const std::string& name) {
    return legato::load::load_profile({dir.file(name)}).incomplete_files;
  };
  CHECK(incomplete("corrupt.prof") == std::vector<std::string>{dir.file("corrupt.prof")});
  CHECK(incomplete("cut.prof") == std::vector<std::string>{dir.file("cut.prof")});
  CHECK(incomplete("unfinished.prof").empty());
  CHECK(incomplete("good.prof").empty());
  // Still loaded: the intact first frame of each.
  CHECK(legato::load::load_profile({dir.file("corrupt.prof")}).items.size() == 1);
  // A file that cannot be read beside one that can.
  trace::testing::write_bytes(dir.file("junk.prof"), {'j', 'u', 'n', 'k'});
  CHECK(
      legato::load::load_profile({dir.file("good.prof"), dir.file("junk.prof")}).incomplete_files ==
      std::vector<std::string>{dir.file("junk.prof")});
}
