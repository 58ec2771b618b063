// Putting GPU timestamps on the recorder's clock. CUPTI stamps device work
// with its own nanosecond clock; pairs of readings taken back to back (a
// recorder tick before and after each GPU clock reading) give a straight
// line from one clock to the other. The fit's error (the largest distance of
// a sample from the line, plus half the widest reading window) is recorded
// with the trace so a user knows how far device times can be trusted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace legato::rt::gpu {

struct ClockSample {
  uint64_t gpu_ns = 0;       // the GPU clock's reading
  uint64_t tick_before = 0;  // recorder ticks just before and after it
  uint64_t tick_after = 0;
};

// tick = tick_at_origin + ticks_per_ns * (gpu_ns - gpu_origin): kept
// relative to a sample, since GPU clocks count from the epoch and doubles
// would lose the low nanoseconds of such values.
struct ClockFit {
  uint64_t gpu_origin = 0;
  double tick_at_origin = 0.0;
  double ticks_per_ns = 1.0;
  double max_error_ticks = 0.0;
  size_t samples = 0;
  uint64_t to_tick(uint64_t gpu_ns) const;
};

// Least squares over the samples' window midpoints. One sample gives an
// offset with a slope of `default_ticks_per_ns`; none gives an empty fit.
ClockFit fit_clock(const std::vector<ClockSample>& samples, double default_ticks_per_ns);

}  // namespace legato::rt::gpu
