// write_synthetic_run (legion_log_writer.hpp): one multi-node Legate-like
// GPU run, written fast (no allocation per record) for benchmarks and tests.
#include <algorithm>
#include <array>
#include <filesystem>

#include "legion_import/testing/legion_log_writer.hpp"

namespace legato::legion::testing {

namespace {

// Processors and memories of every node, by Realm index.
constexpr uint32_t kUtil0 = 0, kUtil1 = 1, kCpu0 = 2, kCpus = 4, kGpuIndex = 6, kIoIndex = 7;
constexpr uint32_t kSysMem = 0, kZcMem = 1, kFbMem = 2;
// The events of each operation, by kind (event ids are deterministic, so a
// node's file can name another node's events without reading it).
enum EventKind : uint64_t {
  kTaskEvent = 1,
  kAnalysisEvent,
  kMappingEvent,
  kCompletionEvent,
  kMergeEvent,
  kInstanceEvent,
  kInstanceReadyEvent,
  kCopyEvent,
  kRemoteCopyEvent,
  kMakeValidEvent,
  kExternalEvent,
  kKinds = kExternalEvent  // events per operation
};
// Meta task, mapper call and runtime call kinds.
enum : uint32_t { kAnalysis = 1, kMapping = 2, kReady = 3, kCompletion = 4 };
enum : uint32_t { kSelectOptions = 0, kMapTask = 1 };
enum : uint32_t { kGetFuture = 0, kCreateRegion = 1 };
enum : uint32_t { kTopTask = 1, kCpuTask = 10, kGpuTask = 11 };

struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint64_t between(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
};

// A Realm event id names a slot of its node's event table and a generation
// of it (Realm's id.h: the slot in bits 46..20, the generation in 19..0).
// Slots are reused as events trigger, so a run's event ids are sparse, as
// a real log's are, and each slot's generations go to events of every kind
// in turn (an item's, a merge's, an instance's...), so items hold only some
// of them. Here an operation's events are numbered densely and dealt out
// to the slots in turn; as kKinds and the table's size share no factor, a
// slot's successive generations go to successive kinds.
constexpr uint64_t kEventTableSlots = 4096;
static_assert(kKinds % 2 == 1);

// Generations count from 2: slot 0's generation 1 is the top-level task's.
uint64_t ev(uint32_t node, uint64_t k, EventKind kind) {
  const uint64_t seq = k * kKinds + (kind - 1);
  return event_id(node, (seq % kEventTableSlots) << 20 | (seq / kEventTableSlots + 2));
}

void descriptors(LegionLogWriter& w, uint32_t node) {
  w.runtime_config();
  for (uint32_t u : {kUtil0, kUtil1}) w.proc(proc_id(node, u), kUtility);
  for (uint32_t c = 0; c < kCpus; ++c) w.proc(proc_id(node, kCpu0 + c), kCpu);
  w.proc(proc_id(node, kGpuIndex), kGpu);
  w.proc(proc_id(node, kIoIndex), kIo);
  w.memory(mem_id(node, kSysMem), kSystemMem, uint64_t{64} << 30);
  w.memory(mem_id(node, kZcMem), kZeroCopyMem, uint64_t{1} << 30);
  w.memory(mem_id(node, kFbMem), kFramebufferMem, uint64_t{16} << 30);
  w.task_kind(kTopTask, "legate::toplevel");
  w.task_kind(kCpuTask, "cunumeric::BinaryOpTask");
  w.task_kind(kGpuTask, "cunumeric::MatMulTask");
  w.task_variant(kTopTask, 1, "cpu");
  w.task_variant(kCpuTask, 1, "cpu");
  w.task_variant(kGpuTask, 2, "gpu");
  w.meta_desc(kAnalysis, "Logical Dependence Analysis");
  w.meta_desc(kMapping, "Trigger Operation Mapping");
  w.meta_desc(kReady, "Trigger Ready");
  w.meta_desc(kCompletion, "Deferred Completion");
  w.op_desc(30, "Task");
  w.op_desc(1, "Copy");
  w.mapper_call_desc(kSelectOptions, "select_task_options");
  w.mapper_call_desc(kMapTask, "map_task");
  w.runtime_call_desc(kGetFuture, "Future::get_result");
  w.runtime_call_desc(kCreateRegion, "create_logical_region");
  w.mapper_name(1, proc_id(node, kUtil0), "legate.core.mapper");
}

// The top-level task's operation (node 0's).
constexpr uint64_t kTopOp = 1;

// One node's log: its operations written one after another (operation),
// each as its steps (runtime_work, gate, point_task, completion,
// instance_and_copies), then the top-level task (node 0). The random draws
// happen in the same order as ever, so the run is the same.
class NodeRun {
 public:
  NodeRun(LegionLogWriter& w, uint32_t n, uint32_t nodes, LogVersion version)
      : w_(w),
        n_(n),
        nodes_(nodes),
        version_(version),
        rng_{0x9e3779b97f4a7c15ULL ^ (uint64_t{n} + 1) * 0x100000001b3ULL},
        mapper_proc_(proc_id(n, kUtil0)) {
    free_at_.fill(1'000'000);
  }
  void operation();
  void top_level();

 private:
  // Dependence analysis and mapping on the utility processors.
  void runtime_work(uint64_t op, uint32_t ua, uint32_t um, MetaTimes& a, MetaTimes& mp);
  // The gate of the point task: the previous task here, in a multi-node
  // run the previous operation's task on the next node, and (1012) the
  // index space the mapping made valid, which Realm finishes after the
  // mapping. Returns the merge event; valid_at: when the space was valid.
  uint64_t gate(const MetaTimes& mp, uint64_t& valid_at);
  // The point task, on the GPU every third operation.
  TaskTimes point_task(uint64_t op, const MetaTimes& a, const MetaTimes& mp, uint64_t merged,
                       uint64_t valid_at);
  // Its completion on the utility processor, after the GPU's work: an
  // external event (1012, and late 1008 logs) that it waits for.
  void completion(uint64_t op, uint32_t ua, const TaskTimes& t);
  // An instance for every fourth task, and a copy into it.
  void instance_and_copies(uint64_t op, const MetaTimes& mp, const TaskTimes& t);

  // The top-level task's fevent (node 0; slot 0, generation 1).
  static uint64_t top_event() { return event_id(0, 1); }
  // Whether the current operation's point task runs on the GPU (every third).
  bool gpu_operation() const { return k_ % 3 == 0; }

  LegionLogWriter& w_;
  const uint32_t n_, nodes_;
  const LogVersion version_;
  Rng rng_;
  const uint64_t mapper_proc_;
  std::array<uint64_t, 8> free_at_{};  // per processor index
  uint64_t issue_ = 1'000'000, prev_task_ = 0, k_ = 0;
};

void NodeRun::operation() {
  const uint64_t op = 2 + k_ * nodes_ + n_;
  w_.operation(op, kTopOp, 30);
  const uint32_t ua = (k_ & 1) ? kUtil1 : kUtil0, um = (k_ & 1) ? kUtil0 : kUtil1;
  MetaTimes a, mp;
  runtime_work(op, ua, um, a, mp);
  uint64_t valid_at = 0;
  const uint64_t merged = gate(mp, valid_at);
  const TaskTimes t = point_task(op, a, mp, merged, valid_at);
  completion(op, ua, t);
  if (k_ % 4 == 0) instance_and_copies(op, mp, t);
  prev_task_ = t.fevent;
  issue_ = a.stop + rng_.between(1'000, 6'000);
  ++k_;
}

void NodeRun::runtime_work(uint64_t op, uint32_t ua, uint32_t um, MetaTimes& a, MetaTimes& mp) {
  a.op = op;
  a.lg_id = kAnalysis;
  a.proc = proc_id(n_, ua);
  a.create = issue_;
  a.ready = issue_ + rng_.between(200, 2000);
  a.start = std::max(a.ready, free_at_[ua]);
  a.stop = a.start + rng_.between(5'000, 15'000);
  a.creator = top_event();
  a.fevent = ev(n_, k_, kAnalysisEvent);
  w_.meta(a);
  free_at_[ua] = a.stop + rng_.between(300, 1500);
  w_.mapper_call(1, mapper_proc_, kSelectOptions, op, a.start + 1000, a.start + 3000, a.proc,
                 a.fevent);
  w_.runtime_call(kCreateRegion, a.start + 3500, a.start + 4200, a.proc, a.fevent);
  mp.op = op;
  mp.lg_id = kMapping;
  mp.proc = proc_id(n_, um);
  mp.create = a.stop;
  mp.ready = a.stop + rng_.between(200, 1000);
  mp.start = std::max(mp.ready, free_at_[um]);
  mp.stop = mp.start + rng_.between(6'000, 18'000);
  mp.creator = a.fevent;
  mp.fevent = ev(n_, k_, kMappingEvent);
  w_.meta(mp);
  free_at_[um] = mp.stop + rng_.between(300, 1500);
  w_.mapper_call(1, mapper_proc_, kMapTask, op, mp.start + 500, mp.stop - 500, mp.proc, mp.fevent);
  if (k_ % 8 == 7)  // the mapper waited for something, inside its call
    w_.meta_wait(op, kMapping, mp.start + 1000, mp.start + 2500, mp.start + 3000);
}

uint64_t NodeRun::gate(const MetaTimes& mp, uint64_t& valid_at) {
  const uint64_t merged = ev(n_, k_, kMergeEvent);
  const uint64_t remote = nodes_ > 1 && k_ > 0 ? ev((n_ + 1) % nodes_, k_ - 1, kTaskEvent) : 0;
  // The same times in every format: only what the log records differs.
  const uint64_t valid = ev(n_, k_, kMakeValidEvent);
  valid_at = mp.stop + rng_.between(0, 1000);
  const bool made_valid = w_.make_valid(valid, mp.fevent, 0x1000 + k_, mp.start + 2000, valid_at);
  w_.event_merger(merged, mp.fevent, mp.stop, prev_task_, remote, made_valid ? valid : 0);
  return merged;
}

TaskTimes NodeRun::point_task(uint64_t op, const MetaTimes& a, const MetaTimes& mp, uint64_t merged,
                              uint64_t valid_at) {
  TaskTimes t;
  t.op = op;
  const bool on_gpu = gpu_operation();
  const uint32_t p = on_gpu ? kGpuIndex : kCpu0 + static_cast<uint32_t>(k_ % kCpus);
  t.task_id = on_gpu ? kGpuTask : kCpuTask;
  t.variant_id = on_gpu ? 2 : 1;
  t.proc = proc_id(n_, p);
  t.create = a.start + 500;
  t.ready = std::max(mp.stop + rng_.between(100, 800), valid_at);
  t.start = std::max(t.ready, free_at_[p]);
  t.stop = t.start + (on_gpu ? rng_.between(10'000, 30'000) : rng_.between(20'000, 100'000));
  t.creator = a.fevent;
  t.critical = has_event_graph(version_) ? merged : 0;
  t.fevent = ev(n_, k_, kTaskEvent);
  free_at_[p] = t.stop + rng_.between(500, 3000);
  if (on_gpu) {
    t.gpu_start = t.start + rng_.between(2'000, 5'000);
    t.gpu_stop = t.stop + rng_.between(5'000, 40'000);
    w_.gpu_task(t);
  } else {
    w_.task(t);
  }
  if (k_ % 8 == 3) {  // a blocking wait in the middle of the task
    const uint64_t mid = (t.start + t.stop) / 2;
    w_.task_wait(op, t.task_id, t.variant_id, mid, mid + 2'000, mid + 3'000, prev_task_);
    w_.runtime_call(kGetFuture, mid - 200, mid + 3'200, t.proc, t.fevent);
  }
  return t;
}

void NodeRun::completion(uint64_t op, uint32_t ua, const TaskTimes& t) {
  const bool on_gpu = gpu_operation();
  const uint64_t cuda = ev(n_, k_, kExternalEvent);
  const bool external = on_gpu && w_.external_event(cuda, t.fevent, t.gpu_start, t.gpu_stop, 0);
  MetaTimes c;
  c.op = op;
  c.lg_id = kCompletion;
  c.proc = proc_id(n_, ua);
  c.create = t.stop;
  c.ready = std::max(t.stop + 200, on_gpu ? t.gpu_stop : 0);  // after the GPU's work
  c.start = std::max(c.ready, free_at_[ua]);
  c.stop = c.start + rng_.between(1'000, 4'000);
  c.creator = t.fevent;
  c.critical = external ? cuda : 0;
  c.fevent = ev(n_, k_, kCompletionEvent);
  w_.meta(c);
  free_at_[ua] = c.stop + rng_.between(300, 1500);
}

void NodeRun::instance_and_copies(uint64_t op, const MetaTimes& mp, const TaskTimes& t) {
  const bool on_gpu = gpu_operation();
  InstanceTimes in;
  in.inst_uid = ev(n_, k_, kInstanceEvent);
  in.inst_id = instance_id(n_, on_gpu ? kFbMem : kSysMem, k_);
  in.mem = mem_id(n_, on_gpu ? kFbMem : kSysMem);
  in.size = uint64_t{1} << (16 + k_ % 8);
  in.op = op;
  in.create = mp.start + 1'000;
  in.ready = in.create + rng_.between(500, 5'000);
  in.destroy = t.stop + rng_.between(10'000, 200'000);
  in.creator = mp.fevent;
  w_.instance(in);
  w_.instance_ready(ev(n_, k_, kInstanceReadyEvent), 0, in.inst_uid, in.ready);
  // The task uses it: read-write, or a reduction every other time (from
  // 1011 a reduction's record is the longer one).
  const bool reduce = k_ % 8 == 0;
  w_.instance_usage(in.inst_uid, t.fevent, op, t.start, t.stop, 100, 0, reduce ? 4 : 7,
                    reduce ? 1 : 0);
  ChannelTimes cp;
  cp.op = op;
  cp.size = in.size;
  cp.create = mp.stop;
  cp.ready = mp.stop + 200;
  cp.start = cp.ready + rng_.between(100, 1000);
  cp.stop = cp.start + rng_.between(1'000, 20'000);
  cp.creator = mp.fevent;
  cp.fevent = ev(n_, k_, kCopyEvent);
  cp.redop = k_ % 8 == 0 ? 1 : 0;  // a reduction into it (1011 names it)
  w_.copy(cp);
  cp.redop = 0;
  w_.copy_inst(mem_id(n_, kZcMem), in.mem, 0, in.inst_uid, cp.fevent);
  if (nodes_ > 1 && k_ % 16 == 0) {  // a halo to the next node
    cp.fevent = ev(n_, k_, kRemoteCopyEvent);
    cp.start = cp.stop;
    cp.stop = cp.start + rng_.between(10'000, 50'000);
    w_.copy(cp);
    w_.copy_inst(in.mem, mem_id((n_ + 1) % nodes_, kFbMem), in.inst_uid, 0, cp.fevent);
  }
}

// The top-level task spans the run on node 0's IO processor.
void NodeRun::top_level() {
  if (n_ != 0) return;
  TaskTimes top;
  top.op = kTopOp;
  top.task_id = kTopTask;
  top.variant_id = 1;
  top.proc = proc_id(n_, kIoIndex);
  top.create = top.ready = top.start = 900'000;
  top.stop = *std::max_element(free_at_.begin(), free_at_.end()) + 1'000;
  top.fevent = top_event();
  if (!w_.implicit_task(top)) w_.task(top);
}

}  // namespace

uint64_t write_synthetic_run(const std::string& dir, uint32_t nodes, uint64_t records_per_node,
                             bool gzip, LogVersion version) {
  std::filesystem::create_directories(dir);
  nodes = std::max<uint32_t>(nodes, 1);
  uint64_t total = 0;
  for (uint32_t n = 0; n < nodes; ++n) {
    const std::string path = dir + "/prof_" + std::to_string(n) + (gzip ? ".gz" : ".prof");
    LegionLogWriter w(path, version, gzip, 1);
    MachineInfo m;
    m.node = n;
    m.nodes = nodes;
    m.hostname = "gpu-node-" + std::to_string(n);
    m.process_id = 1000 + n;
    m.zero_time += n * 250;  // set between two barriers: within moments
    w.machine(m);
    descriptors(w, n);
    NodeRun run(w, n, nodes, version);
    if (n == 0) w.operation(kTopOp, ~uint64_t{0}, 30);
    while (w.records() < records_per_node) run.operation();
    run.top_level();
    w.finish();
    total += w.records();
  }
  return total;
}

}  // namespace legato::legion::testing
