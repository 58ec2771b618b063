// The header lines of older and later Legion Prof logs, as Legion wrote them
// (without the first line, 1009's version line and the empty line that ends
// the header), for the test log writer (legion_log_writer.cpp). Layouts are
// facts of the format: the record kinds, ids, fields and sizes each Legion
// wrote. Those of 1009 to 1012 are the preambles of Legion's own serializer
// of each commit (scripts/legion_serializer_check,
// tests/legion_import/data/serializer).
#include "legion_import/testing/legion_log_layouts.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace legato::legion::testing {

// Legion of May 2020 (a Regent run's logs): no MachineDesc, ZeroTime or
// event ids; messages named by MessageDesc; an instance as InstCreateInfo,
// InstUsageInfo (memory and size) and InstTimelineInfo; copies and fills
// naming their memories in CopyInfo and FillInfo; Realm's memory kinds
// numbered from GLOBAL_MEM = 0.
const std::vector<std::string>& layouts_2020() {
  static const std::vector<std::string> lines = {
      "MessageDesc {id:0, kind:unsigned:4, name:string:-1}",
      "MapperCallDesc {id:1, kind:unsigned:4, name:string:-1}",
      "RuntimeCallDesc {id:2, kind:unsigned:4, name:string:-1}",
      "MetaDesc {id:3, kind:unsigned:4, name:string:-1}",
      "OpDesc {id:4, kind:unsigned:4, name:string:-1}",
      "ProcDesc {id:5, proc_id:ProcID:8, kind:ProcKind:4}",
      "MaxDimDesc {id:7, max_dim:maxdim:4}",
      "MemDesc {id:6, mem_id:MemID:8, kind:MemKind:4, capacity:unsigned long long:8}",
      "ProcMDesc {id:27, proc_id:ProcID:8, mem_id:MemID:8}",
      "IndexSpacePointDesc {id:28, unique_id:IDType:8, dim:unsigned:4, rem:point:8}",
      "IndexSpaceRectDesc {id:29, unique_id:IDType:8, dim:unsigned:4, rem:array:8}",
      "IndexSpaceEmptyDesc {id:30, unique_id:IDType:8}",
      "FieldDesc {id:31, unique_id:UniqueID:8, field_id:unsigned:4, size:unsigned long long:8, "
      "name:string:-1}",
      "FieldSpaceDesc {id:32, unique_id:UniqueID:8, name:string:-1}",
      "PartDesc {id:33, unique_id:UniqueID:8, name:string:-1}",
      "IndexSpaceDesc {id:35, unique_id:UniqueID:8, name:string:-1}",
      "IndexSubSpaceDesc {id:36, parent_id:UniqueID:8, unique_id:UniqueID:8}",
      "IndexPartitionDesc {id:34, parent_id:UniqueID:8, unique_id:UniqueID:8, disjoint:bool:1, "
      "point0:unsigned long long:8}",
      "LogicalRegionDesc {id:37, ispace_id:IDType:8, fspace_id:unsigned:4, tree_id:unsigned:4, "
      "name:string:-1}",
      "PhysicalInstRegionDesc {id:38, op_id:UniqueID:8, inst_id:InstID:8, ispace_id:IDType:8, "
      "fspace_id:unsigned:4, tree_id:unsigned:4}",
      "PhysicalInstLayoutDesc {id:39, op_id:UniqueID:8, inst_id:InstID:8, field_id:unsigned:4, "
      "fspace_id:unsigned:4, has_align:bool:1, eqk:unsigned:4, align_desc:unsigned:4}",
      "PhysicalInstDimOrderDesc {id:40, op_id:UniqueID:8, inst_id:InstID:8, dim:unsigned:4, "
      "dim_kind:unsigned:4}",
      "TaskKind {id:8, task_id:TaskID:4, name:string:-1, overwrite:bool:1}",
      "TaskVariant {id:9, task_id:TaskID:4, variant_id:VariantID:4, name:string:-1}",
      "OperationInstance {id:10, op_id:UniqueID:8, kind:unsigned:4}",
      "MultiTask {id:11, op_id:UniqueID:8, task_id:TaskID:4}",
      "SliceOwner {id:12, parent_id:UniqueID:8, op_id:UniqueID:8}",
      "TaskWaitInfo {id:13, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "wait_start:timestamp_t:8, wait_ready:timestamp_t:8, wait_end:timestamp_t:8}",
      "MetaWaitInfo {id:14, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, "
      "wait_ready:timestamp_t:8, wait_end:timestamp_t:8}",
      "TaskInfo {id:15, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
      "stop:timestamp_t:8}",
      "GPUTaskInfo {id:26, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
      "stop:timestamp_t:8, gpu_start:timestamp_t:8, gpu_stop:timestamp_t:8}",
      "MetaInfo {id:16, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
      "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "CopyInfo {id:17, op_id:UniqueID:8, src:MemID:8, dst:MemID:8, size:unsigned long long:8, "
      "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "FillInfo {id:18, op_id:UniqueID:8, dst:MemID:8, create:timestamp_t:8, "
      "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "InstCreateInfo {id:19, op_id:UniqueID:8, inst_id:InstID:8, create:timestamp_t:8}",
      "InstUsageInfo {id:20, op_id:UniqueID:8, inst_id:InstID:8, mem_id:MemID:8, "
      "size:unsigned long long:8}",
      "InstTimelineInfo {id:21, op_id:UniqueID:8, inst_id:InstID:8, create:timestamp_t:8, "
      "destroy:timestamp_t:8}",
      "PartitionInfo {id:22, op_id:UniqueID:8, part_op:DepPartOpKind:4, create:timestamp_t:8, "
      "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "MessageInfo {id:23, kind:MessageKind:4, start:timestamp_t:8, stop:timestamp_t:8, "
      "proc_id:ProcID:8}",
      "MapperCallInfo {id:24, kind:MappingCallKind:4, op_id:UniqueID:8, start:timestamp_t:8, "
      "stop:timestamp_t:8, proc_id:ProcID:8}",
      "RuntimeCallInfo {id:25, kind:RuntimeCallKind:4, start:timestamp_t:8, stop:timestamp_t:8, "
      "proc_id:ProcID:8}",
      "ProfTaskInfo {id:41, proc_id:ProcID:8, op_id:UniqueID:8, start:timestamp_t:8, "
      "stop:timestamp_t:8}",
  };
  return lines;
}

// Legion of December 2023 (a 2-node cuNumeric run's logs): MachineDesc with
// node and node count only; each node's file describes every node's
// processors and memories; OperationInstance gives its provenance as text;
// tasks and meta tasks carry no event ids.
const std::vector<std::string>& layouts_2023() {
  static const std::vector<std::string> lines = {
      "MapperCallDesc {id:1, kind:unsigned:4, name:string:-1}",
      "RuntimeCallDesc {id:2, kind:unsigned:4, name:string:-1}",
      "MetaDesc {id:3, kind:unsigned:4, message:bool:1, ordered_vc:bool:1, name:string:-1}",
      "OpDesc {id:4, kind:unsigned:4, name:string:-1}",
      "ProcDesc {id:5, proc_id:ProcID:8, kind:ProcKind:4}",
      "MaxDimDesc {id:7, max_dim:maxdim:4}",
      "MachineDesc {id:8, node_id:unsigned:4, num_nodes:unsigned:4}",
      "ZeroTime {id:46, zero_time:long long:8}",
      "MemDesc {id:6, mem_id:MemID:8, kind:MemKind:4, capacity:unsigned long long:8}",
      "ProcMDesc {id:26, proc_id:ProcID:8, mem_id:MemID:8, bandwidth:unsigned:4, "
      "latency:unsigned:4}",
      "IndexSpacePointDesc {id:27, unique_id:IDType:8, dim:unsigned:4, rem:point:8}",
      "IndexSpaceRectDesc {id:28, unique_id:IDType:8, dim:unsigned:4, rem:array:8}",
      "IndexSpaceEmptyDesc {id:29, unique_id:IDType:8}",
      "FieldDesc {id:30, unique_id:UniqueID:8, field_id:unsigned:4, size:unsigned long long:8, "
      "name:string:-1}",
      "FieldSpaceDesc {id:31, unique_id:UniqueID:8, name:string:-1}",
      "PartDesc {id:32, unique_id:UniqueID:8, name:string:-1}",
      "IndexSpaceDesc {id:34, unique_id:UniqueID:8, name:string:-1}",
      "IndexSubSpaceDesc {id:35, parent_id:UniqueID:8, unique_id:UniqueID:8}",
      "IndexPartitionDesc {id:33, parent_id:UniqueID:8, unique_id:UniqueID:8, disjoint:bool:1, "
      "point0:unsigned long long:8}",
      "IndexSpaceSizeDesc {id:41, unique_id:UniqueID:8, dense_size:unsigned long long:8, "
      "sparse_size:unsigned long long:8, is_sparse:bool:1}",
      "LogicalRegionDesc {id:36, ispace_id:IDType:8, fspace_id:unsigned:4, tree_id:unsigned:4, "
      "name:string:-1}",
      "PhysicalInstRegionDesc {id:37, inst_uid:unsigned long long:8, ispace_id:IDType:8, "
      "fspace_id:unsigned:4, tree_id:unsigned:4}",
      "PhysicalInstLayoutDesc {id:38, inst_uid:unsigned long long:8, field_id:unsigned:4, "
      "fspace_id:unsigned:4, has_align:bool:1, eqk:unsigned:4, align_desc:unsigned:4}",
      "PhysicalInstDimOrderDesc {id:39, inst_uid:unsigned long long:8, dim:unsigned:4, "
      "dim_kind:unsigned:4}",
      "PhysicalInstanceUsage {id:40, inst_uid:unsigned long long:8, op_id:UniqueID:8, "
      "index_id:unsigned:4, field_id:unsigned:4}",
      "TaskKind {id:9, task_id:TaskID:4, name:string:-1, overwrite:bool:1}",
      "TaskVariant {id:10, task_id:TaskID:4, variant_id:VariantID:4, name:string:-1}",
      "OperationInstance {id:11, op_id:UniqueID:8, parent_id:UniqueID:8, kind:unsigned:4, "
      "provenance:string:-1}",
      "MultiTask {id:12, op_id:UniqueID:8, task_id:TaskID:4}",
      "SliceOwner {id:13, parent_id:UniqueID:8, op_id:UniqueID:8}",
      "TaskWaitInfo {id:14, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "wait_start:timestamp_t:8, wait_ready:timestamp_t:8, wait_end:timestamp_t:8}",
      "MetaWaitInfo {id:15, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, "
      "wait_ready:timestamp_t:8, wait_end:timestamp_t:8}",
      "TaskInfo {id:16, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
      "stop:timestamp_t:8}",
      "GPUTaskInfo {id:25, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
      "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
      "stop:timestamp_t:8, gpu_start:timestamp_t:8, gpu_stop:timestamp_t:8}",
      "MetaInfo {id:17, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
      "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "CopyInfo {id:18, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
      "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
      "fevent:unsigned long long:8, collective:unsigned:4}",
      "CopyInstInfo {id:43, src:MemID:8, dst:MemID:8, src_fid:unsigned:4, dst_fid:unsigned:4, "
      "src_inst:unsigned long long:8, dst_inst:unsigned long long:8, "
      "fevent:unsigned long long:8, num_hops:unsigned:4, indirect:bool:1}",
      "FillInfo {id:19, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
      "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
      "fevent:unsigned long long:8}",
      "FillInstInfo {id:44, dst:MemID:8, fid:unsigned:4, dst_inst:unsigned long long:8, "
      "fevent:unsigned long long:8}",
      "InstTimelineInfo {id:20, inst_uid:unsigned long long:8, inst_id:InstID:8, mem_id:MemID:8, "
      "size:unsigned long long:8, op_id:UniqueID:8, create:timestamp_t:8, ready:timestamp_t:8, "
      "destroy:timestamp_t:8}",
      "PartitionInfo {id:21, op_id:UniqueID:8, part_op:DepPartOpKind:4, create:timestamp_t:8, "
      "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8}",
      "MapperCallInfo {id:23, kind:MappingCallKind:4, op_id:UniqueID:8, start:timestamp_t:8, "
      "stop:timestamp_t:8, proc_id:ProcID:8}",
      "RuntimeCallInfo {id:24, kind:RuntimeCallKind:4, start:timestamp_t:8, stop:timestamp_t:8, "
      "proc_id:ProcID:8}",
      "ProfTaskInfo {id:45, proc_id:ProcID:8, op_id:UniqueID:8, start:timestamp_t:8, "
      "stop:timestamp_t:8}",
  };
  return lines;
}

// Format 1012, Legion 144a5e93 (2026-03-22): MakeValidInfo and FetchMetadataInfo.
const char* const kLayouts1012[] = {
    "MapperName {id:1, mapper_id:MapperID:4, mapper_proc:ProcID:8, name:string:-1}",
    "MapperCallDesc {id:2, kind:unsigned:4, name:string:-1}",
    "RuntimeCallDesc {id:3, kind:unsigned:4, name:string:-1}",
    "MetaDesc {id:4, kind:unsigned:4, message:bool:1, ordered_vc:bool:1, name:string:-1}",
    "OpDesc {id:5, kind:unsigned:4, name:string:-1}",
    "ProcDesc {id:6, proc_id:ProcID:8, kind:ProcKind:4, uuid_size:uuid_size:4, "
    "cuda_device_uuid:uuid:1}",
    "MaxDimDesc {id:8, max_dim:maxdim:4}",
    "RuntimeConfig {id:9, debug:bool:1, spy:bool:1, gc:bool:1, inorder:bool:1, "
    "safe_mapper:bool:1, safe_runtime:bool:1, safe_ctrlrepl:bool:1, part_checks:bool:1, "
    "bounds_checks:bool:1, resilient:bool:1}",
    "MachineDesc {id:10, node_id:unsigned:4, num_nodes:unsigned:4, hostname:string:-1, "
    "host_id:unsigned long long:8, process_id:unsigned:4}",
    "CalibrationErr {id:64, calibration_err:long long:8}",
    "ZeroTime {id:63, zero_time:long long:8}",
    "Provenance {id:65, provenance:unsigned long long:8, prov:string:-1}",
    "MemDesc {id:7, mem_id:MemID:8, kind:MemKind:4, capacity:unsigned long long:8}",
    "ProcMDesc {id:31, proc_id:ProcID:8, mem_id:MemID:8, bandwidth:unsigned:4, "
    "latency:unsigned:4}",
    "IndexSpacePointDesc {id:32, unique_id:unsigned long long:8, dim:unsigned:4, rem:point:8}",
    "IndexSpaceRectDesc {id:33, unique_id:unsigned long long:8, dim:unsigned:4, rem:array:8}",
    "IndexSpaceEmptyDesc {id:34, unique_id:unsigned long long:8}",
    "FieldDesc {id:35, unique_id:UniqueID:8, field_id:unsigned:4, size:unsigned long long:8, "
    "name:string:-1}",
    "FieldSpaceDesc {id:36, unique_id:UniqueID:8, name:string:-1}",
    "PartDesc {id:37, unique_id:UniqueID:8, name:string:-1}",
    "IndexSpaceDesc {id:39, unique_id:UniqueID:8, name:string:-1}",
    "IndexSubSpaceDesc {id:40, parent_id:UniqueID:8, unique_id:UniqueID:8}",
    "IndexPartitionDesc {id:38, parent_id:UniqueID:8, unique_id:UniqueID:8, disjoint:bool:1, "
    "point0:unsigned long long:8}",
    "IndexSpaceSizeDesc {id:47, unique_id:UniqueID:8, dense_size:unsigned long long:8, "
    "sparse_size:unsigned long long:8, is_sparse:bool:1}",
    "LogicalRegionDesc {id:41, ispace_id:unsigned long long:8, fspace_id:unsigned long long:8, "
    "tree_id:unsigned:4, name:string:-1}",
    "PhysicalInstRegionDesc {id:42, inst_uid:unsigned long long:8, "
    "ispace_id:unsigned long long:8, fspace_id:unsigned long long:8, tree_id:unsigned:4}",
    "PhysicalInstLayoutDesc {id:43, inst_uid:unsigned long long:8, field_id:unsigned:4, "
    "fspace_id:unsigned long long:8, has_align:bool:1, eqk:unsigned:4, align_desc:unsigned:4}",
    "PhysicalInstDimOrderDesc {id:44, inst_uid:unsigned long long:8, dim:unsigned:4, "
    "dim_kind:unsigned:4}",
    "PhysicalInstanceSpaces {id:45, inst_uid:unsigned long long:8, "
    "union_space:unsigned long long:8, piece_space:unsigned long long:8}",
    "PhysicalInstanceUsage {id:46, inst_uid:unsigned long long:8, fevent:unsigned long long:8, "
    "op_id:UniqueID:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "index_expr:unsigned long long:8, field:unsigned:4, index:unsigned:4, mode:unsigned:4, "
    "redop:unsigned:4}",
    "TaskKind {id:11, task_id:TaskID:4, name:string:-1, overwrite:bool:1}",
    "TaskVariant {id:12, task_id:TaskID:4, variant_id:VariantID:4, name:string:-1}",
    "OperationInstance {id:13, op_id:UniqueID:8, parent_id:UniqueID:8, kind:unsigned:4, "
    "provenance:unsigned long long:8}",
    "MultiTask {id:14, op_id:UniqueID:8, task_id:TaskID:4}",
    "SliceOwner {id:15, parent_id:UniqueID:8, op_id:UniqueID:8}",
    "TaskWaitInfo {id:16, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "wait_start:timestamp_t:8, wait_ready:timestamp_t:8, wait_end:timestamp_t:8, "
    "wait_event:unsigned long long:8}",
    "MetaWaitInfo {id:17, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, "
    "wait_ready:timestamp_t:8, wait_end:timestamp_t:8, wait_event:unsigned long long:8}",
    "TaskInfo {id:18, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "ImplicitTaskInfo {id:29, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "GPUTaskInfo {id:30, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, gpu_start:timestamp_t:8, gpu_stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "MetaInfo {id:19, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "MessageInfo {id:24, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
    "spawn:timestamp_t:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "CopyInfo {id:20, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, fevent:unsigned long long:8, "
    "collective:unsigned:4, reduction:unsigned:4, copy_expr:unsigned long long:8}",
    "CopyInstInfo {id:49, src:MemID:8, dst:MemID:8, src_fid:unsigned:4, dst_fid:unsigned:4, "
    "src_inst:unsigned long long:8, dst_inst:unsigned long long:8, "
    "src_expr:unsigned long long:8, dst_expr:unsigned long long:8, "
    "fevent:unsigned long long:8, num_hops:unsigned:4, indirect:bool:1}",
    "FillInfo {id:21, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, fevent:unsigned long long:8, "
    "collective:unsigned:4, fill_expr:unsigned long long:8}",
    "FillInstInfo {id:50, dst:MemID:8, fid:unsigned:4, dst_inst:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "InstTimelineInfo {id:22, inst_uid:unsigned long long:8, inst_id:InstID:8, mem_id:MemID:8, "
    "size:unsigned long long:8, op_id:UniqueID:8, create:timestamp_t:8, ready:timestamp_t:8, "
    "destroy:timestamp_t:8, creator:unsigned long long:8}",
    "PartitionInfo {id:23, op_id:UniqueID:8, part_op:DepPartOpKind:4, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "PartitionInstInfo {id:51, src:MemID:8, fid:unsigned:4, src_inst:unsigned long long:8, "
    "src_expr:unsigned long long:8, fevent:unsigned long long:8}",
    "MapperCallInfo {id:25, mapper_id:MapperID:4, mapper_proc:ProcID:8, "
    "kind:MappingCallKind:4, op_id:UniqueID:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "proc_id:ProcID:8, fevent:unsigned long long:8}",
    "RuntimeCallInfo {id:26, kind:RuntimeCallKind:4, start:timestamp_t:8, stop:timestamp_t:8, "
    "proc_id:ProcID:8, fevent:unsigned long long:8}",
    "ApplicationCallInfo {id:27, provenance:unsigned long long:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, proc_id:ProcID:8, fevent:unsigned long long:8}",
    "ExternalEventInfo {id:28, external:unsigned long long:8, fevent:unsigned long long:8, "
    "created:timestamp_t:8, trigger:timestamp_t:8, prov:unsigned long long:8}",
    "BacktraceDesc {id:52, backtrace_id:unsigned long long:8, backtrace:string:-1}",
    "EventWaitInfo {id:53, proc_id:ProcID:8, fevent:unsigned long long:8, "
    "wait_event:unsigned long long:8, provenance:unsigned long long:8, "
    "backtrace_id:unsigned long long:8}",
    "EventMergerInfo {id:54, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8, pre0:unsigned long long:8, pre1:unsigned long long:8, "
    "pre2:unsigned long long:8, pre3:unsigned long long:8}",
    "EventTriggerInfo {id:55, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8}",
    "EventPoisonInfo {id:56, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8}",
    "BarrierArrivalInfo {id:57, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8}",
    "ReservationAcquireInfo {id:58, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8, "
    "reservation:unsigned long long:8}",
    "InstanceReadyInfo {id:59, result:unsigned long long:8, precondition:unsigned long long:8, "
    "inst_uid:unsigned long long:8, performed:timestamp_t:8}",
    "InstanceRedistrictInfo {id:60, result:unsigned long long:8, "
    "precondition:unsigned long long:8, previous:unsigned long long:8, "
    "next:unsigned long long:8, performed:timestamp_t:8}",
    "CompletionQueueInfo {id:61, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8, pre0:unsigned long long:8, pre1:unsigned long long:8, "
    "pre2:unsigned long long:8, pre3:unsigned long long:8}",
    "MakeValidInfo {id:66, result:unsigned long long:8, fevent:unsigned long long:8, "
    "space:unsigned long long:8, created:timestamp_t:8, triggered:timestamp_t:8}",
    "FetchMetadataInfo {id:67, result:unsigned long long:8, fevent:unsigned long long:8, "
    "inst_uid:unsigned long long:8, created:timestamp_t:8, triggered:timestamp_t:8}",
    "ProfTaskInfo {id:62, proc_id:ProcID:8, op_id:UniqueID:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, fevent:unsigned long long:8, "
    "completion:bool:1}",
};

const std::vector<std::string>& layouts_1012() {
  static const std::vector<std::string> lines(std::begin(kLayouts1012), std::end(kLayouts1012));
  return lines;
}

namespace {

std::string name_of(const std::string& line) {
  return line.substr(0, line.find(" {id:"));
}

// The layouts of the format before `newer`, as Legion's enum and preamble
// had them: the kinds `removed` taken out (each id above a removed one one
// lower, as the enum numbered them without it), the fields `dropped` (kind,
// field) taken out, and the fields of the kinds of `replaced` (whole lines,
// their ids ignored) as they read.
std::vector<std::string> older(const std::vector<std::string>& newer,
                               const std::vector<std::string>& removed,
                               const std::vector<std::pair<std::string, std::string>>& dropped,
                               const std::vector<std::string>& replaced) {
  const auto id_of = [](const std::string& line) {
    return std::stoul(line.substr(line.find(" {id:") + 5));
  };
  std::vector<unsigned long> removed_ids;
  for (const std::string& line : newer) {
    if (std::find(removed.begin(), removed.end(), name_of(line)) != removed.end())
      removed_ids.push_back(id_of(line));
  }
  std::vector<std::string> out;
  for (std::string line : newer) {
    const std::string name = name_of(line);
    if (std::find(removed.begin(), removed.end(), name) != removed.end()) continue;
    for (const std::string& r : replaced) {  // its fields; its id stays the newer one's
      const auto fields = [](const std::string& l) {
        return l.find_first_of(",}", l.find(" {id:"));
      };
      if (name_of(r) == name) line = line.substr(0, fields(line)) + r.substr(fields(r));
    }
    for (const auto& [kind, field] : dropped) {
      const size_t at = kind == name ? line.find(", " + field + ":") : std::string::npos;
      if (at != std::string::npos) line.erase(at, line.find_first_of(",}", at + 2) - at);
    }
    unsigned long id = id_of(line);
    const unsigned long was = id;
    for (unsigned long r : removed_ids) id -= r < was ? 1 : 0;
    const size_t from = line.find(" {id:") + 5;
    line.replace(from, line.find_first_of(",}", from) - from, std::to_string(id));
    out.push_back(line);
  }
  return out;
}

}  // namespace

// Format 1011, Legion e1d009f4 (2026-02-18): instance geometry
// (PhysicalInstanceSpaces, PartitionInstInfo, the `*_expr` fields),
// PhysicalInstanceUsage rewritten (its `redop` written only for
// reductions), CopyInfo with `reduction`, FillInfo with `collective`.
const std::vector<std::string>& layouts_1011() {
  static const std::vector<std::string> lines =
      older(layouts_1012(), {"MakeValidInfo", "FetchMetadataInfo"}, {}, {});
  return lines;
}

// Format 1010, Legion 1c767e80 (2025-10-17): EventWaitInfo with `provenance`.
const std::vector<std::string>& layouts_1010() {
  static const std::vector<std::string> lines =
      older(layouts_1011(), {"PhysicalInstanceSpaces", "PartitionInstInfo"},
            {{"CopyInfo", "reduction"},
             {"CopyInfo", "copy_expr"},
             {"CopyInstInfo", "src_expr"},
             {"CopyInstInfo", "dst_expr"},
             {"FillInfo", "collective"},
             {"FillInfo", "fill_expr"}},
            {"PhysicalInstanceUsage {id:0, inst_uid:unsigned long long:8, op_id:UniqueID:8, "
             "index_id:unsigned:4, field_id:unsigned:4}"});
  return lines;
}

// Format 1009, Legion 911657c1 (2025-09-04): the first line names the
// format, a second line holds Legion's version; MachineDesc without
// `version`.
const std::vector<std::string>& layouts_1009() {
  static const std::vector<std::string> lines =
      older(layouts_1010(), {}, {{"EventWaitInfo", "provenance"}}, {});
  return lines;
}

// The header of the real logs of Legion profiling version 1008
// (tests/legion_import/data, Legate.jl runs), line for line and in its
// order.
const char* const kLayouts1008[] = {
    "MapperName {id:1, mapper_id:MapperID:4, mapper_proc:ProcID:8, name:string:-1}",
    "MapperCallDesc {id:2, kind:unsigned:4, name:string:-1}",
    "RuntimeCallDesc {id:3, kind:unsigned:4, name:string:-1}",
    "MetaDesc {id:4, kind:unsigned:4, message:bool:1, ordered_vc:bool:1, name:string:-1}",
    "OpDesc {id:5, kind:unsigned:4, name:string:-1}",
    "ProcDesc {id:6, proc_id:ProcID:8, kind:ProcKind:4, uuid_size:uuid_size:4, "
    "cuda_device_uuid:uuid:1}",
    "MaxDimDesc {id:8, max_dim:maxdim:4}",
    "RuntimeConfig {id:9, debug:bool:1, spy:bool:1, gc:bool:1, inorder:bool:1, "
    "safe_mapper:bool:1, safe_runtime:bool:1, safe_ctrlrepl:bool:1, part_checks:bool:1, "
    "bounds_checks:bool:1, resilient:bool:1}",
    "MachineDesc {id:10, node_id:unsigned:4, num_nodes:unsigned:4, version:unsigned:4, "
    "hostname:string:-1, host_id:unsigned long long:8, process_id:unsigned:4}",
    "CalibrationErr {id:61, calibration_err:long long:8}",
    "ZeroTime {id:60, zero_time:long long:8}",
    "Provenance {id:62, provenance:unsigned long long:8, prov:string:-1}",
    "MemDesc {id:7, mem_id:MemID:8, kind:MemKind:4, capacity:unsigned long long:8}",
    "ProcMDesc {id:30, proc_id:ProcID:8, mem_id:MemID:8, bandwidth:unsigned:4, "
    "latency:unsigned:4}",
    "IndexSpacePointDesc {id:31, unique_id:IDType:8, dim:unsigned:4, rem:point:8}",
    "IndexSpaceRectDesc {id:32, unique_id:IDType:8, dim:unsigned:4, rem:array:8}",
    "IndexSpaceEmptyDesc {id:33, unique_id:IDType:8}",
    "FieldDesc {id:34, unique_id:UniqueID:8, field_id:unsigned:4, size:unsigned long long:8, "
    "name:string:-1}",
    "FieldSpaceDesc {id:35, unique_id:UniqueID:8, name:string:-1}",
    "PartDesc {id:36, unique_id:UniqueID:8, name:string:-1}",
    "IndexSpaceDesc {id:38, unique_id:UniqueID:8, name:string:-1}",
    "IndexSubSpaceDesc {id:39, parent_id:UniqueID:8, unique_id:UniqueID:8}",
    "IndexPartitionDesc {id:37, parent_id:UniqueID:8, unique_id:UniqueID:8, disjoint:bool:1, "
    "point0:unsigned long long:8}",
    "IndexSpaceSizeDesc {id:45, unique_id:UniqueID:8, dense_size:unsigned long long:8, "
    "sparse_size:unsigned long long:8, is_sparse:bool:1}",
    "LogicalRegionDesc {id:40, ispace_id:IDType:8, fspace_id:unsigned:4, tree_id:unsigned:4, "
    "name:string:-1}",
    "PhysicalInstRegionDesc {id:41, inst_uid:unsigned long long:8, ispace_id:IDType:8, "
    "fspace_id:unsigned:4, tree_id:unsigned:4}",
    "PhysicalInstLayoutDesc {id:42, inst_uid:unsigned long long:8, field_id:unsigned:4, "
    "fspace_id:unsigned:4, has_align:bool:1, eqk:unsigned:4, align_desc:unsigned:4}",
    "PhysicalInstDimOrderDesc {id:43, inst_uid:unsigned long long:8, dim:unsigned:4, "
    "dim_kind:unsigned:4}",
    "PhysicalInstanceUsage {id:44, inst_uid:unsigned long long:8, op_id:UniqueID:8, "
    "index_id:unsigned:4, field_id:unsigned:4}",
    "TaskKind {id:11, task_id:TaskID:4, name:string:-1, overwrite:bool:1}",
    "TaskVariant {id:12, task_id:TaskID:4, variant_id:VariantID:4, name:string:-1}",
    "OperationInstance {id:13, op_id:UniqueID:8, parent_id:UniqueID:8, kind:unsigned:4, "
    "provenance:unsigned long long:8}",
    "MultiTask {id:14, op_id:UniqueID:8, task_id:TaskID:4}",
    "SliceOwner {id:15, parent_id:UniqueID:8, op_id:UniqueID:8}",
    "TaskWaitInfo {id:16, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "wait_start:timestamp_t:8, wait_ready:timestamp_t:8, wait_end:timestamp_t:8, "
    "wait_event:unsigned long long:8}",
    "MetaWaitInfo {id:17, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, "
    "wait_ready:timestamp_t:8, wait_end:timestamp_t:8, wait_event:unsigned long long:8}",
    "TaskInfo {id:18, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "ImplicitTaskInfo {id:28, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "GPUTaskInfo {id:29, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, "
    "proc_id:ProcID:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, gpu_start:timestamp_t:8, gpu_stop:timestamp_t:8, creator:unsigned "
    "long long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "MetaInfo {id:19, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "creator:unsigned long long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "MessageInfo {id:24, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, "
    "spawn:timestamp_t:8, create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "CopyInfo {id:20, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8, "
    "collective:unsigned:4}",
    "CopyInstInfo {id:47, src:MemID:8, dst:MemID:8, src_fid:unsigned:4, dst_fid:unsigned:4, "
    "src_inst:unsigned long long:8, dst_inst:unsigned long long:8, fevent:unsigned long "
    "long:8, num_hops:unsigned:4, indirect:bool:1}",
    "FillInfo {id:21, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "FillInstInfo {id:48, dst:MemID:8, fid:unsigned:4, dst_inst:unsigned long long:8, "
    "fevent:unsigned long long:8}",
    "InstTimelineInfo {id:22, inst_uid:unsigned long long:8, inst_id:InstID:8, mem_id:MemID:8, "
    "size:unsigned long long:8, op_id:UniqueID:8, create:timestamp_t:8, ready:timestamp_t:8, "
    "destroy:timestamp_t:8, creator:unsigned long long:8}",
    "PartitionInfo {id:23, op_id:UniqueID:8, part_op:DepPartOpKind:4, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8}",
    "MapperCallInfo {id:25, mapper_id:MapperID:4, mapper_proc:ProcID:8, "
    "kind:MappingCallKind:4, op_id:UniqueID:8, start:timestamp_t:8, stop:timestamp_t:8, "
    "proc_id:ProcID:8, fevent:unsigned long long:8}",
    "RuntimeCallInfo {id:26, kind:RuntimeCallKind:4, start:timestamp_t:8, stop:timestamp_t:8, "
    "proc_id:ProcID:8, fevent:unsigned long long:8}",
    "ApplicationCallInfo {id:27, provenance:unsigned long long:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, proc_id:ProcID:8, fevent:unsigned long long:8}",
    "BacktraceDesc {id:49, backtrace_id:unsigned long long:8, backtrace:string:-1}",
    "EventWaitInfo {id:50, proc_id:ProcID:8, fevent:unsigned long long:8, wait_event:unsigned "
    "long long:8, backtrace_id:unsigned long long:8}",
    "EventMergerInfo {id:51, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8, pre0:unsigned long long:8, pre1:unsigned long long:8, "
    "pre2:unsigned long long:8, pre3:unsigned long long:8}",
    "EventTriggerInfo {id:52, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8}",
    "EventPoisonInfo {id:53, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8}",
    "BarrierArrivalInfo {id:54, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8}",
    "ReservationAcquireInfo {id:55, result:unsigned long long:8, fevent:unsigned long long:8, "
    "precondition:unsigned long long:8, performed:timestamp_t:8, reservation:unsigned long "
    "long:8}",
    "InstanceReadyInfo {id:56, result:unsigned long long:8, precondition:unsigned long long:8, "
    "inst_uid:unsigned long long:8, performed:timestamp_t:8}",
    "InstanceRedistrictInfo {id:57, result:unsigned long long:8, precondition:unsigned long "
    "long:8, previous:unsigned long long:8, next:unsigned long long:8, "
    "performed:timestamp_t:8}",
    "CompletionQueueInfo {id:58, result:unsigned long long:8, fevent:unsigned long long:8, "
    "performed:timestamp_t:8, pre0:unsigned long long:8, pre1:unsigned long long:8, "
    "pre2:unsigned long long:8, pre3:unsigned long long:8}",
    "ProfTaskInfo {id:59, proc_id:ProcID:8, op_id:UniqueID:8, start:timestamp_t:8, "
    "stop:timestamp_t:8, creator:unsigned long long:8, fevent:unsigned long long:8, "
    "completion:bool:1}"};

const std::vector<std::string>& layouts_1008() {
  static const std::vector<std::string> lines(std::begin(kLayouts1008), std::end(kLayouts1008));
  return lines;
}

// Format 1006, before the critical-path data: the kinds 1007 and 1008 added
// taken out (ids renumbered as the enum numbered them without them), no
// `critical` field anywhere, PartitionInfo without `fevent`, ProfTaskInfo
// without `completion`.
const std::vector<std::string>& layouts_1006() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::pair<std::string, std::string>> dropped = {{"PartitionInfo", "fevent"},
                                                                {"ProfTaskInfo", "completion"}};
    for (const std::string& line : layouts_1008()) dropped.emplace_back(name_of(line), "critical");
    return older(layouts_1008(),
                 {"ImplicitTaskInfo", "EventMergerInfo", "EventTriggerInfo", "EventPoisonInfo",
                  "BarrierArrivalInfo", "ReservationAcquireInfo", "InstanceReadyInfo",
                  "InstanceRedistrictInfo", "CompletionQueueInfo"},
                 dropped, {});
  }();
  return lines;
}

}  // namespace legato::legion::testing
