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

bool decode(const CUpti_Activity* record, ActivityMatcher& into) {
  switch (read<CUpti_ActivityKind>(record)) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto k = read<CUpti_ActivityKernel10>(record);
      into.add(KernelActivity{k.correlationId, k.start, k.end, k.deviceId, k.streamId,
                              k.name != nullptr ? k.name : "(unnamed kernel)"});
      return true;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto m = read<CUpti_ActivityMemcpy6>(record);
      into.add(CopyActivity{m.correlationId, m.start, m.end, m.bytes, direction_of(m.copyKind),
                            m.deviceId, m.streamId});
      return true;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      const auto e = read<CUpti_ActivityExternalCorrelation>(record);
      if (e.externalKind != kLegatoCorrelation) return false;
      into.add(Correlation{e.correlationId, e.externalId});
      return true;
    }
    default:
      return false;
  }
}

}  // namespace legato::rt::gpu
