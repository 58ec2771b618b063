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
// sparse for a table and ids of another layout go to a hash table (IdMap).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/id_map.hpp"
#include "base/prefetch.hpp"

namespace legato::base {

// kEmpty: a value never stored, marking the tables' free entries.
template <class V, V kEmpty>
class EventIdMap {
 public:
  // Inserts the (id, value) pairs that each(f) gives to f(id, value), as
  // if one at a time in that order: of an id given twice, the first value
  // stays and repeat(id, first, later) is called. each gives the same pairs
  // in the same order each time it is called (twice); `ids`: about how
  // many. A table for each slot whose generations span at most 8 entries
  // per id (and a little); the other ids are hashed, all of them when they
  // have as many slots as ids (no Realm layout: planning stops at a
  // quarter). Values are never kEmpty.
  template <class Each, class Repeat>
  void build(Each&& each, size_t ids, Repeat&& repeat);
  const V* find(uint64_t id) const {
    if (const V* v = in_table(id)) return *v == kEmpty ? nullptr : v;
    return hashed_.find(id);
  }
  // Starts loading where find(id) will look. Always inlined, or the
  // prefetch is dropped (IdMap::prefetch).
  [[gnu::always_inline]] void prefetch(uint64_t id) const {
    if (const V* v = in_table(id)) return base::prefetch(v);
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
  void insert(uint64_t id, V value, V* at, auto& repeat) {
    if (at && *at == kEmpty) {
      *at = value;
    } else if (at) {
      repeat(id, *at, value);
    } else if (const auto [v, added] = hashed_.try_emplace(id, value); !added) {
      repeat(id, *v, value);
    }
  }
  // Where id's value lies if its slot has a table and the id falls in its
  // span; nullptr otherwise.
  [[gnu::always_inline]] const V* in_table(uint64_t id) const {
    if (values_.empty()) return nullptr;
    const Generations* g = slots_.find(id >> kGenerationBits);
    if (!g) return nullptr;
    const uint64_t k = (id & kGenerationMask) - g->lo;
    return k < g->span ? &values_[g->base + k] : nullptr;
  }

  IdMap<Generations> slots_;  // by slot: id >> kGenerationBits
  HugeVector<V> values_;
  IdMap<V> hashed_;
};

template <class V, V kEmpty>
template <class Each, class Repeat>
void EventIdMap<V, kEmpty>::build(Each&& each, size_t ids, Repeat&& repeat) {
  constexpr size_t kFewIds = 4096;  // hashed as fast, and in no more room
  // The first pass finds each id's slot (its index in spans) once, so that
  // the second finds its table without hashing it again.
  struct Span {
    uint64_t slot;
    uint32_t lo, hi, count;
  };
  std::vector<Span> spans;
  std::vector<uint32_t> span_of_id;
  size_t given = 0;
  bool tabled = ids >= kFewIds;
  if (tabled) {
    IdMap<uint32_t> span_of;  // slot -> index in spans
    const size_t most = std::max(kFewIds, ids / 4);
    span_of_id.reserve(ids);
    each([&](uint64_t id, const V&) {
      ++given;
      if (!tabled) return;
      const auto g = static_cast<uint32_t>(id & kGenerationMask);
      const uint64_t slot = id >> kGenerationBits;
      const auto [at, added] = span_of.try_emplace(slot, static_cast<uint32_t>(spans.size()));
      if (added) {
        tabled = spans.size() < most;
        spans.push_back(Span{slot, g, g, 0});
      }
      Span& s = spans[*at];
      s.lo = std::min(s.lo, g);
      s.hi = std::max(s.hi, g);
      ++s.count;
      span_of_id.push_back(*at);
    });
  }
  std::vector<Generations> table_of_span;  // span 0: hashed
  size_t held = 0;
  if (tabled && !spans.empty()) {
    table_of_span.resize(spans.size());
    uint64_t entries = 0;
    slots_.reserve(spans.size());
    for (size_t k = 0; k < spans.size(); ++k) {
      const Span& s = spans[k];
      const uint64_t span = uint64_t{s.hi} - s.lo + 1;
      if (span > 8 * uint64_t{s.count} + 32) continue;
      table_of_span[k] = Generations{s.lo, static_cast<uint32_t>(span), entries};
      slots_.try_emplace(s.slot, table_of_span[k]);
      entries += span;
      held += s.count;
    }
    values_.assign(entries, kEmpty);
  }
  // Sized once: growing would rehash every id added so far at each doubling.
  const size_t all = tabled ? given : ids;
  hashed_.reserve(all - std::min(held, all));
  // Each id's entry is prefetched, and the id inserted kAhead ids later
  // (a ring of the ids in flight), so that the entries' misses overlap: an
  // insert writes its line, so it waits twice as long as a lookup would.
  constexpr size_t kAhead = 2 * kPrefetchAhead;
  struct Pending {
    uint64_t id;
    V value;
    V* at;
  };
  Pending ring[kAhead];
  size_t k = 0;
  each([&](uint64_t id, V value) {
    V* at = nullptr;
    if (!table_of_span.empty()) {
      const Generations& g = table_of_span[span_of_id[k]];
      if (g.span != 0) at = &values_[g.base + ((id & kGenerationMask) - g.lo)];
    }
    if (at) base::prefetch(at);
    Pending& p = ring[k++ % kAhead];
    if (k > kAhead) insert(p.id, p.value, p.at, repeat);
    p = Pending{id, value, at};
  });
  for (size_t n = k - std::min(k, kAhead); n < k; ++n) {
    const Pending& p = ring[n % kAhead];
    insert(p.id, p.value, p.at, repeat);
  }
}

}  // namespace legato::base
