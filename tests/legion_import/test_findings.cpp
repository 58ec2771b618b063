// Findings on the real Legion logs: the rules run on what the importer
// gives, find what is there (log B's tasks all on one of 16 CPUs), and say
// what they cannot check (no provenance: no lines); and on a synthetic
// cuNumeric-like GPU run, what they leave out: idle CPUs that run no tasks
// and memories the log gives no capacity for.
#include <algorithm>

#include <catch2/catch.hpp>

#include "analysis/findings.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "load/load.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;

TEST_CASE("Legion logs: findings from what the log holds, and what it lacks said") {
  for (const char* name : kRealLogs) {
    INFO(name);
    const Profile p = legato::load::load_profile({data_file(name)});
    const Findings f = find(p);
    // The chain that ends the run: the four Julia tasks after the runtime
    // work that launched them.
    const auto path = std::find_if(f.findings.begin(), f.findings.end(),
                                   [](const Finding& x) { return x.rule == "critical_path"; });
    REQUIRE(path != f.findings.end());
    CHECK(path->evidence[0].value >= 8);
    CHECK(std::any_of(f.skipped.begin(), f.skipped.end(),
                      [](const Skipped& s) { return s.rule == "code lines"; }));
    for (const Finding& x : f.findings) CHECK(x.lines.empty());
  }
  // Log B ran all four of its tasks on c2, one of 16 CPUs.
  const Profile b = legato::load::load_profile({data_file(kB)});
  const Findings f = find(b);
  const auto li = std::find_if(f.findings.begin(), f.findings.end(),
                               [](const Finding& x) { return x.rule == "load_imbalance"; });
  REQUIRE(li != f.findings.end());
  CHECK(li->summary.rfind("c2 was busy", 0) == 0);
  CHECK(li->evidence[3].value == Approx(16.0).epsilon(0.01));
  for (uint32_t i : li->items) CHECK(b.items[i].kind == ItemKind::Task);
}

namespace {

// A cuNumeric-like GPU run in Legion 2023's layout, two nodes whose files
// each describe both: the program's tasks on 4 GPUs per node, the CPUs
// running runtime work only, the Python processor the top-level task, and a
// system memory whose capacity the log gives as 0.
void write_cunumeric_like(const std::string& dir) {
  using namespace legion::testing;
  constexpr uint64_t kNoParent = ~uint64_t{0};
  for (uint32_t n = 0; n < 2; ++n) {
    LegionLogWriter w(dir + "/legate_" + std::to_string(n) + ".prof", LogVersion::V2023);
    MachineInfo m;
    m.node = n;
    m.nodes = 2;
    w.machine(m);
    for (uint32_t node = 0; node < 2; ++node) {
      w.proc(proc_id(node, 0), kCpu);
      w.proc(proc_id(node, 1), kPython);
      for (uint32_t g = 0; g < 4; ++g) w.proc(proc_id(node, 2 + g), kGpu);
      w.memory(mem_id(node, 0), kSystemMem, 0);
      for (uint32_t g = 0; g < 4; ++g)
        w.memory(mem_id(node, 1 + g), kFramebufferMem, uint64_t{80} << 30);
    }
    w.task_kind(1, "legion_python_main");
    w.task_kind(2, "cunumeric::BinaryOpTask");
    w.meta_desc(3, "Task Physical Dependence Analysis");
    w.operation(1, kNoParent, 1);
    TaskTimes top;
    top.op = 1;
    top.task_id = 1;
    top.proc = proc_id(n, 1);
    top.start = 0;
    top.stop = 100'000'000;
    w.task(top);
    for (uint64_t k = 0; k < 400; ++k) {
      w.operation(100 + k, 1, 1);
      TaskTimes t;
      t.op = 100 + k;
      t.task_id = 2;
      t.proc = proc_id(n, 2 + k % 4);
      t.create = t.ready = t.start = 1'000'000 + (k / 4) * 900'000;
      t.stop = t.start + 800'000;
      t.gpu_start = t.start + 10'000;
      t.gpu_stop = t.stop - 10'000;
      w.gpu_task(t);
      MetaTimes mt;
      mt.op = 100 + k;
      mt.lg_id = 3;
      mt.proc = proc_id(n, 0);
      mt.create = mt.ready = mt.start = t.start - 100'000;
      mt.stop = mt.start + 20'000;
      w.meta(mt);
    }
    InstanceTimes i;
    i.inst_id = 7;
    i.mem = mem_id(n, 0);
    i.size = 1 << 20;
    i.create = i.ready = 500'000;
    i.destroy = 99'000'000;
    w.instance(i);
    w.finish();
  }
}

}  // namespace

TEST_CASE("Legion GPU runs: idle CPUs and memories of no given capacity are not findings") {
  trace::testing::TempDir dir;
  write_cunumeric_like(dir.path().string());
  const Profile p =
      legato::load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  REQUIRE(p.nodes.size() == 2);
  const Findings f = find(p);
  for (const Finding& x : f.findings) {
    INFO(x.title);
    CHECK(x.rule != "memory_pressure");
    CHECK(x.kinds != std::vector<LaneKind>{LaneKind::Cpu});
  }
  const auto said = [&](const std::string& rule, const std::string& text) {
    return std::any_of(f.skipped.begin(), f.skipped.end(), [&](const Skipped& s) {
      return s.rule.find(rule) != std::string::npos && s.reason.find(text) != std::string::npos;
    });
  };
  CHECK(said("idle_processors", "CPU processors not judged (nodes 0, 1): they ran none"));
  CHECK(said("memory_pressure",
             "2 memories (sysmem0 (System Memory on node 0), sysmem0 (System "
             "Memory on node 1)) not judged"));
}
