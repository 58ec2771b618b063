// Machine and event records, in serializer.h's order from ProcDesc to
// ProfTaskInfo. Values are recorded under the header line's field names.
#include "driver_common.h"

typedef LegionProfInstance LPI;

// EventMergerInfo / CompletionQueueInfo: Legion writes one record per four
// preconditions, padding the last one with NO_LG_EVENT (id 0).
static void json_preconditions(JsonOut& j, const char* kind, const LgEvent& result,
                               const LgEvent& fevent, timestamp_t performed,
                               const std::vector<LgEvent>& pre)
{
  static const char* names[4] = {"pre0", "pre1", "pre2", "pre3"};
  for (size_t offset = 0; offset < pre.size(); offset += 4) {
    j.begin(kind);
    j.u("result", result.id);
    j.u("fevent", fevent.id);
    j.u("performed", performed);
    for (size_t i = 0; i < 4; i++)
      j.u(names[i], offset + i < pre.size() ? pre[offset + i].id : 0);
  }
}

void write_machine_and_event_records(LegionProfBinarySerializer& s, JsonOut& j)
{
  {  // Built with LEGION_USE_CUDA: uuid_size 16, then the 16 uuid bytes.
    Desc::ProcDesc d;
    j.begin("ProcDesc");
    j.u("proc_id", d.proc_id = U64());
    j.u("kind", d.kind = ProcKind(U32()));
    j.u("uuid_size", Realm::Cuda::UUID_SIZE);
    for (size_t i = 0; i < Realm::Cuda::UUID_SIZE; i++)
      d.cuda_device_uuid[i] = char(0xa0 + i);
    j.hex("cuda_device_uuid", d.cuda_device_uuid, Realm::Cuda::UUID_SIZE);
    s.serialize(d);
  }
  {
    Desc::MemDesc d;
    j.begin("MemDesc");
    j.u("mem_id", d.mem_id = U64());
    j.u("kind", d.kind = MemKind(U32()));
    j.u("capacity", d.capacity = U64());
    s.serialize(d);
  }
  {
    Desc::ProcMemDesc d;
    j.begin("ProcMDesc");
    j.u("proc_id", d.proc_id = U64());
    j.u("mem_id", d.mem_id = U64());
    j.u("bandwidth", d.bandwidth = U32());
    j.u("latency", d.latency = U32());
    s.serialize(d);
  }
  {
    Desc::Backtrace d;
    j.begin("BacktraceDesc");
    j.u("backtrace_id", d.id = U64());
    j.str("backtrace", d.backtrace = NAME("backtrace"));
    s.serialize(d);
  }
  {
    LPI::EventWaitInfo d;
    j.begin("EventWaitInfo");
    j.u("proc_id", d.proc_id = U64());
    j.u("fevent", (d.fevent = EV()).id);
    j.u("wait_event", (d.event = EV()).id);
#if STUB_PROF_VERSION >= 1010
    j.u("provenance", d.provenance_id = U64());
#endif
    j.u("backtrace_id", d.backtrace_id = U64());
    s.serialize(d);
  }
  {  // two preconditions: one record, pre2 and pre3 padded with 0
    LPI::EventMergerInfo d;
    d.result = EV();
    d.fevent = EV();
    d.performed = TS();
    d.preconditions = {EV(), EV()};
    json_preconditions(j, "EventMergerInfo", d.result, d.fevent, d.performed,
                       d.preconditions);
    s.serialize(d);
  }
  {
    LPI::EventTriggerInfo d;
    j.begin("EventTriggerInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("precondition", (d.precondition = EV()).id);
    j.u("performed", d.performed = TS());
    s.serialize(d);
  }
  {
    LPI::EventPoisonInfo d;
    j.begin("EventPoisonInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("performed", d.performed = TS());
    s.serialize(d);
  }
  {
    LPI::BarrierArrivalInfo d;
    j.begin("BarrierArrivalInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("precondition", (d.precondition = EV()).id);
    j.u("performed", d.performed = TS());
    s.serialize(d);
  }
  {
    LPI::ReservationAcquireInfo d;
    j.begin("ReservationAcquireInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("precondition", (d.precondition = EV()).id);
    j.u("performed", d.performed = TS());
    j.u("reservation", d.reservation.id = U64());
    s.serialize(d);
  }
  {
    LPI::InstanceReadyInfo d;
    j.begin("InstanceReadyInfo");
    j.u("result", (d.result = EV()).id);
    j.u("precondition", (d.precondition = EV()).id);
    j.u("inst_uid", (d.unique = EV()).id);
    j.u("performed", d.performed = TS());
    s.serialize(d);
  }
  {
    LPI::InstanceRedistrictInfo d;
    j.begin("InstanceRedistrictInfo");
    j.u("result", (d.result = EV()).id);
    j.u("precondition", (d.precondition = EV()).id);
    j.u("previous", (d.previous = EV()).id);
    j.u("next", (d.next = EV()).id);
    j.u("performed", d.performed = TS());
    s.serialize(d);
  }
  {  // five preconditions: two records, the second padded with 0
    LPI::CompletionQueueInfo d;
    d.result = EV();
    d.fevent = EV();
    d.performed = TS();
    d.preconditions = {EV(), EV(), EV(), EV(), EV()};
    json_preconditions(j, "CompletionQueueInfo", d.result, d.fevent,
                       d.performed, d.preconditions);
    s.serialize(d);
  }
#if STUB_PROF_VERSION >= 1012
  {
    LPI::MakeValidInfo d;
    j.begin("MakeValidInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("space", d.space = U64());
    j.u("created", d.created = TS());
    j.u("triggered", d.triggered = TS());
    s.serialize(d);
  }
  {
    LPI::FetchMetadataInfo d;
    j.begin("FetchMetadataInfo");
    j.u("result", (d.result = EV()).id);
    j.u("fevent", (d.fevent = EV()).id);
    j.u("inst_uid", (d.inst_uid = EV()).id);
    j.u("created", d.created = TS());
    j.u("triggered", d.triggered = TS());
    s.serialize(d);
  }
#endif
  {
    LPI::ProfTaskInfo d;
    j.begin("ProfTaskInfo");
    j.u("proc_id", d.proc_id = U64());
    j.u("op_id", d.op_id = U64());
    j.u("start", d.start = TS());
    j.u("stop", d.stop = TS());
    j.u("creator", (d.creator = EV()).id);
    j.u("fevent", (d.finish_event = EV()).id);
    j.b("completion", d.completion = true);
    s.serialize(d);
  }
}
