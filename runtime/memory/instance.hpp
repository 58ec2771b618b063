// An instance: a physical copy of part of a store in one memory pool. What
// the runtime's mapping remembers of it (the store it belongs to, the
// operation it was made for, its users) is the core's StoreInstance.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/types.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class MemoryPool;

struct Instance {
  trace::Uid uid = 0;
  MemoryPool* memory = nullptr;
  Range covered;        // the store elements it holds
  uint64_t bytes = 0;   // payload: covered.size() * element size
  uint64_t offset = 0;  // of the allocation in the pool
  std::byte* data = nullptr;

  std::byte* at(int64_t element, size_t elem_size) const {
    return data + static_cast<size_t>(element - covered.lo) * elem_size;
  }
};

}  // namespace legato::rt
