// The shared_gpu rule on synthetic traces written through the public writer
// API (nothing ran): two ranks whose metadata says they shared one GPU, with
// or without MPS, each running GPU tasks far longer than their kernels.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/findings.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

constexpr int kTasks = 50;
constexpr trace::Time kTask = 1'000'000, kKernel = 10'000, kEnd = 60'000'000;

// A rank's GPU tasks: how many, how long, how far apart (start to start),
// and the length of each one's kernel.
struct Shape {
  int tasks = kTasks;
  trace::Time task = kTask, period = kTask, kernel = kKernel;
};

// One rank: its program on io0 and its GPU tasks from 1 ms on, each with one
// kernel (by default 50 of 1 ms, back to back, with 10 us kernels);
// `sharing` (when not null) is its "gpu_sharing" metadata.
void write_rank(const TempDir& dir, uint32_t rank, const nlohmann::json* sharing,
                const Shape& shape = {}) {
  SyntheticTrace t(dir.file("legate_" + std::to_string(rank) + ".prof"), rank, 2);
  const uint32_t io = t.processor(trace::ProcKind::Io, 0, "io0");
  const uint32_t host = t.processor(trace::ProcKind::GpuHost, 0, "g0h");
  const uint32_t device = t.processor(trace::ProcKind::GpuDevice, 0, "g0d");
  const trace::Uid top = t.operation("main", "");
  t.task(io, t.task_kind("main"), 0, kEnd, top);
  const uint32_t add = t.task_kind("add");
  for (int i = 0; i < shape.tasks; ++i) {
    const trace::Time at = 1'000'000 + i * shape.period;
    const trace::Uid task =
        t.task(host, add, at, at + shape.task, t.operation("add", "prog.py:3", top));
    t.writer().add(trace::GpuKernelRecord{task, device, t.writer().intern("add_kernel"), 0,
                                          at + shape.task / 2, at + shape.task / 2 + shape.kernel});
  }
  if (sharing) t.writer().write_metadata({{"gpu_sharing", *sharing}});
  t.finish();
}

Findings run(const TempDir& dir) {
  return find(legato::load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")}));
}

const Finding* shared(const Findings& f) {
  for (const Finding& x : f.findings)
    if (x.rule == "shared_gpu") return &x;
  return nullptr;
}

bool skipped(const Findings& f) {
  for (const Skipped& s : f.skipped)
    if (s.rule == "shared_gpu") return true;
  return false;
}

nlohmann::json one_gpu(const nlohmann::json& mps) {
  return nlohmann::json::array({{{"gpu", "host0 0000:3b:00.0"}, {"ranks", {0, 1}}, {"mps", mps}}});
}

}  // namespace

TEST_CASE("shared_gpu: two ranks on one GPU without MPS, their tasks against their kernels",
          "[findings]") {
  TempDir dir;
  const nlohmann::json sharing = one_gpu(false);
  write_rank(dir, 0, &sharing);
  write_rank(dir, 1, &sharing);
  const Findings f = run(dir);
  const Finding* x = shared(f);
  REQUIRE(x != nullptr);
  CHECK(std::count_if(f.findings.begin(), f.findings.end(),
                      [](const Finding& y) { return y.rule == "shared_gpu"; }) == 1);
  CHECK(x->title == "Ranks share a GPU without MPS");
  CHECK_THAT(x->summary, Catch::StartsWith("Ranks 0 and 1 used one GPU (host0 0000:3b:00.0) "
                                           "without CUDA MPS") &&
                             Catch::Contains("100 GPU tasks of those ranks took 100 ms") &&
                             Catch::Contains("their kernels ran 1 ms of it"));
  CHECK(x->rank == kAllNodes);
  CHECK(x->cost == kTasks * kTask);      // each rank's GPU host lane busy 50 ms
  CHECK(x->severity == Severity::High);  // 50 of 60 ms
  CHECK(x->t0 == 1'000'000);
  CHECK(x->t1 == 1'000'000 + kTasks * kTask);
  CHECK(x->lanes.size() == 4);  // both ranks' GPU host and device lanes
  CHECK_THAT(x->fix, Catch::Contains("nvidia-cuda-mps-control -d"));
  REQUIRE(x->evidence.size() == 4);
  CHECK(x->evidence[0].value == 2);
  CHECK(x->evidence[1].value == 2 * kTasks);
  CHECK(x->evidence[3].value == 2 * kTasks * kKernel);
  CHECK_FALSE(skipped(f));
}

TEST_CASE("shared_gpu: silent with MPS or when unknown, and says so when the trace does not tell",
          "[findings]") {
  for (const nlohmann::json& mps : {nlohmann::json(true), nlohmann::json(nullptr)}) {
    TempDir dir;
    const nlohmann::json sharing = one_gpu(mps);
    write_rank(dir, 0, &sharing);
    write_rank(dir, 1, &sharing);
    const Findings f = run(dir);
    CHECK(shared(f) == nullptr);
    CHECK_FALSE(skipped(f));
  }
  {
    TempDir dir;  // every rank had a GPU of its own
    const nlohmann::json none = nlohmann::json::array();
    write_rank(dir, 0, &none);
    write_rank(dir, 1, &none);
    const Findings f = run(dir);
    CHECK(shared(f) == nullptr);
    CHECK_FALSE(skipped(f));
  }
  {
    TempDir dir;  // a trace from before the record
    write_rank(dir, 0, nullptr);
    write_rank(dir, 1, nullptr);
    const Findings f = run(dir);
    CHECK(shared(f) == nullptr);
    CHECK(skipped(f));
  }
  {
    TempDir dir;  // only rank 1's file loaded: its own tasks, named as such
    const nlohmann::json sharing = one_gpu(false);
    write_rank(dir, 1, &sharing);
    const Findings f = find(legato::load::load_profile({dir.file("legate_1.prof")}));
    const Finding* x = shared(f);
    REQUIRE(x != nullptr);
    CHECK_THAT(x->summary, Catch::Contains("50 GPU tasks of rank(s) 1 loaded"));
    CHECK(x->rank == 1);
  }
}

TEST_CASE("shared_gpu: first among the high findings, whose times the sharing stretched",
          "[findings]") {
  // Per rank 200 GPU tasks of 80 us, 250 us apart, each with a 1 us kernel:
  // tiny tasks and kernels whose idle time (high, 34 and 50 ms) outweighs
  // the GPU host lanes' busy time (16 ms, 27% of the run: high too).
  TempDir dir;
  const nlohmann::json sharing = one_gpu(false);
  const Shape tiny{200, 80'000, 250'000, 1'000};
  write_rank(dir, 0, &sharing, tiny);
  write_rank(dir, 1, &sharing, tiny);
  const Findings f = run(dir);
  const Finding* x = shared(f);
  REQUIRE(x != nullptr);
  CHECK(x->root_cause);
  CHECK(x->severity == Severity::High);
  CHECK(x->cost == 200 * 80'000);
  CHECK_THAT(x->summary, Catch::EndsWith("include those turns, so start with this one."));
  REQUIRE(f.findings.size() >= 2);
  CHECK(&f.findings.front() == x);
  // Another high finding costs more: only the root cause puts it first.
  CHECK(std::any_of(f.findings.begin(), f.findings.end(), [&](const Finding& y) {
    return y.rule == "tiny_tasks" && y.severity == Severity::High && y.cost > x->cost;
  }));
  for (const Finding& y : f.findings) CHECK(y.root_cause == (&y == x));
  // Without sharing the same tasks give the same findings, tiny tasks first.
  TempDir alone;
  const nlohmann::json none = nlohmann::json::array();
  write_rank(alone, 0, &none, tiny);
  write_rank(alone, 1, &none, tiny);
  const Findings g = run(alone);
  REQUIRE_FALSE(g.findings.empty());
  CHECK(shared(g) == nullptr);
  CHECK(g.findings.front().rule == "tiny_tasks");
}
