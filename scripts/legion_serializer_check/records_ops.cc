// Operation records, in serializer.h's order from OperationInstance to
// GPUTaskInfo. Wait records describe the task / meta task written after them,
// as in a real log. Values are recorded under the header line's field names.
#include <type_traits>

#include "driver_common.h"

typedef LegionProfInstance LPI;

static LPI::WaitInfo make_wait()
{
  LPI::WaitInfo w;
  w.wait_start = TS();
  w.wait_ready = TS();
  w.wait_end = TS();
  w.wait_event = EV();
  return w;
}

static void json_wait(JsonOut& j, const LPI::WaitInfo& w)
{
  j.u("wait_start", w.wait_start);
  j.u("wait_ready", w.wait_ready);
  j.u("wait_end", w.wait_end);
  j.u("wait_event", w.wait_event.id);
}

// TaskInfo and GPUTaskInfo share these members.
template<typename T>
static void fill_task(T& t)
{
  t.op_id = U64();
  t.task_id = U32();
  t.variant_id = U32();
  t.proc_id = U64();
  t.create = TS();
  t.ready = TS();
  t.start = TS();
  t.stop = TS();
  if constexpr (std::is_same_v<T, LPI::GPUTaskInfo>) {
    t.gpu_start = TS();
    t.gpu_stop = TS();
  }
  t.creator = EV();
  t.critical = EV();
  t.finish_event = EV();
}

static void json_task(JsonOut& j, const char* kind, const LPI::TaskInfo& t)
{
  j.begin(kind);
  j.u("op_id", t.op_id);
  j.u("task_id", t.task_id);
  j.u("variant_id", t.variant_id);
  j.u("proc_id", t.proc_id);
  j.u("create", t.create);
  j.u("ready", t.ready);
  j.u("start", t.start);
  j.u("stop", t.stop);
  j.u("creator", t.creator.id);
  j.u("critical", t.critical.id);
  j.u("fevent", t.finish_event.id);
}

static void make_meta(LPI::MetaInfo& m)
{
  m.op_id = U64();
  m.lg_id = U32();
  m.proc_id = U64();
  m.create = TS();
  m.ready = TS();
  m.start = TS();
  m.stop = TS();
  m.creator = EV();
  m.critical = EV();
  m.finish_event = EV();
}

void write_operation_records(LegionProfBinarySerializer& s, JsonOut& j)
{
  LPI::TaskInfo task, implicit_task;
  LPI::GPUTaskInfo gpu_task;
  LPI::MetaInfo meta;
  fill_task(task);
  fill_task(implicit_task);
  fill_task(gpu_task);
  make_meta(meta);
  {
    LPI::OperationInstance d;
    j.begin("OperationInstance");
    j.u("op_id", d.op_id = U64());
    j.u("parent_id", d.parent_id = U64());
    j.u("kind", d.kind = U32());
    j.u("provenance", d.provenance = U64());
    s.serialize(d);
  }
  {
    LPI::MultiTask d;
    j.begin("MultiTask");
    j.u("op_id", d.op_id = U64());
    j.u("task_id", d.task_id = U32());
    s.serialize(d);
  }
  {
    LPI::SliceOwner d;
    j.begin("SliceOwner");
    j.u("parent_id", d.parent_id = U64());
    j.u("op_id", d.op_id = U64());
    s.serialize(d);
  }
  {  // serialize(WaitInfo, TaskInfo) -> TaskWaitInfo
    LPI::WaitInfo w = make_wait();
    j.begin("TaskWaitInfo");
    j.u("op_id", task.op_id);
    j.u("task_id", task.task_id);
    j.u("variant_id", task.variant_id);
    json_wait(j, w);
    s.serialize(w, task);
  }
  {  // serialize(WaitInfo, GPUTaskInfo) -> also TaskWaitInfo
    LPI::WaitInfo w = make_wait();
    j.begin("TaskWaitInfo");
    j.u("op_id", gpu_task.op_id);
    j.u("task_id", gpu_task.task_id);
    j.u("variant_id", gpu_task.variant_id);
    json_wait(j, w);
    s.serialize(w, gpu_task);
  }
  {  // serialize(WaitInfo, MetaInfo) -> MetaWaitInfo
    LPI::WaitInfo w = make_wait();
    j.begin("MetaWaitInfo");
    j.u("op_id", meta.op_id);
    j.u("lg_id", meta.lg_id);
    json_wait(j, w);
    s.serialize(w, meta);
  }
  json_task(j, "TaskInfo", task);
  s.serialize(task, false);
  json_task(j, "ImplicitTaskInfo", implicit_task);
  s.serialize(implicit_task, true);
  {
    j.begin("MetaInfo");
    j.u("op_id", meta.op_id);
    j.u("lg_id", meta.lg_id);
    j.u("proc_id", meta.proc_id);
    j.u("create", meta.create);
    j.u("ready", meta.ready);
    j.u("start", meta.start);
    j.u("stop", meta.stop);
    j.u("creator", meta.creator.id);
    j.u("critical", meta.critical.id);
    j.u("fevent", meta.finish_event.id);
    s.serialize(meta);
  }
  {
    LPI::MessageInfo d;
    make_meta(d);
    d.spawn = TS();
    j.begin("MessageInfo");
    j.u("op_id", d.op_id);
    j.u("lg_id", d.lg_id);
    j.u("proc_id", d.proc_id);
    j.u("spawn", d.spawn);
    j.u("create", d.create);
    j.u("ready", d.ready);
    j.u("start", d.start);
    j.u("stop", d.stop);
    j.u("creator", d.creator.id);
    j.u("critical", d.critical.id);
    j.u("fevent", d.finish_event.id);
    s.serialize(d);
  }
  {  // CopyInfo with one CopyInstInfo: writes CopyInfo, then CopyInstInfo
    LPI::CopyInfo d;
    j.begin("CopyInfo");
    j.u("op_id", d.op_id = U64());
    j.u("size", d.size = U64());
    j.u("create", d.create = TS());
    j.u("ready", d.ready = TS());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("creator", (d.creator = EV()).id);
    j.u("critical", (d.critical = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("collective", d.collective = CollectiveKind(U32()));
#if STUB_PROF_VERSION >= 1011
    j.u("reduction", d.redop = ReductionOpID(U32()));
    j.u("copy_expr", d.copy_expr = U64());
#endif
    LPI::CopyInstInfo c;
    j.begin("CopyInstInfo");
    j.u("src", c.src = U64());
    j.u("dst", c.dst = U64());
    j.u("src_fid", c.src_fid = U32());
    j.u("dst_fid", c.dst_fid = U32());
    j.u("src_inst", (c.src_inst_uid = EV()).id);
    j.u("dst_inst", (c.dst_inst_uid = EV()).id);
#if STUB_PROF_VERSION >= 1011
    j.u("src_expr", c.src_expr = U64());
    j.u("dst_expr", c.dst_expr = U64());
#endif
    j.u("fevent", d.fevent.id);  // the parent CopyInfo's fevent
    j.u("num_hops", c.num_hops = U32());
    j.b("indirect", c.indirect = true);
    d.inst_infos.push_back(c);
    s.serialize(d);
  }
  {  // FillInfo with one FillInstInfo
    LPI::FillInfo d;
    j.begin("FillInfo");
    j.u("op_id", d.op_id = U64());
    j.u("size", d.size = U64());
    j.u("create", d.create = TS());
    j.u("ready", d.ready = TS());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("creator", (d.creator = EV()).id);
    j.u("critical", (d.critical = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    d.collective = CollectiveKind(U32());  // written from 1011 on
#if STUB_PROF_VERSION >= 1011
    j.u("collective", d.collective);
    j.u("fill_expr", d.fill_expr = U64());
#endif
    LPI::FillInstInfo c;
    j.begin("FillInstInfo");
    j.u("dst", c.dst = U64());
    j.u("fid", c.fid = U32());
    j.u("dst_inst", (c.dst_inst_uid = EV()).id);
    j.u("fevent", d.fevent.id);  // the parent FillInfo's fevent
    d.inst_infos.push_back(c);
    s.serialize(d);
  }
  {
    LPI::InstTimelineInfo d;
    j.begin("InstTimelineInfo");
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("inst_id", d.inst_id = U64());
    j.u("mem_id", d.mem_id = U64());
    j.u("size", d.size = U64());
    j.u("op_id", d.op_id = U64());
    j.u("create", d.create = TS());
    j.u("ready", d.ready = TS());
    j.u("destroy", d.destroy = TS());
    j.u("creator", (d.creator = EV()).id);
    s.serialize(d);
  }
  {  // PartitionInfo, from 1011 on with one PartInstInfo
    LPI::PartitionInfo d;
    j.begin("PartitionInfo");
    j.u("op_id", d.op_id = U64());
    j.u("part_op", d.part_op = DepPartOpKind(U32()));
    j.u("create", d.create = TS());
    j.u("ready", d.ready = TS());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("creator", (d.creator = EV()).id);
    j.u("critical", (d.critical = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
#if STUB_PROF_VERSION >= 1011
    LPI::PartInstInfo c;
    j.begin("PartitionInstInfo");
    j.u("src", c.src = U64());
    j.u("fid", c.fid = U32());
    j.u("src_inst", (c.src_inst_uid = EV()).id);
    j.u("src_expr", c.src_expr = U64());
    j.u("fevent", d.fevent.id);  // the parent PartitionInfo's fevent
    d.inst_infos.push_back(c);
#endif
    s.serialize(d);
  }
  {
    LPI::MapperCallInfo d;
    j.begin("MapperCallInfo");
    j.u("mapper_id", d.mapper = U32());
    j.u("mapper_proc", d.mapper_proc = U64());
    j.u("kind", d.kind = MappingCallKind(U32()));
    j.u("op_id", d.op_id = U64());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("proc_id", d.proc_id = U64());
    j.u("fevent", (d.finish_event = EV()).id);
    s.serialize(d);
  }
  {
    LPI::RuntimeCallInfo d;
    j.begin("RuntimeCallInfo");
    j.u("kind", d.kind = RuntimeCallKind(U32()));
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("proc_id", d.proc_id = U64());
    j.u("fevent", (d.finish_event = EV()).id);
    s.serialize(d);
  }
  {
    LPI::ApplicationCallInfo d;
    j.begin("ApplicationCallInfo");
    j.u("provenance", d.pid = U64());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("proc_id", d.proc_id = U64());
    j.u("fevent", (d.finish_event = EV()).id);
    s.serialize(d);
  }
  {  // AsyncEffectInfo is written as "ExternalEventInfo"
    LPI::AsyncEffectInfo d;
    j.begin("ExternalEventInfo");
    j.u("external", (d.external = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("created", d.created = TS());
    j.u("trigger", d.triggered = TS());
    j.u("prov", d.pid = U64());
    s.serialize(d);
  }
  {
    j.begin("GPUTaskInfo");
    j.u("op_id", gpu_task.op_id);
    j.u("task_id", gpu_task.task_id);
    j.u("variant_id", gpu_task.variant_id);
    j.u("proc_id", gpu_task.proc_id);
    j.u("create", gpu_task.create);
    j.u("ready", gpu_task.ready);
    j.u("start", gpu_task.start);
    j.u("stop", gpu_task.stop);
    j.u("gpu_start", gpu_task.gpu_start);
    j.u("gpu_stop", gpu_task.gpu_stop);
    j.u("creator", gpu_task.creator.id);
    j.u("critical", gpu_task.critical.id);
    j.u("fevent", gpu_task.finish_event.id);
    s.serialize(gpu_task);
  }
}
