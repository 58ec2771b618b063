// A hash map from 64-bit ids (Realm events, instance ids, uids) to small
// values, for lookups over every record of a log (the importer's, and the
// model's ids that are not dense, analysis/uid_index.hpp): open
// addressing in one array, so a lookup is a multiply and, almost always, one
// cache line. Key 0 (an empty slot in the array) is kept beside it.
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
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == 0) return nullptr;
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
    if ((size_ + 1) * 4 > keys_.size() * 3) rehash(keys_.size() * 2);
    size_t i = slot(key);
    for (; keys_[i] != 0; i = (i + 1) & mask_) {
      if (keys_[i] == key) return {&values_[i], false};
    }
    keys_[i] = key;
    values_[i] = std::move(value);
    ++size_;
    return {&values_[i], true};
  }
  V& operator[](uint64_t key) { return *try_emplace(key).first; }
  // Starts loading key's slot into the cache: a loop over many keys
  // prefetches a few keys ahead, so its misses overlap.
  // Both the key's slot and its value: a hit reads both.
  void prefetch(uint64_t key) const {
    const size_t i = slot(key);
    __builtin_prefetch(&keys_[i]);
    __builtin_prefetch(&values_[i]);
  }
  void reserve(size_t n) {
    size_t cap = keys_.size();
    while (n * 4 > cap * 3) cap *= 2;
    if (cap != keys_.size()) rehash(cap);
  }

 private:
  size_t slot(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }
  void rehash(size_t capacity) {  // a power of two
    HugeVector<uint64_t> keys(capacity, 0);
    HugeVector<V> values(capacity);
    keys.swap(keys_);
    values.swap(values_);
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != 0) try_emplace(keys[i], std::move(values[i]));
    }
  }

  HugeVector<uint64_t> keys_;
  HugeVector<V> values_;
  V zero_{};
  bool has_zero_ = false;
  size_t mask_ = 0, size_ = 0;
  int shift_ = 64;
};

}  // namespace legato::legion
