// CUPTI activity records (CUDA builds only) into the matcher's plain
// activity: kernels, memory copies and the external correlations that tie
// CUPTI's ids to Legato uids.
#pragma once

#include <cupti_activity.h>

#include "runtime/gpu/activity.hpp"

namespace legato::rt::gpu {

// The external correlation kind Legato pushes around its launches.
inline constexpr CUpti_ExternalCorrelationKind kLegatoCorrelation =
    CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

// Feeds one record to `into`; records of other kinds (and other tools'
// external correlations) are skipped. Returns whether it was used.
bool decode(const CUpti_Activity* record, ActivityMatcher& into);

CopyDirection direction_of(uint8_t cupti_copy_kind);

}  // namespace legato::rt::gpu
