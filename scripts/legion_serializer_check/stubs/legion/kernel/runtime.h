// Stand-in for legion/kernel/runtime.h. serializer.cc includes it for the
// runtime's declarations; all it needs from them (types, Realm::Logger) the
// stubbed legion/tools/profiler.h already provides.
// Written for scripts/legion_serializer_check; not Legion code.
#ifndef STUB_LEGION_KERNEL_RUNTIME_H
#define STUB_LEGION_KERNEL_RUNTIME_H

#include "legion/tools/profiler.h"

#endif
