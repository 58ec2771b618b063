// The collector's CUPTI side (CUDA builds only): the entry points it takes
// from libcupti at run time, the walk over a completed activity buffer that
// CUPTI's buffer callback makes, and a way to start a collector with given
// entry points, for tests that play CUPTI's part on a machine without a GPU.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/gpu/collector.hpp"
#include "runtime/gpu/cupti_decode.hpp"

namespace legato::rt::gpu {

// CUPTI's functions, typed as its headers declare them.
struct CuptiApi {
  std::string library;  // what was loaded, for messages (its path when known)
  decltype(&cuptiGetVersion) get_version = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) push_correlation = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) pop_correlation = nullptr;
  decltype(&cuptiGetTimestamp) timestamp = nullptr;
};

// libcupti, loaded once per process and never unloaded (CUPTI's threads
// outlive any collector). Null, with *problem in words, when no library of
// this build's CUPTI major version can be loaded or an entry point is missing.
const CuptiApi* load_cupti(std::string* problem);

// What CUPTI's buffer-completed callback does with a buffer: reads its
// records (`valid` bytes) with api.next_record and decodes them into `into`.
// Returns how many records were read.
size_t consume_buffer(const CuptiApi& api, uint8_t* buffer, size_t valid, ActivityLog& into);

// CUPTI's "name" for a result code, e.g. CUPTI_ERROR_UNKNOWN.
std::string result_text(const CuptiApi& api, CUptiResult result);

struct CollectorAccess {
  // Collector::start with these entry points (start() uses load_cupti's).
  static std::unique_ptr<Collector> start(const CuptiApi& api, std::string* problem);
};

}  // namespace legato::rt::gpu
