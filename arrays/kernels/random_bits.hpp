// The random numbers of RandTask, one function for its CPU and CUDA variants
// so both give the same bits: a counter-based generator (splitmix64 of seed,
// draw and element index), independent of how the work is split.
#pragma once

#include <cstdint>
#include <type_traits>

#ifdef __CUDACC__
#define LEGATO_HOST_DEVICE __host__ __device__
#else
#define LEGATO_HOST_DEVICE
#endif

namespace legato::rt::kernels {

// The bits element i of draw `stream` with `seed` gets.
LEGATO_HOST_DEVICE inline uint64_t random_bits(uint64_t seed, uint64_t stream, uint64_t i) {
  uint64_t z =
      seed * 0x9e3779b97f4a7c15ULL + stream * 0xbf58476d1ce4e5b9ULL + i * 0x94d049bb133111ebULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The element of type T those bits give: floats uniform in [0, 1) (the
// float64 draw rounded to T, so a float32 draw equals the float64 draw
// converted with astype, kept below 1), bools 0 or 1, integers 31 bits.
template <class T>
LEGATO_HOST_DEVICE inline T random_value(uint64_t bits) {
  if constexpr (std::is_floating_point_v<T>) {
    const T v = static_cast<T>(static_cast<double>(bits >> 11) * 0x1.0p-53);
    // The largest T below 1 (1 - 2^-24 for float, 1 - 2^-53 for double).
    constexpr T below_one = std::is_same_v<T, float> ? T(0x1.fffffep-1) : T(0x1.fffffffffffffp-1);
    return v < T(1) ? v : below_one;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return static_cast<T>(bits >> 63);
  } else {
    return static_cast<T>(bits >> 33);
  }
}

}  // namespace legato::rt::kernels

#undef LEGATO_HOST_DEVICE
