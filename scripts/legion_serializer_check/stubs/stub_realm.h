// Stand-ins for the few Realm types that Legion's serializer.cc touches.
// Sizes follow Realm (realm/src/realm/realm_c.h, event.h, machine.h,
// processor.h, memory.h, cuda/cuda_module.h) at the checked Legion commits.
// Written for scripts/legion_serializer_check; not Realm code.
#ifndef STUB_REALM_H
#define STUB_REALM_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>

typedef unsigned long long realm_id_t;  // realm_c.h: 8 bytes
#define IDFMT "%llx"                    // Realm's printf format for ids

namespace Realm {
// Processor::Kind / Memory::Kind are plain enums (4 bytes) in Realm.
// The last enumerator widens the range so any test value fits.
struct Processor {
  enum Kind { NO_KIND = 0, TOC_PROC, LOC_PROC, UTIL_PROC, KIND_STUB_MAX = 0x7fffffff };
};
struct Memory {
  enum Kind { NO_MEMKIND = 0, SYSTEM_MEM, KIND_STUB_MAX = 0x7fffffff };
};

// Realm::Event holds one 64-bit id and nothing else.
struct Event {
  realm_id_t id;
};
struct Reservation {
  realm_id_t id;
};

struct Machine {
  struct ProcessInfo {
    static const size_t MAX_HOSTNAME_LENGTH = 256;
    char hostname[MAX_HOSTNAME_LENGTH];
    uint64_t hostid;
    uint32_t processid;
  };
};

namespace Cuda {  // only used because we build with LEGION_USE_CUDA
static const size_t UUID_SIZE = 16;
typedef char Uuid[UUID_SIZE];
}  // namespace Cuda

// The ASCII serializer logs through this; the test never uses it.
struct Logger {
  void print(const char* fmt, ...) const {
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
  }
};
}  // namespace Realm

#endif
