// The findings of the seed workloads, run as users run them with --profile:
// the chunked update's slice loop is found and named by its lines, the
// vectorized update is not accused of it, and the OOM example's memory
// finding names what its out-of-memory report names.
#include <algorithm>

#include <catch2/catch.hpp>

#include "analysis/findings.hpp"
#include "load/load.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using trace::testing::TempDir;

namespace {

Findings profile_and_find(const TempDir& dir, const std::string& config, const std::string& program,
                          const std::string& args, int expected_status = 0) {
  const auto r =
      testing::run_command("LEGATE_CONFIG='" + config + " --profile --logdir " +
                           dir.path().string() + "' " + testing::bin(program) + " " + args);
  INFO(r.err);
  REQUIRE(r.status == expected_status);
  return find(legato::load::load_profile({dir.file("legate_0.prof")}));
}

const Finding* finding(const Findings& f, const std::string& rule) {
  for (const Finding& x : f.findings)
    if (x.rule == rule) return &x;
  return nullptr;
}

bool names_line(const Finding& f, const std::string& line) {
  return std::any_of(f.lines.begin(), f.lines.end(),
                     [&](const CodeLine& l) { return l.where == line; });
}

// The line with the most of a finding's items. Lines are ranked by cost,
// which depends on how fast this machine ran each item (a loop's many small
// copies against one large copy before it); their items are the workload's
// shape.
std::string most_items(const Finding& f) {
  REQUIRE(!f.lines.empty());
  return std::max_element(f.lines.begin(), f.lines.end(),
                          [](const CodeLine& a, const CodeLine& b) { return a.items < b.items; })
      ->where;
}

}  // namespace

TEST_CASE(
    "the chunked update's slice loop is found, and the vectorized update is not accused of it",
    "[examples][findings]") {
  const std::string src = "examples/chunked_update.cpp";
  const std::string mask_get = testing::line_of(src, "sub[gt1] = sub[gt1] + 2.0;");
  const std::string mask_not = testing::line_of(src, "sub[~gt1] = sub[~gt1] - 2.0;");
  TempDir chunked_dir, vectorized_dir;
  const Findings chunked =
      profile_and_find(chunked_dir, "--cpus 2", "chunked_update", "--n 300000");
  const Findings vectorized =
      profile_and_find(vectorized_dir, "--cpus 2", "vectorized_update", "--n 300000");
  // Whether each rule fires is the workload's shape: the counts of its
  // items against the rules' thresholds (the vectorized update runs a few
  // dozen tasks, no index copies, no partitioning). How much each costs is a
  // share of the program's time, which depends on how fast this machine
  // ran each part, so severities are not compared.
  for (const std::string rule : {"tiny_tasks", "runtime_bound", "index_copies", "dep_part_churn"}) {
    INFO(rule);
    const Finding* c = finding(chunked, rule);
    REQUIRE(c != nullptr);
    // The loop's lines are among the finding's, and the loop holds most of
    // its items.
    CHECK((names_line(*c, mask_get) || names_line(*c, mask_not)));
    const std::string top = most_items(*c);
    CHECK((top == mask_get || top == mask_not ||
           top == testing::line_of(src, "Array gt1 = sub > 1.0;")));
    CHECK(finding(vectorized, rule) == nullptr);
  }
  CHECK(finding(chunked, "blocked_top_level") != nullptr);
}

TEST_CASE(
    "the OOM example's memory finding names the stores and lines of its report, and the "
    "fixes make it go away",
    "[examples][findings][oom]") {
  const std::string src = "examples/oom.cpp";
  TempDir failed_dir;
  const Findings failed = profile_and_find(failed_dir, "--cpus 1 --sysmem 40", "oom", "", 1);
  const Finding* oom = finding(failed, "out_of_memory");
  REQUIRE(oom != nullptr);
  CHECK(oom->severity == Severity::High);
  CHECK(&failed.findings.front() == oom);
  // What the report says: 33554400 of the available 41943040 bytes, held by
  // the stores allocated at lines 36 (c), 26 (b, two instances) and 25 (a).
  CHECK(oom->bytes == 33554400);
  const std::string c_line = testing::line_of(src, "Array c = b + 2;");
  const std::string b_line = testing::line_of(src, "Array b = zeros(n);");
  const std::string a_line = testing::line_of(src, "Array a = ones(n - 2);");
  const std::string slice_line = testing::line_of(src, "b.slice(1, -1).assign(a);");
  REQUIRE(oom->lines.size() == 3);
  CHECK(oom->lines[0].where == b_line);  // the most bytes: both instances of b
  CHECK(oom->lines[0].note ==
        "2 instances, created for operations at " + slice_line + ", " + c_line);
  CHECK(names_line(*oom, c_line));
  CHECK(names_line(*oom, a_line));
  CHECK(oom->summary.find("at " + testing::line_of(src, "Array d = c + 3;")) != std::string::npos);
  // b's two instances, as the seeds' b#1 and b#2.
  const Finding* dup = finding(failed, "duplicate_instances");
  REQUIRE(dup != nullptr);
  CHECK(dup->lines.front().where == b_line);

  for (const std::string fix : {"--in-place", "--prefetch", "--stencil-hint"}) {
    INFO(fix);
    TempDir fixed_dir;
    const Findings fixed = profile_and_find(fixed_dir, "--cpus 1 --sysmem 40", "oom", fix);
    CHECK(finding(fixed, "out_of_memory") == nullptr);
    CHECK(finding(fixed, "memory_pressure") == nullptr);
    // Prefetching or the hint gives b one instance; in place, b#1 and b#2
    // still meet, at a fifth of the pool.
    const Finding* twice = finding(fixed, "duplicate_instances");
    if (fix != "--in-place") CHECK(twice == nullptr);
    if (twice != nullptr) CHECK(twice->severity == Severity::Low);
  }
}

// Whether a task counts as tiny is a duration (tiny_tasks.max_task_us, 100 us):
// the problems are sized so that their tasks are tiny on any machine. On the
// machines the benchmarks ran on, cg's median task took about 1 us and the
// stencil's on a 20x20 grid about 2 us (30 us on its default 100x100 grid,
// which a machine a few times slower, or a loaded one, takes past 100 us).
TEST_CASE("cg and stencil: small problems are found launch-bound, with their loop lines",
          "[examples][findings]") {
  TempDir cg_dir, stencil_dir;
  const Findings cg = profile_and_find(cg_dir, "--cpus 2", "cg", "");
  const Finding* cg_tiny = finding(cg, "tiny_tasks");
  REQUIRE(cg_tiny != nullptr);
  CHECK(cg_tiny->lines.front().where.find("examples/cg.cpp:") != std::string::npos);
  const Finding* path = finding(cg, "critical_path");
  REQUIRE(path != nullptr);
  CHECK(path->evidence.front().value > 100);  // the chain runs through the iterations
  const Findings stencil = profile_and_find(stencil_dir, "--cpus 2", "stencil", "-n 20");
  const Finding* st_tiny = finding(stencil, "tiny_tasks");
  REQUIRE(st_tiny != nullptr);
  CHECK(st_tiny->lines.front().where.find("examples/stencil.cpp:") != std::string::npos);
}
