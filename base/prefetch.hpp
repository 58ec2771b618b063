// Prefetching ahead in loops of lookups spread over big tables: each
// lookup's cache lines start loading a few iterations before the lookup,
// so that the misses of several iterations overlap instead of following
// one another.
#pragma once

#include <cstddef>

namespace legato::base {

// Iterations between a prefetch and the lookup it serves: enough for a
// miss (about 100 ns) to overlap the work of the iterations in between,
// few enough that the line is still in the cache when it is read.
inline constexpr size_t kPrefetchAhead = 8;

// Starts loading the cache line holding `p`. Always inlined: GCC takes a
// call whose only effect is a prefetch for one with no effect and drops it
// (so must every function that only prefetches, and the lambdas given to
// for_each_prefetched are called from an inlined body for that reason).
[[gnu::always_inline]] inline void prefetch(const void* p) {
  __builtin_prefetch(p);
}

// For k in [0, n): ahead(k + kPrefetchAhead) where that is below n (it
// prefetches what iteration k + kPrefetchAhead will look up), then each(k).
template <class Ahead, class Each>
[[gnu::always_inline]] inline void for_each_prefetched(size_t n, Ahead&& ahead, Each&& each) {
  for (size_t k = 0; k < n; ++k) {
    if (k + kPrefetchAhead < n) ahead(k + kPrefetchAhead);
    each(k);
  }
}

}  // namespace legato::base
