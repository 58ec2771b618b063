// The recorder's clock: a raw tick counter that is cheap to read on the hot
// path (rdtsc where the CPU has an invariant TSC, CLOCK_MONOTONIC otherwise),
// and the calibration that turns ticks into nanoseconds later, in the
// flusher: piecewise-linear between (tick, CLOCK_MONOTONIC) points taken at
// start, on every flush cycle and at finish.
#pragma once

#include <x86intrin.h>

#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace legato::rec {

enum class TickSource { Tsc, Monotonic };

namespace detail {
// Set once when the recorder starts, before any thread records.
inline TickSource g_tick_source = TickSource::Monotonic;

inline int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace detail

// A reading of the recorder's clock: raw ticks (TSC cycles, or
// CLOCK_MONOTONIC nanoseconds where the TSC is not used), not time on the
// run's axis. Records carry ticks in their time fields (rec::stamp) until
// the flusher converts them with TickConverter::to_ns, the one bridge from
// ticks to nanoseconds.
struct Tick {
  uint64_t count = 0;
  friend constexpr auto operator<=>(Tick, Tick) = default;
  // How many ticks from b to a (a duration in ticks, not in ns).
  friend constexpr uint64_t operator-(Tick a, Tick b) { return a.count - b.count; }
};

namespace detail {
// The calling thread's last reading (see now()).
inline thread_local uint64_t tl_last_tick = 0;
}  // namespace detail

// Raw ticks: the only clock read on the hot path. rdtsc does not wait for
// earlier instructions, so two readings in one thread can come out a few
// tens of ns in the wrong order (rdtscp would order them at twice the cost);
// now() never returns less than the thread's previous reading, which keeps
// the intervals of one lane in order.
inline Tick now() {
  uint64_t t;
  if (detail::g_tick_source == TickSource::Tsc) [[likely]] {
    t = __rdtsc();
  } else {
    t = static_cast<uint64_t>(detail::monotonic_ns());
  }
  uint64_t& last = detail::tl_last_tick;
  t = t < last ? last : t;
  last = t;
  return Tick{t};
}

// Whether this CPU's TSC is invariant (constant rate, runs in every C-state).
bool cpu_has_invariant_tsc();
// Makes now() read the TSC when it is invariant (call before threads record).
void select_tick_source();
const char* to_string(TickSource s);

struct CalibrationPoint {
  uint64_t tick;
  int64_t mono_ns;
  double slope = 0;  // ns per tick up to the next point
};

// Converts ticks to nanoseconds on the run's time axis: CLOCK_MONOTONIC minus
// the zero time, plus the offset to the reference clock (rank 0).
class TickConverter {
 public:
  // axis_zero_monotonic_ns: where the axis starts on this CLOCK_MONOTONIC
  // (several ranks: rank 0's start, in this rank's clock); 0: now.
  TickConverter(TickSource source, int64_t reference_offset_ns, int64_t axis_zero_monotonic_ns = 0);

  // Takes a (tick, CLOCK_MONOTONIC) point: the tightest of a few readings.
  // Returns how far the extrapolation from the previous points was off at
  // this point (ns); the largest such error is reported in the metadata.
  int64_t calibrate();

  // Ticks -> ns on the run's axis. Piecewise-linear between points, the
  // recent rate past the last one; a time once converted is never revised
  // by later points (the function stays continuous and increasing). Needs
  // two points for a TSC source: the flusher calibrates before it converts.
  int64_t to_ns(Tick tick);
  int64_t zero_monotonic_ns() const { return points_.front().mono_ns; }
  // The recent rate, for durations measured in ticks.
  double ns_per_tick() const { return ns_per_tick_; }
  // The "clock" metadata object.
  nlohmann::json metadata(int64_t zero_unix_ns) const;

 private:
  TickSource source_;
  int64_t offset_ns_;
  int64_t mono_at(uint64_t tick) const;
  void push_point(CalibrationPoint p);

  std::vector<CalibrationPoint> points_;  // measured points and joints
  CalibrationPoint last_real_{};          // the last measured point
  double ns_per_tick_ = 1.0;              // rate between the last two measured points
  uint64_t max_converted_ = 0;            // the largest tick converted so far
  int64_t max_error_ns_ = 0;
  uint64_t measured_ = 0;
};

}  // namespace legato::rec
