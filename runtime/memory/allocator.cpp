#include "runtime/memory/allocator.hpp"

#include <cassert>

namespace legato::rt {

Allocator::Allocator(uint64_t capacity) : capacity_(capacity) {
  if (capacity > 0) insert_free(0, capacity);
}

void Allocator::insert_free(uint64_t offset, uint64_t size) {
  by_offset_.emplace(offset, size);
  by_size_.emplace(size, offset);
}

void Allocator::erase_free(std::map<uint64_t, uint64_t>::iterator it) {
  auto [lo, hi] = by_size_.equal_range(it->second);
  for (auto s = lo; s != hi; ++s) {
    if (s->second == it->first) {
      by_size_.erase(s);
      break;
    }
  }
  by_offset_.erase(it);
}

std::optional<uint64_t> Allocator::allocate(uint64_t bytes, uint64_t align) {
  if (bytes == 0) bytes = 1;
  // Best fit: the smallest free block that holds the aligned request.
  for (auto s = by_size_.lower_bound(bytes); s != by_size_.end(); ++s) {
    const uint64_t block = s->second, size = s->first;
    const uint64_t start = (block + align - 1) & ~(align - 1);
    if (start - block + bytes > size) continue;
    erase_free(by_offset_.find(block));
    if (start > block) insert_free(block, start - block);
    const uint64_t end = start + bytes;
    if (end < block + size) insert_free(end, block + size - end);
    allocated_.emplace(start, bytes);
    used_ += bytes;
    return start;
  }
  return std::nullopt;
}

void Allocator::free(uint64_t offset) {
  auto a = allocated_.find(offset);
  assert(a != allocated_.end() && "freeing an offset that was not allocated");
  uint64_t start = offset, end = offset + a->second;
  used_ -= a->second;
  allocated_.erase(a);
  // Coalesce with the free neighbours on both sides.
  auto next = by_offset_.lower_bound(start);
  if (next != by_offset_.end() && next->first == end) {
    end += next->second;
    erase_free(next);
  }
  auto prev = by_offset_.lower_bound(start);
  if (prev != by_offset_.begin()) {
    --prev;
    if (prev->first + prev->second == start) {
      start = prev->first;
      erase_free(prev);
    }
  }
  insert_free(start, end - start);
}

uint64_t Allocator::largest_free() const {
  return by_size_.empty() ? 0 : by_size_.rbegin()->first;
}

}  // namespace legato::rt
