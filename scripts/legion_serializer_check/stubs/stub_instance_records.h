// Stand-in for the LegionProfInstance record structs of
// legion/tools/profiler.h (member names and C++ types as in Legion; only the
// members serializer.cc or the driver use). Included by the stubbed
// legion/tools/profiler.h, which explains the STUB_PROF_VERSION keys.
// Written for scripts/legion_serializer_check; not Legion code.
#ifndef STUB_INSTANCE_RECORDS_H
#define STUB_INSTANCE_RECORDS_H

namespace Legion {
namespace Internal {

class LegionProfInstance {
 public:
  struct OperationInstance {
    UniqueID op_id, parent_id;
    unsigned kind;
    ProvenanceID provenance;
  };
  struct MultiTask {
    UniqueID op_id;
    TaskID task_id;
  };
  struct SliceOwner {
    UniqueID parent_id, op_id;
  };
  struct WaitInfo {
    timestamp_t wait_start, wait_ready, wait_end;
    LgEvent wait_event;
  };
  struct TaskInfo {
    UniqueID op_id;
    TaskID task_id;
    VariantID variant_id;
    ProcID proc_id;
    timestamp_t create, ready, start, stop;
    std::deque<WaitInfo> wait_intervals;
    LgEvent creator, critical, finish_event;
  };
  struct GPUTaskInfo {
    UniqueID op_id;
    TaskID task_id;
    VariantID variant_id;
    ProcID proc_id;
    timestamp_t create, ready, start, stop;
    timestamp_t gpu_start, gpu_stop;
    std::deque<WaitInfo> wait_intervals;
    LgEvent creator, critical, finish_event;
  };
  struct IndexSpacePointDesc {
    DistributedID unique_id;
    unsigned dim;
    long long points[LEGION_MAX_DIM];
  };
  struct IndexSpaceEmptyDesc {
    DistributedID unique_id;
  };
  struct IndexSpaceRectDesc {
    DistributedID unique_id;
    long long rect_lo[LEGION_MAX_DIM];
    long long rect_hi[LEGION_MAX_DIM];
    unsigned dim;
  };
  struct FieldDesc {
    UniqueID unique_id;
    unsigned field_id;
    unsigned long long size;
    const char* name;
  };
  struct FieldSpaceDesc {
    UniqueID unique_id;
    const char* name;
  };
  struct IndexPartDesc {
    UniqueID unique_id;
    const char* name;
  };
  struct IndexSpaceDesc {
    UniqueID unique_id;
    const char* name;
  };
  struct IndexPartitionDesc {
    DistributedID parent_id, unique_id;
    bool disjoint;
    LegionColor point;
  };
  struct IndexSubSpaceDesc {
    DistributedID parent_id, unique_id;
  };
  struct LogicalRegionDesc {
    DistributedID ispace_id, fspace_id;
    unsigned tree_id;
    const char* name;
  };
  struct PhysicalInstRegionDesc {
    LgEvent inst_uid;
    DistributedID ispace_id, fspace_id;
    unsigned tree_id;
  };
  struct PhysicalInstLayoutDesc {
    LgEvent inst_uid;
    unsigned field_id;
    DistributedID fspace_id;
    EqualityKind eqk;
    bool has_align;
    unsigned alignment;
  };
  struct PhysicalInstDimOrderDesc {
    LgEvent inst_uid;
    unsigned dim;
    DimensionKind k;
  };
#if STUB_PROF_VERSION >= 1011
  struct PhysicalInstanceSpaces {
    LgEvent inst_uid;
    DistributedID union_space, piece_space;
  };
  struct PhysicalInstanceUsage {
    LgEvent inst_uid, fevent;
    UniqueID op_id;
    timestamp_t start, stop;
    DistributedID index_expr;
    PrivilegeMode mode;
    ReductionOpID redop;
    FieldID field;
    int32_t index;
  };
#else
  struct PhysicalInstanceUsage {
    LgEvent inst_uid;
    UniqueID op_id;
    unsigned index, field;
  };
#endif
  struct IndexSpaceSizeDesc {
    UniqueID id;
    unsigned long long dense_size, sparse_size;
    bool is_sparse;
  };
  struct MetaInfo {
    UniqueID op_id;
    unsigned lg_id;
    ProcID proc_id;
    timestamp_t create, ready, start, stop;
    std::deque<WaitInfo> wait_intervals;
    LgEvent creator, critical, finish_event;
  };
  struct MessageInfo : public MetaInfo {
    timestamp_t spawn;
  };
  struct CopyInstInfo {
    MemID src, dst;
    FieldID src_fid, dst_fid;
    LgEvent src_inst_uid, dst_inst_uid;
#if STUB_PROF_VERSION >= 1011
    DistributedID src_expr, dst_expr;
#endif
    unsigned num_hops;
    bool indirect;
  };
  struct CopyInfo {
    UniqueID op_id;
    unsigned long long size;
    timestamp_t create, ready, start, stop;
    LgEvent fevent, creator, critical;
    CollectiveKind collective;
#if STUB_PROF_VERSION >= 1011
    ReductionOpID redop;
    DistributedID copy_expr;
#endif
    std::vector<CopyInstInfo> inst_infos;
  };
  struct FillInstInfo {
    MemID dst;
    FieldID fid;
    LgEvent dst_inst_uid;
  };
  struct FillInfo {
    UniqueID op_id;
    unsigned long long size;
    timestamp_t create, ready, start, stop;
    LgEvent fevent, creator, critical;
    CollectiveKind collective;
#if STUB_PROF_VERSION >= 1011
    DistributedID fill_expr;
#endif
    std::vector<FillInstInfo> inst_infos;
  };
  struct InstTimelineInfo {
    LgEvent inst_uid;
    InstID inst_id;
    MemID mem_id;
    unsigned long long size;
    UniqueID op_id;
    timestamp_t create, ready, destroy;
    LgEvent creator;
  };
#if STUB_PROF_VERSION >= 1011
  struct PartInstInfo {
    MemID src;
    FieldID fid;
    LgEvent src_inst_uid;
    DistributedID src_expr;
  };
#endif
  struct PartitionInfo {
    UniqueID op_id;
    DepPartOpKind part_op;
    unsigned long long create, ready, start, stop;  // sic, as in Legion
    LgEvent fevent, creator, critical;
#if STUB_PROF_VERSION >= 1011
    std::vector<PartInstInfo> inst_infos;
#endif
  };
  struct MapperCallInfo {
    MapperID mapper;
    ProcID mapper_proc;
    MappingCallKind kind;
    UniqueID op_id;
    timestamp_t start, stop;
    ProcID proc_id;
    LgEvent finish_event;
  };
  struct RuntimeCallInfo {
    RuntimeCallKind kind;
    timestamp_t start, stop;
    ProcID proc_id;
    LgEvent finish_event;
  };
  struct ApplicationCallInfo {
    ProvenanceID pid;
    timestamp_t start, stop;
    ProcID proc_id;
    LgEvent finish_event;
  };
  struct AsyncEffectInfo {
    LgEvent external, fevent;
    timestamp_t created, triggered;
    ProvenanceID pid;
  };
  struct EventWaitInfo {
    ProcID proc_id;
    LgEvent fevent, event;
#if STUB_PROF_VERSION >= 1010
    ProvenanceID provenance_id;
#endif
    unsigned long long backtrace_id;
  };
  struct ProfTaskInfo {
    ProcID proc_id;
    UniqueID op_id;
    timestamp_t start, stop;
    LgEvent creator, finish_event;
    bool completion;
  };
  struct EventMergerInfo {
    LgEvent result, fevent;
    timestamp_t performed;
    std::vector<LgEvent> preconditions;
  };
  struct EventTriggerInfo {
    LgEvent result, fevent, precondition;
    timestamp_t performed;
  };
  struct EventPoisonInfo {
    LgEvent result, fevent;
    timestamp_t performed;
  };
  struct BarrierArrivalInfo {
    LgEvent result, fevent, precondition;
    timestamp_t performed;
  };
  struct ReservationAcquireInfo {
    LgEvent result, fevent, precondition;
    timestamp_t performed;
    Reservation reservation;
  };
  struct InstanceReadyInfo {
    LgEvent result, precondition, unique;
    timestamp_t performed;
  };
  struct InstanceRedistrictInfo {
    LgEvent result, precondition, previous, next;
    timestamp_t performed;
  };
#if STUB_PROF_VERSION >= 1012
  struct MakeValidInfo {
    LgEvent result, fevent;
    DistributedID space;
    timestamp_t created, triggered;
  };
  struct FetchMetadataInfo {
    LgEvent result, fevent, inst_uid;
    timestamp_t created, triggered;
  };
#endif
  struct CompletionQueueInfo {
    LgEvent result, fevent;
    timestamp_t performed;
    std::vector<LgEvent> preconditions;
  };
};

}  // namespace Internal
}  // namespace Legion

#endif
