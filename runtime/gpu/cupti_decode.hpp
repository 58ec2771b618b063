// CUPTI activity records (CUDA builds only) into the matcher's plain
// activity: kernels, memory copies and the external correlations that tie
// CUPTI's ids to Legato uids. The clock fit is only known at the end of a
// run, so decoded activity is kept in an ActivityLog and replayed into a
// matcher then.
#pragma once

#include <cupti_activity.h>

#include <vector>

#include "runtime/gpu/activity.hpp"

namespace legato::rt::gpu {

// The external correlation kind Legato pushes around its launches.
inline constexpr CUpti_ExternalCorrelationKind kLegatoCorrelation =
    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

// Decoded activity, in arrival order.
struct ActivityLog {
  std::vector<Correlation> correlations;
  std::vector<KernelActivity> kernels;
  std::vector<CopyActivity> copies;
  // Kernels and copies CUPTI delivered without timestamps (0: it had no
  // device memory left for them, or a forced flush found them unfinished).
  uint64_t untimed = 0;

  // Feeds everything to `into`: the correlations first, so that kernels and
  // copies match as they come instead of waiting.
  void replay(ActivityMatcher& into) const;
};

// Adds one record to `into`; records of other kinds (and other tools'
// external correlations) are skipped. Returns whether it was used.
bool decode(const CUpti_Activity* record, ActivityLog& into);

CopyDirection direction_of(uint8_t cupti_copy_kind);

}  // namespace legato::rt::gpu
