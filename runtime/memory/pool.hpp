// Memory pools: where instances are placed. A pool reserves its whole
// capacity as address space up front; pages are only touched (and so only
// cost memory) when instances are created in them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/memory/allocator.hpp"
#include "runtime/memory/instance.hpp"
#include "runtime/types.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class MemoryPool {
 public:
  // Every allocation is aligned, and the per-instance bookkeeping in front of
  // the payload takes one alignment unit, so payloads are aligned too: an
  // instance takes a little more than its payload. Host memory: a cache
  // line. Memory a GPU works on (its framebuffer, zero-copy memory): 256
  // bytes, as cudaMalloc gives; an H100 adds float64 arrays at 0.69 of its
  // copy bandwidth when they start 64 bytes past such a boundary, 0.96 on it.
  static constexpr uint64_t kHostAlignment = 64;
  static constexpr uint64_t kGpuAlignment = 256;

  // Throws std::runtime_error when the address space cannot be reserved.
  MemoryPool(uint32_t id, trace::MemKind kind, uint64_t capacity, std::string name);
  // A pool over memory allocated elsewhere for a GPU (its framebuffer,
  // pinned host memory), handed back with `free` at the end; `base` is
  // aligned to kGpuAlignment. `host_access`: the host may write there
  // (instance headers are written only then).
  using Free = void (*)(std::byte*);
  MemoryPool(uint32_t id, trace::MemKind kind, uint64_t capacity, std::string name, std::byte* base,
             Free free, bool host_access);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // Places inst (bytes set) and fills offset and data; false if it does not fit.
  bool place(Instance& inst);
  void release(Instance& inst);

  uint32_t id() const { return id_; }
  trace::MemKind kind() const { return kind_; }
  const std::string& name() const { return name_; }
  uint64_t capacity() const { return allocator_.capacity(); }
  uint64_t used() const;
  uint64_t largest_free() const;
  uint64_t alignment() const { return alignment_; }
  uint64_t header_bytes() const { return alignment_; }
  // What an instance of `bytes` takes from the pool.
  uint64_t footprint(uint64_t bytes) const {
    return header_bytes() + ((bytes + alignment_ - 1) & ~(alignment_ - 1));
  }
  // "SYSTEM_MEM", "GPU_FB_MEM", "Z_COPY_MEM" as the OOM reports name them.
  const char* kind_label() const;
  // Memory only a GPU reaches (a framebuffer); `device` is that GPU's index.
  bool on_device() const { return kind_ == trace::MemKind::Framebuffer; }
  int device = -1;

 private:
  uint32_t id_;
  trace::MemKind kind_;
  std::string name_;
  std::byte* base_ = nullptr;
  Free free_ = nullptr;
  bool host_access_ = true;
  uint64_t alignment_ = kHostAlignment;
  mutable std::mutex mu_;
  Allocator allocator_;
};

}  // namespace legato::rt
