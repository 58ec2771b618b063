// What a profiled run leaves in its trace: the lanes, records that reference
// what exists, and times that make sense for every record.
#include <catch2/catch.hpp>
#include <set>

#include "runtime/runtime_test_util.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::rt;
using trace::testing::TempDir;

TEST_CASE("a profiled run records every lane, with consistent references and times",
          "[runtime][trace]") {
  TempDir dir;
  {
    testing::RuntimeScope scope("--cpus 2 --utility 2 --min-cpu-chunk 1000 --profile --logdir " +
                                dir.path().string());
    const TaskId scale = register_task("scale", [](TaskContext& ctx) {
      double* a = ctx.data<double>(0);
      for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] *= 2;
    });
    const TaskId total = register_task("total", [](TaskContext& ctx) {
      const double* a = ctx.data<double>(0);
      double s = 0;
      for (int64_t i = 0; i < ctx.range(0).size(); ++i) s += a[i];
      ctx.result(s);
    });
    const TaskId count = register_task("count_positive", [](TaskContext& ctx) {
      const double* a = ctx.data<double>(0);
      int64_t n = 0;
      for (int64_t i = 0; i < ctx.range(0).size(); ++i) n += a[i] > 0;
      ctx.result(n);
    });
    Store a = create_store(50000, DType::F64, "a");
    Store b = create_store(50000, DType::F64, "b");
    fill(a, {0, 50000}, Scalar(1.5));
    for (int i = 0; i < 3; ++i)
      TaskLauncher(scale, 50000).add_aligned(a, 0, Privilege::ReadWrite).execute();
    copy(a, 0, b, 0, 50000);
    TaskLauncher(scale, 20000).add_aligned(b, 10000, Privilege::ReadWrite).execute();
    CHECK(TaskLauncher(total, 50000)
              .add_aligned(b, 0, Privilege::Read)
              .reduce_result(ReduceOp::Sum)
              .execute()
              .get() == Approx(1.5 * 8 * 30000 + 1.5 * 16 * 20000));
    CHECK(TaskLauncher(count, 50000)
              .add_aligned(a, 0, Privilege::Read)
              .on_dependent_partitioning()
              .reduce_result(ReduceOp::Sum)
              .execute()
              .get_int() == 50000);
    a = Store();  // collected while the program runs
  }
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  CHECK(l.diagnostics.empty());
  const auto& r = l.records;

  std::map<trace::ProcKind, int> kinds;
  std::set<uint32_t> procs, memories, channels;
  for (const auto& p : r.get<trace::ProcessorRecord>()) {
    ++kinds[p.proc_kind];
    procs.insert(p.id);
  }
  CHECK(kinds[trace::ProcKind::Io] == 1);
  CHECK(kinds[trace::ProcKind::Cpu] == 2);
  CHECK(kinds[trace::ProcKind::Utility] == 2);
  CHECK(kinds[trace::ProcKind::DepPart] == 1);
  for (const auto& m : r.get<trace::MemoryRecord>()) memories.insert(m.id);
  REQUIRE(r.get<trace::MemoryRecord>().size() == 1);
  CHECK(r.get<trace::MemoryRecord>()[0].mem_kind == trace::MemKind::System);
  for (const auto& c : r.get<trace::ChannelRecord>()) channels.insert(c.id);
  CHECK(channels.size() == 2);

  std::set<trace::Uid> ops, items;
  for (const auto& o : r.get<trace::OperationRecord>()) ops.insert(o.uid);
  for (const auto& t : r.get<trace::TaskRecord>()) {
    items.insert(t.uid);
    CHECK(procs.count(t.processor) == 1);
    CHECK((t.create <= t.ready && t.ready <= t.start && t.start <= t.stop));
    CHECK((t.op == 0 || ops.count(t.op) == 1));
  }
  CHECK(r.get<trace::DepPartRecord>().size() == 1);
  for (const auto& d : r.get<trace::DepPartRecord>()) {
    items.insert(d.uid);
    CHECK((d.create <= d.ready && d.ready <= d.start && d.start <= d.stop));
  }
  std::map<trace::CopyKind, int> copies;
  for (const auto& c : r.get<trace::CopyRecord>()) {
    items.insert(c.uid);
    ++copies[c.copy_kind];
    CHECK(channels.count(c.channel) == 1);
    CHECK((c.create <= c.ready && c.ready <= c.start && c.start <= c.stop));
    CHECK(ops.count(c.op) == 1);
  }
  CHECK(copies[trace::CopyKind::Fill] >= 1);
  CHECK(copies[trace::CopyKind::Copy] >= 1);
  std::map<std::string, int> meta;
  std::map<uint32_t, std::string> strings;
  for (const auto& s : r.get<trace::StringRecord>()) strings[s.id] = s.text;
  for (const auto& m : r.get<trace::MetaTaskRecord>()) {
    items.insert(m.uid);
    ++meta[strings[m.meta_kind]];
    CHECK((m.create <= m.ready && m.ready <= m.start && m.start <= m.stop));
    CHECK((m.op == 0 || ops.count(m.op) == 1));  // 0: the recorder's own flushes
  }
  CHECK(meta["Dependence Analysis"] == static_cast<int>(ops.size()) - 1);  // all but the top level
  CHECK(meta["Mapping"] == static_cast<int>(ops.size()) - 1);
  CHECK(meta["Instance Collection"] >= 1);
  for (const auto& i : r.get<trace::InstanceRecord>()) {
    CHECK(memories.count(i.memory) == 1);
    CHECK((i.create <= i.ready && i.ready <= i.destroy));
    CHECK(ops.count(i.op) == 1);
  }
  CHECK(r.get<trace::InstanceRecord>().size() >= 2);
  CHECK(r.get<trace::WaitRecord>().size() >= 2);  // the two get() calls and the final fence
  // Each wait names the item whose completion ended it: a future's
  // producer; for the final fence, the item that finished the last operation.
  for (const auto& w : r.get<trace::WaitRecord>()) {
    CHECK((w.start <= w.ready && w.ready <= w.end));
    CHECK(items.count(w.event) == 1);
  }
  for (const auto& e : r.get<trace::EdgeRecord>()) {
    CHECK(items.count(e.item) == 1);
    CHECK(items.count(e.precondition) == 1);
  }
  // The top-level task spans the program on the IO lane.
  const auto top =
      std::find_if(r.get<trace::TaskRecord>().begin(), r.get<trace::TaskRecord>().end(),
                   [](const trace::TaskRecord& t) { return t.op == 0; });
  REQUIRE(top != r.get<trace::TaskRecord>().end());
  for (const auto& t : r.get<trace::TaskRecord>()) {
    CHECK(t.start >= top->start);
    CHECK(t.stop <= top->stop);
  }
  // The runtime's startup comes before it there and its shutdown follows
  // it, each as runtime work of its own with its steps inside it in order
  // (a run without GPUs or other ranks has no steps for them).
  CHECK(meta["Runtime Startup"] == 1);
  CHECK(meta["Start Runtime Threads"] == 1);
  CHECK(meta.count("Start GPUs") == 0);
  CHECK(meta.count("Start Network") == 0);
  CHECK(meta["Runtime Shutdown"] == 1);
  CHECK(meta["Free Leftover Instances"] == 1);
  CHECK(meta["Stop Runtime Threads"] == 1);
  CHECK(meta.count("Collect GPU Activity") == 0);
  CHECK(meta.count("Free GPU Memory") == 0);
  const auto meta_named = [&](const std::string& name) {
    for (const auto& m : r.get<trace::MetaTaskRecord>())
      if (strings[m.meta_kind] == name) return m;
    FAIL("no meta-task " << name);
    return trace::MetaTaskRecord{};
  };
  const trace::MetaTaskRecord shutdown = meta_named("Runtime Shutdown");
  const trace::MetaTaskRecord freeing = meta_named("Free Leftover Instances");
  const trace::MetaTaskRecord stopping = meta_named("Stop Runtime Threads");
  CHECK(shutdown.processor == top->processor);
  CHECK(shutdown.start == top->stop);
  for (const auto& m : {freeing, stopping}) {
    CHECK(m.processor == shutdown.processor);
    CHECK((shutdown.start <= m.start && m.stop <= shutdown.stop));
  }
  CHECK(freeing.stop <= stopping.start);
  const trace::MetaTaskRecord startup = meta_named("Runtime Startup");
  const trace::MetaTaskRecord threads = meta_named("Start Runtime Threads");
  CHECK(startup.processor == top->processor);
  CHECK(startup.stop == top->start);
  CHECK(startup.start < startup.stop);
  CHECK(threads.processor == startup.processor);
  CHECK((startup.start <= threads.start && threads.stop <= startup.stop));
}

TEST_CASE("a program held back by a full operation window waits for items the trace holds",
          "[runtime][trace]") {
  TempDir dir;
  constexpr int kLaunches = 64;
  {
    // Room for four unfinished operations: the program blocks until a
    // quarter of the window drains, many times over.
    testing::RuntimeScope scope("--cpus 1 --window-size 4 --profile --logdir " +
                                dir.path().string());
    const TaskId bump = register_task("bump", [](TaskContext& ctx) {
      double* a = ctx.data<double>(0);
      for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] += 1;
    });
    Store a = create_store(4096, DType::F64, "a");
    fill(a, {0, 4096}, Scalar(0.0));
    for (int i = 0; i < kLaunches; ++i)
      TaskLauncher(bump, 4096).add_aligned(a, 0, Privilege::ReadWrite).execute();
  }
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  const auto& r = l.records;
  std::set<trace::Uid> items;
  for (const auto& t : r.get<trace::TaskRecord>()) items.insert(t.uid);
  for (const auto& c : r.get<trace::CopyRecord>()) items.insert(c.uid);
  for (const auto& m : r.get<trace::MetaTaskRecord>()) items.insert(m.uid);
  // Blocked by the window more than once (besides the final fence; how
  // often depends on how fast the workers drain it: 14 to 39 times in runs
  // of this test), and never on an operation the critical path could not
  // follow (an operation's uid names no item).
  CHECK(r.get<trace::WaitRecord>().size() >= 3);
  for (const auto& w : r.get<trace::WaitRecord>()) CHECK(items.count(w.event) == 1);
}
