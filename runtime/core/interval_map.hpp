// A map from disjoint element ranges to values, for the per-store access
// history (dependence analysis) and the record of which instances hold
// valid data (mapping). Ranges not in the map have no value.
#pragma once

#include <iterator>
#include <map>

#include "runtime/types.hpp"

namespace legato::rt {

template <class V>
class IntervalMap {
 public:
  struct Entry {
    int64_t hi;
    V value;
  };
  using Map = std::map<int64_t, Entry>;

  // Calls f(Range, V&) for every stored part of r, in order, after splitting
  // entries at r's ends so each part lies inside r.
  template <class F>
  void for_each(Range r, F&& f) {
    if (r.empty()) return;
    split(r.lo);
    split(r.hi);
    for (auto it = map_.lower_bound(r.lo); it != map_.end() && it->first < r.hi; ++it) {
      f(Range{it->first, it->second.hi}, it->second.value);
    }
  }

  // Calls f(Range) for every part of r that has no value.
  template <class F>
  void for_each_gap(Range r, F&& f) const {
    int64_t at = r.lo;
    auto it = map_.upper_bound(r.lo);
    if (it != map_.begin()) --it;
    for (; it != map_.end() && it->first < r.hi && at < r.hi; ++it) {
      if (it->second.hi <= at) continue;
      if (it->first > at) f(Range{at, it->first});
      at = std::max(at, it->second.hi);
    }
    if (at < r.hi) f(Range{at, r.hi});
  }

  // r now maps to v alone.
  void assign(Range r, V v) {
    if (r.empty()) return;
    split(r.lo);
    split(r.hi);
    map_.erase(map_.lower_bound(r.lo), map_.lower_bound(r.hi));
    map_.emplace(r.lo, Entry{r.hi, std::move(v)});
  }

  void erase(Range r) {
    if (r.empty()) return;
    split(r.lo);
    split(r.hi);
    map_.erase(map_.lower_bound(r.lo), map_.lower_bound(r.hi));
  }

  size_t size() const { return map_.size(); }
  void clear() { map_.clear(); }

 private:
  // Makes `at` an entry boundary if it falls inside an entry.
  void split(int64_t at) {
    auto it = map_.upper_bound(at);
    if (it == map_.begin()) return;
    --it;
    if (it->first < at && at < it->second.hi) {
      Entry right{it->second.hi, it->second.value};
      it->second.hi = at;
      map_.emplace(at, std::move(right));
    }
  }

  Map map_;
};

}  // namespace legato::rt
