// Stand-ins for the Legion configuration macros and basic types used by
// runtime/legion/tools/serializer.cc. Every typedef has the C++ type Legion
// uses at the checked commits (legion/api/config.h, legion/api/types.h,
// legion/tools/types.h, legion/tools/profiler.h); the enums are plain enums
// (4 bytes) as in Legion, widened by a last enumerator so test values fit.
// Written for scripts/legion_serializer_check; not Legion code.
#ifndef STUB_TYPES_H
#define STUB_TYPES_H

#include <cstring>
#include <deque>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "stub_realm.h"

#define LEGION_VERSION "legion-test-version"

// config.h: LEGION_MAX_DIM defaults to 3; LEGION_FOREACH_N(F) is F(1)..F(MAX).
#define LEGION_MAX_DIM 3
#define LEGION_FOREACH_N(__func__) __func__(1) __func__(2) __func__(3)

// config.h: legion_privilege_mode_t (LEGION_REDUCE = 0x4).
typedef enum legion_privilege_mode_t {
  LEGION_NO_ACCESS = 0x00000000,
  LEGION_READ_PRIV = 0x00000001,
  LEGION_READ_ONLY = 0x00000001,
  LEGION_WRITE_PRIV = 0x00000002,
  LEGION_REDUCE_PRIV = 0x00000004,
  LEGION_REDUCE = 0x00000004,
  LEGION_READ_WRITE = 0x00000007,
  LEGION_PRIV_STUB_MAX = 0x7fffffff,
} legion_privilege_mode_t;

namespace Legion {
typedef Realm::Processor Processor;
typedef Realm::Machine Machine;
typedef Realm::Reservation Reservation;

typedef unsigned int MapperID;             // legion_mapper_id_t
typedef unsigned TaskID;                   // realm_task_func_id_t
typedef unsigned int VariantID;            // legion_variant_id_t
typedef unsigned long long UniqueID;       // legion_unique_id_t
typedef unsigned long long DistributedID;  // legion_distributed_id_t
typedef unsigned long long ProvenanceID;   // legion_provenance_id_t
typedef long long LegionColor;             // legion_internal_color_t
typedef unsigned int FieldID;              // legion_field_id_t
typedef int ReductionOpID;                 // realm_reduction_op_id_t
typedef legion_privilege_mode_t PrivilegeMode;
enum EqualityKind { EQ_STUB_MAX = 0x7fffffff };    // legion_equality_kind_t
enum DimensionKind { DIM_STUB_MAX = 0x7fffffff };  // legion_dimension_kind_t

namespace Internal {
// legion/tools/types.h
enum DepPartOpKind { DEP_PART_STUB_MAX = 0x7fffffff };
enum CollectiveKind { COLLECTIVE_STUB_MAX = 0x7fffffff };
enum MappingCallKind { MAPPING_CALL_STUB_MAX = 0x7fffffff };
enum RuntimeCallKind { RUNTIME_CALL_STUB_MAX = 0x7fffffff };

// legion/tools/profiler.h typedefs
typedef long long timestamp_t;
typedef Realm::Processor::Kind ProcKind;
typedef Realm::Memory::Kind MemKind;
typedef ::realm_id_t ProcID;
typedef ::realm_id_t MemID;
typedef ::realm_id_t InstID;

// LgEvent is a Realm::Event (one 64-bit id) with a null constant.
struct LgEvent : public Realm::Event {
  static const LgEvent NO_LG_EVENT;
};
}  // namespace Internal
}  // namespace Legion

#endif
