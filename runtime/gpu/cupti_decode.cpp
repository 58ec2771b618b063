#include "runtime/gpu/cupti_decode.hpp"

#include <cstring>

namespace legato::rt::gpu {

CopyDirection direction_of(uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return CopyDirection::HostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return CopyDirection::DeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return CopyDirection::DeviceToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return CopyDirection::PeerToPeer;
    default:
      return CopyDirection::Other;
  }
}

namespace {
// Records sit in CUPTI's byte buffers: copied out rather than read in place.
template <class T>
T read(const CUpti_Activity* record) {
  T out;
  std::memcpy(&out, record, sizeof(T));
  return out;
}
}  // namespace

void ActivityLog::replay(ActivityMatcher& into) const {
  for (const Correlation& c : correlations) into.add(c);
  for (const KernelActivity& k : kernels) into.add(k);
  for (const CopyActivity& c : copies) into.add(c);
}

bool decode(const CUpti_Activity* record, ActivityLog& into) {
  switch (read<CUpti_ActivityKind>(record)) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto k = read<CUpti_ActivityKernel10>(record);
      if (k.start == 0 || k.end == 0) {
        ++into.untimed;
        return true;
      }
      into.kernels.push_back(KernelActivity{k.correlationId, k.start, k.end, k.deviceId, k.streamId,
                                            k.name != nullptr ? k.name : "(unnamed kernel)"});
      return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto m = read<CUpti_ActivityMemcpy6>(record);
      if (m.start == 0 || m.end == 0) {
        ++into.untimed;
        return true;
      }
      into.copies.push_back(CopyActivity{m.correlationId, m.start, m.end, m.bytes,
                                         direction_of(m.copyKind), m.deviceId, m.streamId});
      return true;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      const auto e = read<CUpti_ActivityExternalCorrelation>(record);
      if (e.externalKind != kLegatoCorrelation) return false;
      // A runtime call and the driver calls it makes may each bring the same pair.
      if (into.correlations.empty() || into.correlations.back().correlation != e.correlationId ||
          into.correlations.back().item != e.externalId) {
        into.correlations.push_back(Correlation{e.correlationId, e.externalId});
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace legato::rt::gpu
