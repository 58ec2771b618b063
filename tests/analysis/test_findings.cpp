// The findings rules on synthetic traces written through the public writer
// API (nothing ran): each rule fires with known numbers and lines, stays
// silent when the pattern is absent, and its thresholds hold at the boundary.
#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

const Finding* finding(const Findings& f, const std::string& rule) {
  for (const Finding& x : f.findings)
    if (x.rule == rule) return &x;
  return nullptr;
}

Findings run(const TempDir& dir, const std::vector<std::string>& thresholds = {}) {
  Thresholds t;
  for (const auto& a : thresholds) REQUIRE(t.set(a).empty());
  return find(legato::load::load_profile({dir.file("legate_0.prof")}), t);
}

// A program: a top-level task "main" on io0 from 0 to `end` issuing
// operations, each at a line of prog.py.
struct Program {
  explicit Program(SyntheticTrace& t, trace::Time end) : t(t) {
    io = t.processor(trace::ProcKind::Io, 0, "io0");
    top = t.operation("main", "");
    task = t.task(io, t.task_kind("main"), 0, end, top);
  }
  trace::Uid op(const std::string& name, int line) {
    return t.operation(name, "prog.py:" + std::to_string(line), top);
  }
  SyntheticTrace& t;
  uint32_t io;
  trace::Uid top, task;
};

// `count` tasks of `length` ns on `cpus` CPUs, one every `every` ns per
// CPU, from operations at prog.py:`line`.
void tasks(SyntheticTrace& t, Program& prog, int cpus, int count, trace::Time length,
           trace::Time every, int line = 12) {
  std::vector<uint32_t> procs;
  for (int c = 0; c < cpus; ++c)
    procs.push_back(t.processor(trace::ProcKind::Cpu, c, "c" + std::to_string(c)));
  const auto kind = t.task_kind("add");
  for (int i = 0; i < count; ++i) {
    const trace::Time at = 1000 + (i / cpus) * every;
    t.task(procs[i % cpus], kind, at, at + length, prog.op("add", line), at, at);
  }
}

}  // namespace

TEST_CASE("tiny tasks: fires on many short tasks, names their line, holds its thresholds") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 2'000'000);
    tasks(t, prog, 4, 200, 5'000, 20'000);  // 5 us tasks, 15 us idle between them
    t.finish();
  }
  const Findings f = run(dir);
  const Finding* tiny = finding(f, "tiny_tasks");
  REQUIRE(tiny != nullptr);
  CHECK(tiny->evidence[0].value == 200);   // tiny tasks
  CHECK(tiny->evidence[2].value == 5000);  // median duration
  // 50 rounds of 20 us, the last one 5 us: 49 * 20 + 5 = 985 us of window,
  // each CPU busy 50 * 5 = 250 us: 735 us idle each.
  CHECK(tiny->t1 - tiny->t0 == 985'000);
  CHECK(tiny->cost == 735'000);
  REQUIRE(tiny->lines.size() == 1);
  CHECK(tiny->lines[0].where == "prog.py:12");
  CHECK(tiny->lines[0].items == 200);
  CHECK(tiny->items.size() == 5);
  CHECK(tiny->kinds == std::vector<LaneKind>{LaneKind::Cpu});
  CHECK(tiny->lanes.size() == 4);
  // At the boundary: 200 tiny tasks fire with min_tasks 200, not 201.
  CHECK(finding(run(dir, {"tiny_tasks.min_tasks=200"}), "tiny_tasks") != nullptr);
  CHECK(finding(run(dir, {"tiny_tasks.min_tasks=201"}), "tiny_tasks") == nullptr);
  // A 5 us task is not shorter than 5 us.
  CHECK(finding(run(dir, {"tiny_tasks.max_task_us=5"}), "tiny_tasks") == nullptr);
  CHECK(finding(run(dir, {"tiny_tasks.max_task_us=5.001"}), "tiny_tasks") != nullptr);
  // Thresholds past what a time holds mean "no limit", never a wrapped cast.
  for (const char* huge : {"1e16", "1e19", "1e300"})
    CHECK(finding(run(dir, {std::string("tiny_tasks.max_task_us=") + huge}), "tiny_tasks") !=
          nullptr);
}

TEST_CASE("findings: costs are shares of the program's time, not the runtime's around it") {
  TempDir dir;
  const trace::Time cost = 735'000;  // as in the case above
  for (const trace::Time runtime : {trace::Time{0}, trace::Time{98'000'000}}) {
    {
      SyntheticTrace t(dir.file("legate_0.prof"));
      Program prog(t, 2'000'000);
      tasks(t, prog, 4, 200, 5'000, 20'000);
      // The runtime's startup and shutdown around the program, 49 ms each.
      if (runtime > 0) {
        t.meta(prog.io, "Runtime Startup", -runtime / 2, 0);
        t.meta(prog.io, "Runtime Shutdown", 2'000'000, 2'000'000 + runtime / 2);
      }
      t.finish();
    }
    INFO("runtime work around the program: " << runtime << " ns");
    const Findings f = run(dir);
    const Finding* tiny = finding(f, "tiny_tasks");
    REQUIRE(tiny != nullptr);
    CHECK(tiny->cost == cost);
    CHECK(tiny->cost_share == Approx(cost / 2e6));
    CHECK(tiny->severity == Severity::High);
    // The text says what the shares are of when the runtime took most of the trace.
    const std::string text =
        findings_text(legato::load::load_profile({dir.file("legate_0.prof")}), f);
    CHECK((text.rfind("The program ran 2 ms of the trace's 100 ms", 0) == 0) == (runtime > 0));
    CHECK(findings_json(legato::load::load_profile({dir.file("legate_0.prof")}), f)["note"]
              .get<std::string>()
              .empty() == (runtime == 0));
  }
}

TEST_CASE("tiny tasks: the cost says how many processors sat idle, in words that fit one") {
  for (const int cpus : {1, 4}) {
    TempDir dir;
    {
      SyntheticTrace t(dir.file("legate_0.prof"));
      Program prog(t, 20'000'000);
      tasks(t, prog, cpus, 200, 5'000, 20'000);
      t.finish();
    }
    const Findings f = run(dir);
    const Finding* tiny = finding(f, "tiny_tasks");
    REQUIRE(tiny != nullptr);
    CHECK(tiny->cost_basis ==
          (cpus == 1 ? "the time the CPU sat idle between the first and the last tiny task"
                     : "the time the 4 CPUs sat idle between the first and the last tiny task "
                       "(idle processor time / 4)"));
  }
}

TEST_CASE("tiny tasks: silent on long tasks") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 600'000'000);
    tasks(t, prog, 4, 200, 2'000'000, 2'100'000);
    t.finish();
  }
  CHECK(finding(run(dir), "tiny_tasks") == nullptr);
}

TEST_CASE("runtime-bound: processors idle while the program issues each task") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 1'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto kind = t.task_kind("add");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    // Task i is issued at 10 us * i + 9 us, mapped 500 ns later, runs 1 us.
    for (int i = 1; i <= 60; ++i) {
      const trace::Time created = 10'000 * i + 9'000;
      const trace::Uid op = prog.op("add", 20);
      t.meta(u0, "Mapping", created, created + 500, op);
      t.task(c0, kind, created + 600, created + 1'600, op, created + 600, created);
    }
    t.finish();
  }
  const Findings f = run(dir);
  const Finding* rb = finding(f, "runtime_bound");
  REQUIRE(rb != nullptr);
  // 59 gaps (the first task has nothing before it on c0): each 9 us of the
  // program issuing and 500 ns of mapping.
  CHECK(rb->evidence[0].value == 59);
  CHECK(rb->evidence[1].value == 59 * 8'400.0);
  CHECK(rb->evidence[2].value == 59 * 500.0);
  REQUIRE(!rb->lines.empty());
  CHECK(rb->lines[0].where == "prog.py:20");
  CHECK(finding(run(dir, {"runtime_bound.min_tasks=60"}), "runtime_bound") == nullptr);
  CHECK(finding(run(dir, {"runtime_bound.min_tasks=59"}), "runtime_bound") != nullptr);
}

TEST_CASE("runtime-bound: silent when the tasks were issued long before they ran") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 1'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto kind = t.task_kind("add");
    for (int i = 0; i < 60; ++i) {
      const trace::Time at = 1000 + 10'000 * i;
      t.task(c0, kind, at, at + 9'000, prog.op("add", 20), 10, 10);
    }
    t.finish();
  }
  CHECK(finding(run(dir), "runtime_bound") == nullptr);
}

TEST_CASE("blocked top level: waits on results name the line that produced them") {
  TempDir dir;
  const auto write = [&](int waits) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 1'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto kind = t.task_kind("nonzero");
    for (int i = 0; i < waits; ++i) {
      const trace::Time at = 20'000 * i;
      const trace::Uid task = t.task(c0, kind, at, at + 10'000, prog.op("nonzero", 31));
      t.writer().add(trace::WaitRecord{prog.task, at + 1'000, at + 10'000, at + 10'500, task});
    }
    t.finish();
  };
  write(20);
  Findings f = run(dir);
  const Finding* b = finding(f, "blocked_top_level");
  REQUIRE(b != nullptr);
  CHECK(b->evidence[0].value == 20);
  CHECK(b->cost == 20 * 9'500);
  REQUIRE(b->lines.size() == 1);
  CHECK(b->lines[0].where == "prog.py:31");
  CHECK(b->lines[0].items == 20);
  // Blocked 190 us of the 1 ms run: a share of 0.19.
  CHECK(finding(run(dir, {"blocked_top_level.min_share=0.19"}), "blocked_top_level") != nullptr);
  CHECK(finding(run(dir, {"blocked_top_level.min_share=0.191"}), "blocked_top_level") == nullptr);
  write(19);
  CHECK(finding(run(dir), "blocked_top_level") == nullptr);
}

TEST_CASE("idle processors: windows with every CPU idle, and what the chain did meanwhile") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 8'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto ch = t.channel(t.memory(trace::MemKind::System, 0, "a"),
                              t.memory(trace::MemKind::System, 0, "b"), "a to b");
    const auto kind = t.task_kind("work");
    const trace::Uid a = t.task(c0, kind, 0, 1'000'000, prog.op("work", 5));
    t.task(c1, kind, 0, 1'000'000, prog.op("work", 5));
    const trace::Uid copy = t.copy(ch, 1000, 1'000'000, 6'000'000);  // the 5 ms gap
    const trace::Uid b = t.task(c0, kind, 6'000'000, 7'000'000, prog.op("work", 7));
    t.edge(copy, a);
    t.edge(b, copy);
    t.finish();
  }
  const Findings f = run(dir);
  const Finding* idle = finding(f, "idle_processors");
  REQUIRE(idle != nullptr);
  CHECK(idle->cost == 5'000'000);
  CHECK(idle->t0 == 1'000'000);
  CHECK(idle->t1 == 6'000'000);
  CHECK(idle->summary.find("Channel copy 100%") != std::string::npos);
  CHECK(finding(run(dir, {"idle_processors.min_gap_us=5000"}), "idle_processors") != nullptr);
  CHECK(finding(run(dir, {"idle_processors.min_gap_us=5001"}), "idle_processors") == nullptr);
  for (const char* huge : {"1e16", "1e300"})
    CHECK(finding(run(dir, {std::string("idle_processors.min_gap_us=") + huge}),
                  "idle_processors") == nullptr);
  // 5 ms of the 8 ms run.
  CHECK(finding(run(dir, {"idle_processors.min_share=0.625"}), "idle_processors") != nullptr);
  CHECK(finding(run(dir, {"idle_processors.min_share=0.626"}), "idle_processors") == nullptr);
  const Finding* cp = finding(f, "critical_path");
  REQUIRE(cp != nullptr);
  CHECK(cp->severity == Severity::Info);
  CHECK(cp->items.size() == 3);  // b, the copy, a
}

namespace {

// A GPU run: the GPU's tasks every 2 ms, 1 ms each, with their kernels; two
// CPUs that run runtime work and, given `cpu_work`, a task each at the
// start and end (the program's work on CPUs).
void gpu_run(const TempDir& dir, trace::Time cpu_work) {
  SyntheticTrace t(dir.file("legate_0.prof"));
  Program prog(t, 10'000'000);
  const auto host = t.processor(trace::ProcKind::GpuHost, 0, "g0h");
  const auto dev = t.processor(trace::ProcKind::GpuDevice, 0, "g0d");
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const auto kind = t.task_kind("add");
  for (int i = 0; i < 5; ++i) {
    const trace::Time at = 100'000 + i * 2'000'000;
    const trace::Uid task = t.task(host, kind, at, at + 1'000'000, prog.op("add", 20));
    t.writer().add(
        trace::GpuKernelRecord{task, dev, t.writer().intern("add_kernel"), 0, at, at + 1'000'000});
  }
  for (const auto c : {c0, c1}) {
    t.meta(c, "Mapping", 0, 50'000);
    t.meta(c, "Mapping", 9'000'000, 9'050'000);
    if (cpu_work > 0) {
      t.task(c, kind, 100'000, 100'000 + cpu_work, prog.op("eye", 10));
      t.task(c, kind, 9'100'000, 9'100'000 + cpu_work, prog.op("eye", 11));
    }
  }
  t.finish();
}

bool skipped(const Findings& f, const std::string& rule, const std::string& text) {
  return std::any_of(f.skipped.begin(), f.skipped.end(), [&](const Skipped& s) {
    return s.rule.find(rule) != std::string::npos && s.reason.find(text) != std::string::npos;
  });
}

}  // namespace

TEST_CASE("idle processors and imbalance judge the kinds that ran the program's tasks") {
  TempDir dir;
  gpu_run(dir, 0);  // CPUs ran runtime work only
  Findings f = run(dir);
  for (const Finding& x : f.findings) {
    INFO(x.title);
    if (x.rule == "idle_processors" || x.rule == "load_imbalance")
      CHECK(x.kinds != std::vector<LaneKind>{LaneKind::Cpu});
  }
  // Left out of both rules for one reason: said once, naming both.
  CHECK(skipped(f, "idle_processors, load_imbalance",
                "CPU processors not judged (node 0): they ran none of the task time"));
  // The GPU, which ran the program's tasks, is judged: idle 4 ms of 10.
  const Finding* gpu = finding(f, "idle_processors");
  REQUIRE(gpu != nullptr);
  CHECK(gpu->kinds == std::vector<LaneKind>{LaneKind::GpuDevice});
  CHECK(gpu->cost == 4'000'000);
  // CPUs that ran a share of the work (two 400 us tasks each: 1.6 ms of the
  // 6.6 ms of task time) are judged: idle 8.5 ms, from the end of their first
  // tasks to the runtime work before their last ones.
  gpu_run(dir, 400'000);
  f = run(dir);
  const auto cpu_idle = std::find_if(f.findings.begin(), f.findings.end(), [](const Finding& x) {
    return x.rule == "idle_processors" && x.kinds == std::vector<LaneKind>{LaneKind::Cpu};
  });
  REQUIRE(cpu_idle != f.findings.end());
  CHECK(cpu_idle->cost == 8'500'000);
  CHECK_FALSE(skipped(f, "idle_processors", "CPU"));
  // Raising the share they must run leaves them out again, saying how much they ran.
  f = run(dir, {"idle_processors.min_work_share=0.25"});
  CHECK(skipped(f, "idle_processors", "they ran at most 24%"));
}

TEST_CASE("load imbalance: one CPU busy far longer than the others") {
  TempDir dir;
  const auto write = [&](trace::Time c1_busy) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 10'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto kind = t.task_kind("work");
    t.task(c0, kind, 0, 10'000'000, prog.op("work", 3));
    t.task(c1, kind, 0, c1_busy, prog.op("work", 4));
    t.finish();
  };
  write(2'000'000);  // mean 6 ms, c0 10 ms: 1.67 times
  const Findings f = run(dir);
  const Finding* li = finding(f, "load_imbalance");
  REQUIRE(li != nullptr);
  CHECK(li->cost == 4'000'000);
  CHECK(li->lines[0].where == "prog.py:3");
  CHECK(finding(run(dir, {"load_imbalance.max_over_mean=1.7"}), "load_imbalance") == nullptr);
  // c0 is busy the whole 10 ms run.
  CHECK(finding(run(dir, {"load_imbalance.min_busy_share=1"}), "load_imbalance") != nullptr);
  write(9'000'000);
  CHECK(finding(run(dir), "load_imbalance") == nullptr);
}

TEST_CASE("copies: tiny copies, gathers and scatters, with their lines and bytes") {
  TempDir dir;
  const auto write = [&](int count, uint64_t bytes, trace::CopyKind kind) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 10'000'000);
    const auto ch = t.channel(t.memory(trace::MemKind::System, 0, "a"),
                              t.memory(trace::MemKind::System, 0, "b"), "a to b");
    for (int i = 0; i < count; ++i) {
      const trace::Time at = 10'000 * i;
      t.writer().add(trace::CopyRecord{trace::make_uid(0, 1000 + i), prog.op("z[idx]", 45), ch,
                                       kind, bytes, 0, 0, at, at + 2'000, at, at});
    }
    t.finish();
  };
  write(150, 4096, trace::CopyKind::Gather);
  Findings f = run(dir);
  const Finding* micro = finding(f, "micro_copies");
  REQUIRE(micro != nullptr);
  CHECK(micro->evidence[0].value == 150);
  CHECK(micro->evidence[2].value == 4096);
  CHECK(micro->cost == 150 * 2'000);
  const Finding* index = finding(f, "index_copies");
  REQUIRE(index != nullptr);
  CHECK(index->lines[0].where == "prog.py:45");
  CHECK(index->lines[0].bytes == 150 * 4096);
  // 4 KiB copies are tiny below 4097 bytes, not below 4096.
  CHECK(finding(run(dir, {"micro_copies.max_bytes=4096"}), "micro_copies") == nullptr);
  CHECK(finding(run(dir, {"micro_copies.max_bytes=1e30"}), "micro_copies") != nullptr);
  CHECK(finding(run(dir, {"index_copies.min_copies=151"}), "index_copies") == nullptr);
  CHECK(finding(run(dir, {"micro_copies.min_copies=150"}), "micro_copies") != nullptr);
  CHECK(finding(run(dir, {"micro_copies.min_copies=151"}), "micro_copies") == nullptr);
  write(150, 8 * kMiB, trace::CopyKind::Copy);
  f = run(dir);
  CHECK(finding(f, "micro_copies") == nullptr);
  CHECK(finding(f, "index_copies") == nullptr);
}

TEST_CASE("dependent partitioning churn") {
  TempDir dir;
  const auto write = [&](int count) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 10'000'000);
    const auto dp = t.processor(trace::ProcKind::DepPart, 0, "dp0");
    const uint32_t kind = t.writer().intern("NonzeroTask");
    for (int i = 0; i < count; ++i) {
      const trace::Time at = 10'000 * i;
      t.writer().add(trace::DepPartRecord{trace::make_uid(0, 1000 + i), prog.op("nonzero", 46), dp,
                                          kind, at, at + 1'000, at, at});
    }
    t.finish();
  };
  write(100);
  const Findings f = run(dir);
  const Finding* dp = finding(f, "dep_part_churn");
  REQUIRE(dp != nullptr);
  CHECK(dp->cost == 100'000);
  CHECK(dp->lines[0].where == "prog.py:46");
  write(99);
  CHECK(finding(run(dir), "dep_part_churn") == nullptr);
}

namespace {

void instance(SyntheticTrace& t, uint32_t mem, uint64_t store, uint64_t bytes,
              const std::string& line, trace::Uid op, trace::Time create, trace::Time destroy) {
  static uint64_t seq = 5000;
  t.writer().add(trace::InstanceRecord{trace::make_uid(0, ++seq), mem, op, bytes, store, 0,
                                       t.writer().intern(line), create, create + 100, destroy, 0});
}

}  // namespace

TEST_CASE("memory: pressure at the peak, and duplicate instances of one store") {
  TempDir dir;
  const auto write = [&](uint64_t second_bytes, trace::Time second_from) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 10'000'000);
    const auto mem = t.memory(trace::MemKind::System, 10 * kMiB, "sysmem");
    instance(t, mem, 1, 4 * kMiB, "prog.py:2", prog.op("slice", 3), 1'000, 9'000'000);
    instance(t, mem, 1, second_bytes, "prog.py:2", prog.op("add", 5), second_from,
             second_from + 500'000);
    t.finish();
  };
  write(5 * kMiB + kMiB / 2, 2'000);  // 9.5 MiB of 10 at once, two instances of store 1
  Findings f = run(dir);
  const Finding* full = finding(f, "memory_pressure");
  REQUIRE(full != nullptr);
  CHECK(full->bytes == 9 * kMiB + kMiB / 2);
  CHECK(full->t1 == 2'000);
  const Finding* dup = finding(f, "duplicate_instances");
  REQUIRE(dup != nullptr);
  CHECK(dup->bytes == 5 * kMiB + kMiB / 2);
  REQUIRE(dup->lines.size() == 1);
  CHECK(dup->lines[0].where == "prog.py:2");
  CHECK(dup->lines[0].note == "2 instances, created for operations at prog.py:3, prog.py:5");
  CHECK(dup->severity == Severity::Medium);  // over a quarter of the memory
  CHECK(finding(run(dir, {"memory_pressure.max_peak_share=0.95"}), "memory_pressure") != nullptr);
  CHECK(finding(run(dir, {"memory_pressure.max_peak_share=0.951"}), "memory_pressure") == nullptr);
  // The extra instance is 5.5 MiB: it counts from min_bytes 5.5 MiB down.
  CHECK(finding(run(dir, {"duplicate_instances.min_bytes=5767168"}), "duplicate_instances") !=
        nullptr);
  CHECK(finding(run(dir, {"duplicate_instances.min_bytes=5767169"}), "duplicate_instances") ==
        nullptr);
  write(5 * kMiB, 9'000'000);  // the second starts when the first is gone
  f = run(dir);
  CHECK(finding(f, "memory_pressure") == nullptr);
  CHECK(finding(f, "duplicate_instances") == nullptr);
}

TEST_CASE("temporaries: large arrays that live briefly") {
  TempDir dir;
  const auto write = [&](int count) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 100'000'000);
    const auto mem = t.memory(trace::MemKind::System, 1024 * kMiB, "sysmem");
    for (int i = 0; i < count; ++i)
      instance(t, mem, 10 + i, 2 * kMiB, "prog.py:" + std::to_string(7 + i), prog.op("mul", 7),
               1'000'000 * i, 1'000'000 * i + 500'000);
    instance(t, mem, 99, 2 * kMiB, "prog.py:1", prog.op("zeros", 1), 0, 100'000'000);
    t.finish();
  };
  write(3);
  const Findings f = run(dir);
  const Finding* tmp = finding(f, "temporaries");
  REQUIRE(tmp != nullptr);
  CHECK(tmp->bytes == 6 * kMiB);
  CHECK(tmp->lines.size() == 3);
  CHECK(tmp->severity == Severity::Low);
  // Each lives 0.5 ms of the 100 ms run: a share of 0.005.
  CHECK(finding(run(dir, {"temporaries.max_life_share=0.005"}), "temporaries") != nullptr);
  CHECK(finding(run(dir, {"temporaries.max_life_share=0.00499"}), "temporaries") == nullptr);
  CHECK(finding(run(dir, {"temporaries.min_bytes=2097153"}), "temporaries") == nullptr);
  write(2);
  CHECK(finding(run(dir), "temporaries") == nullptr);
}

TEST_CASE("out of memory: the arrays holding the memory when the run failed") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 1'000'000);
    const auto mem = t.memory(trace::MemKind::System, 40 * kMiB, "sysmem");
    instance(t, mem, 1, 8 * kMiB, "oom.py:4", prog.op("ones", 4), 1'000, 1'000'000);
    instance(t, mem, 2, 8 * kMiB, "oom.py:7", prog.op("copy", 10), 2'000, 1'000'000);
    instance(t, mem, 2, 8 * kMiB, "oom.py:7", prog.op("add", 13), 3'000, 1'000'000);
    const trace::Uid failed = prog.op("add", 16);
    t.writer().add(trace::ErrorRecord{500'000, trace::ErrorKind::OutOfMemory, failed, mem,
                                      t.writer().intern("Failed to allocate 8388608 bytes")});
    t.finish();
  }
  const Findings f = run(dir);
  const Finding* oom = finding(f, "out_of_memory");
  REQUIRE(oom != nullptr);
  CHECK(oom->severity == Severity::High);
  CHECK(oom->bytes == 24 * kMiB);
  CHECK(oom->t0 == 1'000);
  CHECK(oom->t1 == 500'000);
  REQUIRE(oom->lines.size() == 2);
  CHECK(oom->lines[0].where == "oom.py:7");
  CHECK(oom->lines[0].note == "2 instances, created for operations at prog.py:10, prog.py:13");
  CHECK(oom->lines[1].where == "oom.py:4");
  CHECK(oom->summary.find("add at prog.py:16") != std::string::npos);
  CHECK(f.findings.front().rule == "out_of_memory");  // high severity sorts first
  // The memory finding of a failed run is the out-of-memory one, not pressure.
  CHECK(finding(f, "memory_pressure") == nullptr);
}

TEST_CASE("findings: thresholds parse with clear errors, and JSON carries every finding") {
  Thresholds t;
  CHECK(t.get("tiny_tasks", "max_task_us") == 100);
  CHECK(t.set("tiny_tasks.max_task_us=50").empty());
  CHECK(t.get("tiny_tasks", "max_task_us") == 50);
  CHECK(t.set("tiny_tasks.max_task_us").find("is not rule.param=value") != std::string::npos);
  CHECK(t.set("tiny_tasks.nope=1").find("has no parameter 'nope'; it has max_task_us") !=
        std::string::npos);
  CHECK(t.set("nope.x=1").find("no rule is called 'nope'") != std::string::npos);
  CHECK(t.set("tiny_tasks.min_tasks=abc").find("must be a number >= 0, not 'abc'") !=
        std::string::npos);
  CHECK(t.set("tiny_tasks.min_tasks=-1").find("must be a number") != std::string::npos);
  CHECK(t.set("tiny_tasks.min_share=2").find("is a share between 0 and 1") != std::string::npos);
  for (const RuleParam& r : rule_params()) {
    const bool known = std::any_of(rules().begin(), rules().end(),
                                   [&](const RuleInfo& i) { return i.id == r.rule; });
    CHECK(known);
  }

  TempDir dir;
  {
    SyntheticTrace t2(dir.file("legate_0.prof"));
    Program prog(t2, 2'000'000);
    tasks(t2, prog, 4, 200, 5'000, 20'000);
    t2.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const Findings f = find(p);
  const auto j = findings_json(p, f);
  REQUIRE(j["findings"].size() == f.findings.size());
  const auto& first = j["findings"][0];
  CHECK(first["rule"] == "tiny_tasks");
  CHECK(first["severity"] == "high");
  CHECK(first["lines"][0]["where"] == "prog.py:12");
  CHECK(first["evidence"][0]["text"] == "200");
  CHECK(first["items"].size() == 5);
  // Membership: the tiny tasks belong to the finding, the top-level task not.
  const Finding& tiny = *finding(f, "tiny_tasks");
  uint64_t members = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) members += belongs(p, tiny, i);
  CHECK(members == 200);
  const std::string text = findings_text(p, f);
  CHECK(text.find("1. [high] Many tiny tasks on the CPUs  (tiny_tasks)") != std::string::npos);
  CHECK(text.find("prog.py:12  200 items") != std::string::npos);
}

TEST_CASE("details: the runtime work of an item's operation, shared among its items") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 1'000'000);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto kind = t.task_kind("add");
    const trace::Uid op = prog.op("add", 3);
    t.meta(u0, "Dependence Analysis", 100, 400, op);
    t.meta(u0, "Mapping", 400, 1'000, op);
    t.task(c0, kind, 2'000, 3'000, op);
    t.task(c1, kind, 2'000, 3'000, op);
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  uint32_t task = kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i)
    if (p.items[i].kind == ItemKind::Task && p.label(i) == "add") task = i;
  REQUIRE(task != kNone);
  const ItemDetails d = details(p, task);
  CHECK(d.operation_runtime == 900);
  CHECK(d.runtime_overhead == 450);  // two point tasks share it
}

TEST_CASE("findings of one rule on several nodes merge into one naming the costliest node") {
  TempDir dir;
  for (uint32_t rank = 0; rank < 2; ++rank) {
    SyntheticTrace t(dir.file("legate_" + std::to_string(rank) + ".prof"), rank, 2);
    Program prog(t, 2'000'000);
    // Node 1's tasks are further apart: it idles longer.
    tasks(t, prog, 4, 200, 5'000, rank == 0 ? 20'000 : 30'000);
    t.finish();
  }
  const Profile p =
      legato::load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  const Findings f = find(p);
  uint32_t tiny_findings = 0;
  for (const Finding& x : f.findings) tiny_findings += x.rule == "tiny_tasks";
  CHECK(tiny_findings == 1);
  const Finding* tiny = finding(f, "tiny_tasks");
  REQUIRE(tiny != nullptr);
  CHECK(tiny->title == "Many tiny tasks on the CPUs on 2 nodes");
  CHECK(tiny->summary.rfind("On node 1, the costliest of the 2 nodes: ", 0) == 0);
  CHECK(tiny->rank == kAllNodes);
  CHECK(tiny->evidence[0].label == "nodes");
  CHECK(tiny->evidence[0].value == 2);
  CHECK(tiny->lanes.size() == 8);
  REQUIRE(tiny->lines.size() == 1);
  CHECK(tiny->lines[0].items == 400);
  // 50 rounds of 30 us on node 1: 1475 us of window, 1225 us idle per CPU.
  CHECK(tiny->cost == 1'225'000);
}

TEST_CASE("memory: a memory whose capacity the trace does not give is never judged full") {
  TempDir dir;
  const auto write = [&](uint64_t capacity) {
    SyntheticTrace t(dir.file("legate_0.prof"));
    Program prog(t, 10'000'000);
    const auto mem = t.memory(trace::MemKind::System, capacity, "sysmem1");
    instance(t, mem, 1, 4 * kMiB, "prog.py:2", prog.op("a", 3), 1'000, 9'000'000);
    instance(t, mem, 2, 2 * kMiB, "prog.py:4", prog.op("b", 5), 2'000, 3'000'000);
    t.finish();
  };
  write(0);
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const Lane& mem = p.lanes[p.nodes[0].kinds.back().lanes[0]];
  REQUIRE(mem.name == "sysmem1");
  // Drawn against all its instances, as legion_prof draws it.
  CHECK(mem.capacity == 6 * kMiB);
  CHECK_FALSE(mem.capacity_given);
  const Findings f = find(p);
  CHECK(finding(f, "memory_pressure") == nullptr);
  CHECK(skipped(f, "memory_pressure", "1 memory (sysmem1 (System Memory)) not judged"));
  // The same use of a memory that gives its capacity is nearly full.
  write(6 * kMiB + kMiB / 2);
  CHECK(finding(run(dir), "memory_pressure") != nullptr);
}

TEST_CASE("findings: a run with nothing timed is nothing to check, never healthy") {
  TempDir dir;
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    t.processor(trace::ProcKind::Cpu, 0, "c0");  // described, never used
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  const Findings f = find(p);
  CHECK(f.empty_run);
  CHECK(f.findings.empty());
  CHECK(f.note.rfind("Nothing to check: the run holds no tasks, copies, instances or other timed "
                     "records",
                     0) == 0);
  REQUIRE(f.skipped.size() == 1);
  for (const RuleInfo& r : rules()) CHECK(f.skipped[0].rule.find(r.id) != std::string::npos);
  const std::string text = findings_text(p, f);
  CHECK(text.find("No findings") == std::string::npos);
  CHECK(findings_json(p, f)["empty_run"] == true);
}
