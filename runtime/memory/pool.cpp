#include "runtime/memory/pool.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace legato::rt {
namespace {

// What the header in front of each payload holds.
struct InstanceHeader {
  uint64_t magic;
  uint64_t uid;
  uint64_t bytes;
  int64_t lo, hi;
};
static_assert(sizeof(InstanceHeader) <= MemoryPool::kHostAlignment);
constexpr uint64_t kHeaderMagic = 0x4c47544f494e5354ULL;  // "LGTOINST"

}  // namespace

MemoryPool::MemoryPool(uint32_t id, trace::MemKind kind, uint64_t capacity, std::string name)
    : id_(id), kind_(kind), name_(std::move(name)), allocator_(capacity) {
  if (capacity == 0) return;
  void* p = mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    const int err = errno;
    throw std::runtime_error("cannot reserve " + std::to_string(capacity >> 20) +
                             " MiB of address space for " + name_ + ": " + std::strerror(err));
  }
  base_ = static_cast<std::byte*>(p);
}

MemoryPool::MemoryPool(uint32_t id, trace::MemKind kind, uint64_t capacity, std::string name,
                       std::byte* base, Free free, bool host_access)
    : id_(id),
      kind_(kind),
      name_(std::move(name)),
      base_(base),
      free_(free),
      host_access_(host_access),
      alignment_(kGpuAlignment),
      allocator_(capacity) {
  if (reinterpret_cast<uintptr_t>(base) % kGpuAlignment != 0)
    throw std::logic_error(name_ + ": memory for a GPU pool must be aligned to " +
                           std::to_string(kGpuAlignment) + " bytes");
}

MemoryPool::~MemoryPool() {
  if (base_ == nullptr) return;
  if (free_ != nullptr) {
    free_(base_);
  } else {
    munmap(base_, capacity());
  }
}

bool MemoryPool::place(Instance& inst) {
  std::lock_guard lock(mu_);
  const std::optional<uint64_t> at = allocator_.allocate(footprint(inst.bytes), alignment_);
  if (!at) return false;
  inst.offset = *at;
  inst.data = base_ + *at + header_bytes();
  if (host_access_) {
    const InstanceHeader h{kHeaderMagic, inst.uid, inst.bytes, inst.covered.lo, inst.covered.hi};
    std::memcpy(base_ + *at, &h, sizeof h);
  }
  return true;
}

void MemoryPool::release(Instance& inst) {
  std::lock_guard lock(mu_);
  // The pages stay with the pool (as a Realm memory keeps its whole
  // capacity): the next instance placed there does not fault them in again.
  // They go back to the system when the runtime finishes.
  allocator_.free(inst.offset);
  inst.data = nullptr;
}

uint64_t MemoryPool::used() const {
  std::lock_guard lock(mu_);
  return allocator_.used();
}

uint64_t MemoryPool::largest_free() const {
  std::lock_guard lock(mu_);
  return allocator_.largest_free();
}

const char* MemoryPool::kind_label() const {
  switch (kind_) {
    case trace::MemKind::System:
      return "SYSTEM_MEM";
    case trace::MemKind::Framebuffer:
      return "GPU_FB_MEM";
    case trace::MemKind::ZeroCopy:
      return "Z_COPY_MEM";
    case trace::MemKind::Socket:
      return "SOCKET_MEM";
  }
  return "UNKNOWN_MEM";
}

}  // namespace legato::rt
