// Out-of-line definitions the stubbed declarations need at link time.
// Written for scripts/legion_serializer_check; not Legion code.
#include "legion/tools/profiler.h"

namespace Legion {
  namespace Internal {
    Realm::Logger log_prof;                  // used by the ASCII serializer
    const LgEvent LgEvent::NO_LG_EVENT = {};  // id 0, as in Legion
  }  // namespace Internal
}  // namespace Legion
