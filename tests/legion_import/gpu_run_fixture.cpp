#include "gpu_run_fixture.hpp"

namespace legato::legion::testing {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kNoParent = ~uint64_t{0};

void write_node(const std::string& path, uint32_t n, LogVersion version, bool gzip) {
  LegionLogWriter w(path, version, gzip);
  const bool graph = has_event_graph(version);  // `critical` fields and the event graph
  MachineInfo m;
  m.node = n;
  m.nodes = 2;
  m.hostname = "gpunode" + std::to_string(n);
  m.process_id = 5000 + n;
  m.zero_time += n * 300;
  w.machine(m);
  w.runtime_config();
  const uint64_t u0 = proc_id(n, 0), c1 = proc_id(n, 1), c2 = proc_id(n, 2), g3 = proc_id(n, 3);
  const uint64_t sys = mem_id(n, 0), zc = mem_id(n, 1), fb = mem_id(n, 2);
  // Legion of 2023 and older described the whole machine in every node's
  // file, each description several times over.
  const bool whole_machine = version == LogVersion::V2020 || version == LogVersion::V2023;
  for (uint32_t node = 0; node < 2; ++node) {
    if (node != n && !whole_machine) continue;
    for (int repeat = 0; repeat < (whole_machine ? 2 : 1); ++repeat) {
      w.proc(proc_id(node, 0), kUtility);
      w.proc(proc_id(node, 1), kCpu);
      w.proc(proc_id(node, 2), kCpu);
      w.proc(proc_id(node, 3), kGpu);
      w.memory(mem_id(node, 0), kSystemMem, 256 * kMiB);
      w.memory(mem_id(node, 1), kZeroCopyMem, 64 * kMiB);
      w.memory(mem_id(node, 2), kFramebufferMem, uint64_t{16} << 30);
    }
  }
  w.proc_memory(g3, fb, 900, 5);
  w.task_kind(1, "unnamed_task_1", false);
  w.task_kind(1, "cpu_task");
  w.task_kind(2, "gpu_task");
  w.task_variant(1, 1, "cpu_variant");
  w.task_variant(2, 2, "gpu_variant");
  w.meta_desc(1, "Trigger Operation Mapping");
  w.op_desc(30, "Task");
  w.op_desc(1, "Copy");
  w.op_desc(20, "Fill");
  w.op_desc(5, "Dependent Partition");
  w.mapper_call_desc(1, "map_task");
  w.runtime_call_desc(3, "create_region");
  w.mapper_name(0, u0, "default mapper");
  const auto E = [n](uint64_t s) { return event_id(n, s); };
  // Legion of 2023 writes each operation's provenance as text.
  const bool provenance = version == LogVersion::V2023;
  for (uint64_t op : {10, 20, 30, 40, 50}) {
    if (provenance) w.provenance(op, "prog.py:" + std::to_string(op) + "$OpCode,ADD");
    w.operation(op + n, kNoParent, op == 50 ? 1 : 30, provenance ? op : 0);
  }

  // u0: mapping with a mapper call, a call in the call, and a meta wait
  // inside the mapper call.
  MetaTimes mt;
  mt.op = 10 + n;
  mt.lg_id = 1;
  mt.proc = u0;
  mt.create = 100;
  mt.ready = 200;
  mt.start = 500;
  mt.stop = 3000;
  mt.fevent = E(1);
  w.meta(mt);
  w.mapper_call(0, u0, 1, 10 + n, 600, 2600, u0, E(1));
  w.runtime_call(3, 2000, 2200, u0, E(1));
  w.meta_wait(10 + n, 1, 1000, 1700, 1800);

  // c1, c2: CPU tasks (node 1's first one created by node 0's meta task).
  TaskTimes t1;
  t1.op = 10 + n;
  t1.task_id = 1;
  t1.variant_id = 1;
  t1.proc = c1;
  t1.create = 2500;
  t1.ready = 3000;
  t1.start = 3100;
  t1.stop = 13100;
  t1.creator = n == 1 ? event_id(0, 1) : E(1);
  t1.critical = graph ? E(42) : 0;
  t1.fevent = E(2);
  w.task(t1);
  w.event_trigger(E(42), E(1), 0, 2000);
  w.task_wait(10 + n, 1, 1, 5000, 6500, 7000);
  w.runtime_call(3, 8000, 8500, c1, E(2));
  TaskTimes t2 = t1;
  t2.op = 40 + n;
  t2.proc = c2;
  t2.create = 3500;
  t2.ready = t2.start = 4000;
  t2.stop = 10000;
  t2.creator = E(1);
  t2.critical = 0;
  t2.fevent = E(3);
  w.task(t2);

  // g3: two GPU tasks; the first gated by both CPU tasks.
  TaskTimes g1;
  g1.op = 20 + n;
  g1.task_id = 2;
  g1.variant_id = 2;
  g1.proc = g3;
  g1.create = 3000;
  g1.ready = 13200;
  g1.start = 13500;
  g1.stop = 20500;
  g1.gpu_start = 14000;
  g1.gpu_stop = 19000;
  g1.creator = E(1);
  g1.critical = graph ? E(40) : 0;
  g1.fevent = E(4);
  w.gpu_task(g1);
  w.event_merger(E(40), E(1), 2900, E(2), E(3));
  TaskTimes g2 = g1;
  g2.op = 30 + n;
  g2.ready = 21000;
  g2.start = 21500;
  g2.stop = 25500;
  g2.gpu_start = 22000;
  g2.gpu_stop = 30000;
  // Node 1's second GPU task waits for node 0's first one (stop 20500) and
  // its own c2 task (stop 10000): a precondition from another node's file.
  g2.critical = graph && n == 1 ? E(43) : 0;
  g2.fevent = E(5);
  w.gpu_task(g2);
  if (n == 1) w.event_merger(E(43), E(1), 2950, event_id(0, 4), E(3));

  // Instances.
  const auto inst = [&](uint64_t seq, uint64_t mem, uint32_t mem_index, uint64_t bytes,
                        uint64_t create, uint64_t destroy) {
    InstanceTimes i;
    i.inst_uid = E(seq);
    i.inst_id = instance_id(n, mem_index, seq);
    i.mem = mem;
    i.size = bytes;
    i.op = 10 + n;
    i.create = create;
    i.ready = create + 100;
    i.destroy = destroy;
    i.creator = E(1);
    w.instance(i);
    w.instance_ready(E(seq + 100), 0, i.inst_uid, i.ready);
    return i.inst_uid;
  };
  inst(10, sys, 0, 4096, 1000, 30000);
  const uint64_t i2 = inst(11, zc, 1, 1 * kMiB, 2000, 26000);
  inst(12, zc, 1, 2 * kMiB, 5000, 8000);
  const uint64_t i4 = inst(13, fb, 2, 64 * kMiB, 10000, 31000);
  inst(14, fb, 2, 32 * kMiB, 12000, 20000);
  inst(15, fb, 2, 16 * kMiB, 21000, 30000);

  // Copies, a gather, a scatter and a fill.
  const auto chan = [&](uint64_t seq, uint64_t bytes, uint64_t start, uint64_t stop) {
    ChannelTimes c;
    c.op = 50 + n;
    c.size = bytes;
    c.create = start - 1000;
    c.ready = start - 500;
    c.start = start;
    c.stop = stop;
    c.creator = E(1);
    c.fevent = E(seq);
    return c;
  };
  // Older logs name a copy's memories in CopyInfo (a gather or scatter is
  // a copy between them there).
  const auto mems = [](ChannelTimes c, uint64_t src, uint64_t dst) {
    c.src = src;
    c.dst = dst;
    return c;
  };
  w.copy(mems(chan(20, kMiB, 10500, 11500), zc, fb));
  w.copy_inst(zc, fb, i2, i4, E(20));
  w.copy(mems(chan(21, kMiB, 20600, 21000), fb, zc));
  w.copy_inst(fb, zc, i4, i2, E(21));
  w.copy(mems(chan(22, kMiB, 14000, 15000), zc, fb));
  w.copy_inst(zc, fb, i2, i4, E(22), true);
  w.copy(mems(chan(23, kMiB, 16000, 16500), fb, zc));
  w.copy_inst(0, zc, 0, i2, E(23), true);
  w.fill(mems(chan(25, 64 * kMiB, 11000, 11200), 0, fb));
  w.fill_inst(fb, i4, E(25));
  if (n == 0) {
    w.copy(mems(chan(24, 8 * kMiB, 25000, 27000), fb, mem_id(1, 2)));
    w.copy_inst(fb, mem_id(1, 2), i4, 0, E(24));
    ChannelTimes p = chan(30, 0, 4000, 6000);
    p.part_op = 9;  // Partition by Field
    w.partition(p);
  }
  w.finish();
}

}  // namespace

GpuRunFiles write_gpu_run(const std::string& dir, LogVersion version, bool gzip) {
  const std::string ext = gzip ? ".gz" : ".prof";
  GpuRunFiles f{dir + "/prof_0" + ext, dir + "/prof_1" + ext};
  write_node(f.node0, 0, version, gzip);
  write_node(f.node1, 1, version, gzip);
  return f;
}

}  // namespace legato::legion::testing
