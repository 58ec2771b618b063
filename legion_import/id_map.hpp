// A hash map from 64-bit ids (Realm events, instance ids, uids) to small
// values, for lookups over every record of a log (the importer's, and the
// model's ids that are not dense, analysis/uid_index.hpp): open
// addressing in one array of (key, value) slots, so a lookup is a multiply
// and, almost always, one cache line. Key 0 (an empty slot in the array) is
// kept beside it. IdSet is the same table without values: 8 bytes a slot.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "trace_format/huge_pages.hpp"

namespace legato::legion {

template <class V>
class IdMap {
 public:
  IdMap() { rehash(16); }

  size_t size() const { return size_ + (has_zero_ ? 1 : 0); }
  // The value of `key`, or nullptr.
  const V* find(uint64_t key) const {
    if (key == 0) return has_zero_ ? &zero_ : nullptr;
    for (size_t i = slot(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == 0) return nullptr;
    }
  }
  V* find(uint64_t key) { return const_cast<V*>(std::as_const(*this).find(key)); }
  bool contains(uint64_t key) const { return find(key) != nullptr; }
  // The value of `key`, inserted as `value` if absent; second: whether it was.
  std::pair<V*, bool> try_emplace(uint64_t key, V value = V{}) {
    if (key == 0) {
      const bool added = !has_zero_;
      if (added) zero_ = std::move(value);
      has_zero_ = true;
      return {&zero_, added};
    }
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.size() * 2);
    size_t i = slot(key);
    for (; slots_[i].key != 0; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
    }
    slots_[i].key = key;
    slots_[i].value = std::move(value);
    ++size_;
    return {&slots_[i].value, true};
  }
  V& operator[](uint64_t key) { return *try_emplace(key).first; }
  // Starts loading key's slot into the cache: a loop over many keys
  // prefetches a few keys ahead, so its misses overlap. Always inlined: GCC
  // takes a call whose only effect is a prefetch for one with no effect,
  // and drops it (so must every function that only prefetches).
  [[gnu::always_inline]] void prefetch(uint64_t key) const {
    __builtin_prefetch(&slots_[slot(key)]);
  }
  void reserve(size_t n) {
    size_t cap = slots_.size();
    while (n * 4 > cap * 3) cap *= 2;
    if (cap != slots_.size()) rehash(cap);
  }

 private:
  struct Slot {
    uint64_t key = 0;  // 0: free
    [[no_unique_address]] V value{};
  };
  size_t slot(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }
  void rehash(size_t capacity) {  // a power of two
    HugeVector<Slot> slots(capacity);
    slots.swap(slots_);
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (Slot& s : slots) {
      if (s.key != 0) try_emplace(s.key, std::move(s.value));
    }
  }

  HugeVector<Slot> slots_;
  V zero_{};
  bool has_zero_ = false;
  size_t mask_ = 0, size_ = 0;
  int shift_ = 64;
};

// A set of 64-bit ids: an IdMap whose values take no room.
class IdSet {
 public:
  size_t size() const { return map_.size(); }
  bool contains(uint64_t key) const { return map_.contains(key); }
  // Whether `key` was added (false: it was there).
  bool insert(uint64_t key) { return map_.try_emplace(key).second; }
  [[gnu::always_inline]] void prefetch(uint64_t key) const { map_.prefetch(key); }
  void reserve(size_t n) { map_.reserve(n); }

 private:
  struct Nothing {};
  IdMap<Nothing> map_;
};

}  // namespace legato::legion
