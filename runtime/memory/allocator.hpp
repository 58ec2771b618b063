// A best-fit free-list allocator over [0, capacity): alignment, reuse of
// freed space, coalescing of neighbours, and the fragmentation that comes
// with all of that. It hands out offsets; the memory pool maps them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

namespace legato::rt {

class Allocator {
 public:
  explicit Allocator(uint64_t capacity);

  // An offset aligned to `align` (a power of two) for `bytes`, or nothing
  // when no free block is large enough.
  std::optional<uint64_t> allocate(uint64_t bytes, uint64_t align);
  void free(uint64_t offset);

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }
  uint64_t largest_free() const;
  size_t free_blocks() const { return by_offset_.size(); }

 private:
  void insert_free(uint64_t offset, uint64_t size);
  void erase_free(std::map<uint64_t, uint64_t>::iterator it);

  uint64_t capacity_;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> by_offset_;            // free block offset -> size
  std::multimap<uint64_t, uint64_t> by_size_;         // free block size -> offset
  std::unordered_map<uint64_t, uint64_t> allocated_;  // offset -> size taken
};

}  // namespace legato::rt
