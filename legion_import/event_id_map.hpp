// A map from Realm event ids to small values, for lookups over every item
// of a run (the importer's critical path, the model's uids of imported
// items). A Realm event id names a slot of its node's event table (bits
// 46..20, the node and the id's type above) and a generation of that slot
// (bits 19..0). A run reuses few slots, thousands in a large run, so each
// slot's events are many and their generations close together: a table
// per slot of the generations its ids span, found through a hash table of
// the slots small enough for a core's cache, holds an event's value in
// sizeof(V) bytes, where a hash table of the events takes two to four
// times that and misses the cache on nearly every lookup. Ids of slots too
// sparse for a table, ids planning did not see, and ids of another layout
// go to a hash table (IdMap).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "legion_import/id_map.hpp"

namespace legato::legion {

// kEmpty: a value never stored, marking the tables' free entries.
template <class V, V kEmpty>
class EventIdMap {
 public:
  // Before the first insert: the ids to be inserted, each(f) calling f(id)
  // for each (repeats allowed; about `ids` of them). Plans a table for each
  // slot whose generations span at most 8 entries per id (and a little),
  // and room in the hash table for the other ids. Ids with as many slots
  // as ids (no Realm layout) are all hashed: planning stops at a quarter.
  template <class Each>
  void plan(Each&& each, size_t ids);
  // The value of `id`, inserted as `value` (never kEmpty) if absent;
  // second: whether it was.
  std::pair<V*, bool> try_emplace(uint64_t id, V value) {
    if (V* v = in_table(id)) {
      if (*v != kEmpty) return {v, false};
      *v = value;
      return {v, true};
    }
    return hashed_.try_emplace(id, value);
  }
  const V* find(uint64_t id) const {
    if (const V* v = in_table(id)) return *v == kEmpty ? nullptr : v;
    return hashed_.find(id);
  }
  // Starts loading where find(id) will look. Always inlined, or the
  // prefetch is dropped (IdMap::prefetch).
  [[gnu::always_inline]] void prefetch(uint64_t id) const {
    if (const V* v = in_table(id)) return __builtin_prefetch(v);
    hashed_.prefetch(id);
  }
  // The slots with a table of their own.
  size_t tables() const { return slots_.size(); }

 private:
  static constexpr int kGenerationBits = 20;
  static constexpr uint64_t kGenerationMask = (uint64_t{1} << kGenerationBits) - 1;
  // A slot's generations lo..lo + span - 1, at values_[base...].
  struct Generations {
    uint32_t lo = 0, span = 0;
    uint64_t base = 0;
  };
  // Where id's value lies if its slot has a table and the id falls in its
  // span; nullptr otherwise.
  [[gnu::always_inline]] const V* in_table(uint64_t id) const {
    if (values_.empty()) return nullptr;
    const Generations* g = slots_.find(id >> kGenerationBits);
    if (!g) return nullptr;
    const uint64_t k = (id & kGenerationMask) - g->lo;
    return k < g->span ? &values_[g->base + k] : nullptr;
  }
  V* in_table(uint64_t id) { return const_cast<V*>(std::as_const(*this).in_table(id)); }

  IdMap<Generations> slots_;  // by slot: id >> kGenerationBits
  HugeVector<V> values_;
  IdMap<V> hashed_;
};

template <class V, V kEmpty>
template <class Each>
void EventIdMap<V, kEmpty>::plan(Each&& each, size_t ids) {
  constexpr size_t kFewIds = 4096;  // hashed as fast, and in no more room
  size_t held = 0;
  if (ids >= kFewIds) {
    struct Span {
      uint64_t slot;
      uint32_t lo, hi, count;
    };
    std::vector<Span> spans;
    IdMap<uint32_t> span_of;  // slot -> index in spans
    const size_t most = std::max(kFewIds, ids / 4);
    bool scattered = false;
    each([&](uint64_t id) {
      if (scattered) return;
      const auto g = static_cast<uint32_t>(id & kGenerationMask);
      const uint64_t slot = id >> kGenerationBits;
      const auto [at, added] = span_of.try_emplace(slot, static_cast<uint32_t>(spans.size()));
      if (added) {
        scattered = spans.size() == most;
        spans.push_back(Span{slot, g, g, 0});
      }
      Span& s = spans[*at];
      s.lo = std::min(s.lo, g);
      s.hi = std::max(s.hi, g);
      ++s.count;
    });
    if (!scattered) {
      uint64_t entries = 0;
      slots_.reserve(spans.size());
      for (const Span& s : spans) {
        const uint64_t span = uint64_t{s.hi} - s.lo + 1;
        if (span > 8 * uint64_t{s.count} + 32) continue;
        slots_.try_emplace(s.slot, Generations{s.lo, static_cast<uint32_t>(span), entries});
        entries += span;
        held += s.count;
      }
      values_.assign(entries, kEmpty);
    }
  }
  // Sized once: growing would rehash every id added so far at each doubling.
  hashed_.reserve(ids - std::min(held, ids));
}

}  // namespace legato::legion
