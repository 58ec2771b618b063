// The header lines of older Legion Prof logs, as Legion wrote them (without
// the first line and the empty line that ends the header), for the test
// log writer (legion_log_writer.cpp). Layouts are facts of the format: the
// record kinds, ids, fields and sizes each Legion wrote.
#include "legion_import/testing/legion_log_layouts.hpp"

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

}  // namespace legato::legion::testing
