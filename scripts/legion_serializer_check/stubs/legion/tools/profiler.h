// Stand-in for legion/tools/profiler.h: the profiling record structs that
// serializer.cc writes, with the member names and C++ member types Legion
// declares (only members serializer.cc or the driver touch). Per-commit
// differences are keyed on STUB_PROF_VERSION (the commit's
// profiler_version.h, passed by build_and_run.sh):
//   1008       MachineDesc has `version`
//   1010+      EventWaitInfo has `provenance_id`
//   1011+      PhysicalInstanceSpaces, PartInstInfo, expression ids, and the
//              new PhysicalInstanceUsage layout
//   1012+      MakeValidInfo, FetchMetadataInfo; the descriptor structs move
//              from LegionProfDesc into LegionProfiler and use std::string
// Written for scripts/legion_serializer_check; not Legion code.
#ifndef __LEGION_PROFILER_H__
#define __LEGION_PROFILER_H__

#include "stub_types.h"

// Legion defines the version exactly like this, from the commit's own file.
constexpr unsigned LEGION_PROF_VERSION =
#include "legion/tools/profiler_version.h"
    ;
static_assert(LEGION_PROF_VERSION == STUB_PROF_VERSION,
              "STUB_PROF_VERSION must match profiler_version.h");

#if STUB_PROF_VERSION >= 1012
#define STUB_NAME_T std::string  // descriptor names are std::string
#else
#define STUB_NAME_T const char*
#endif

namespace Legion {
namespace Internal {

// Descriptor records (LegionProfDesc::X before 1012, LegionProfiler::X
// from 1012 on; see the bottom of this file).
struct LegionProfDescTypes {
  struct ProcDesc {
    ProcID proc_id;
    ProcKind kind;
#ifdef LEGION_USE_CUDA
    Realm::Cuda::Uuid cuda_device_uuid;
#endif
  };
  struct MemDesc {
    MemID mem_id;
    MemKind kind;
    unsigned long long capacity;
  };
  struct ProcMemDesc {
    ProcID proc_id;
    MemID mem_id;
    unsigned bandwidth;
    unsigned latency;
  };
  struct TaskKind {
    TaskID task_id;
    STUB_NAME_T name;
    bool overwrite;
  };
  struct TaskVariant {
    TaskID task_id;
    VariantID variant_id;
    STUB_NAME_T name;
  };
  struct MapperName {
    MapperID mapper_id;
    ProcID mapper_proc;
    STUB_NAME_T name;
  };
  struct MapperCallDesc {
    unsigned kind;
    const char* name;
  };
  struct RuntimeCallDesc {
    unsigned kind;
    const char* name;
  };
  struct MetaDesc {
    unsigned kind;
    bool message;
    bool ordered_vc;
    const char* name;
  };
  struct OpDesc {
    unsigned kind;
    const char* name;
  };
  struct MaxDimDesc {
    unsigned max_dim;
  };
  struct RuntimeConfig {
    bool debug, spy, gc, inorder, safe_mapper, safe_runtime, safe_ctrlrepl, part_checks,
        bounds_checks, resilient;
  };
  struct MachineDesc {
    unsigned node_id;
    unsigned num_nodes;
#if STUB_PROF_VERSION < 1009
    unsigned version;
#endif
    Machine::ProcessInfo process_info;
  };
  struct CalibrationErr {
    long long calibration_err;
  };
  struct ZeroTime {
    long long zero_time;
  };
  struct Provenance {
    ProvenanceID pid;
#if STUB_PROF_VERSION >= 1012
    std::string provenance;
#else
    const char* provenance;
    size_t size;  // written as size + 1 bytes
#endif
  };
  struct Backtrace {
    unsigned long long id;
    STUB_NAME_T backtrace;
  };
};

#if STUB_PROF_VERSION >= 1012
struct LegionProfiler : LegionProfDescTypes {};
#else
struct LegionProfDesc : LegionProfDescTypes {};
#endif

}  // namespace Internal
}  // namespace Legion

#include "stub_instance_records.h"

#endif
