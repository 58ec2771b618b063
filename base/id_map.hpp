// A hash map from 64-bit ids (Realm events, instance ids, uids) to small
// values, for lookups over every record of a log (the importer's, and the
// model's ids that are not dense, analysis/uid_index.hpp): open
// addressing in one array of (key, value) slots, so a lookup is a multiply
// and, almost always, one cache line. Key 0 (an empty slot in the array) is
// kept beside it. IdSet is the same table without values: 8 bytes a slot.
// IdFilter is a bit per hash, for a loop over many ids of which few are in
// a map: small enough to stay in a core's cache, it passes those few (and
// some others) to the map's lookup.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/huge_pages.hpp"
#include "base/prefetch.hpp"

namespace legato::base {

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
  [[gnu::always_inline]] void prefetch(uint64_t key) const { base::prefetch(&slots_[slot(key)]); }
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

// One bit per hash of an id: maybe(id) holds for every id added, and for
// about the share of bits set among the others. Id 0 is never added.
class IdFilter {
 public:
  // At least `bits` bits (a power of two, 4096 or more).
  explicit IdFilter(size_t bits) {
    bits = std::bit_ceil(std::max<size_t>(4096, bits));
    shift_ = 64 - std::countr_zero(bits);
    words_.assign(bits / 64, 0);
  }
  void add(uint64_t id) {
    const size_t b = bit(id);
    if (id != 0) words_[b / 64] |= uint64_t{1} << (b % 64);
  }
  bool maybe(uint64_t id) const {
    const size_t b = bit(id);
    return id != 0 && (words_[b / 64] >> (b % 64)) & 1;
  }
  size_t bits() const { return words_.size() * 64; }
  size_t bits_set() const {
    size_t n = 0;
    for (uint64_t w : words_) n += static_cast<size_t>(std::popcount(w));
    return n;
  }

 private:
  size_t bit(uint64_t id) const {
    return static_cast<size_t>((id * 0xD6E8FEB86659FD93ull) >> shift_);
  }
  std::vector<uint64_t> words_;
  int shift_ = 64;
};

// The positions of a sequence of n ids (id(k) for k < n; 0s skipped)
// whose id an earlier position holds, ascending. For millions of distinct
// ids with rare repeats: a first pass marks the bits (hashes) that two ids
// or more share, so that only those ids, about one in eight, go through an
// exact set.
template <class Id>
std::vector<size_t> repeated_ids(size_t n, const Id& id) {
  IdFilter once(8 * n), twice(8 * n);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t v = id(k);
    if (once.maybe(v)) {
      twice.add(v);
    } else {
      once.add(v);
    }
  }
  std::vector<size_t> repeats;
  IdSet seen;
  seen.reserve(n / 4);
  for (size_t k = 0; k < n; ++k) {
    const uint64_t v = id(k);
    if (twice.maybe(v) && !seen.insert(v)) repeats.push_back(k);
  }
  return repeats;
}

}  // namespace legato::base
