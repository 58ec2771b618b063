#include "recorder/clock.hpp"

#include <cpuid.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace legato::rec {

bool cpu_has_invariant_tsc() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

const char* to_string(TickSource s) {
  return s == TickSource::Tsc ? "tsc" : "monotonic";
}

TickConverter::TickConverter(TickSource source, int64_t reference_offset_ns)
    : source_(source), offset_ns_(reference_offset_ns) {
  calibrate();
}

int64_t TickConverter::calibrate() {
  CalibrationPoint best{};
  uint64_t best_width = UINT64_MAX;
  if (source_ == TickSource::Monotonic) {
    const int64_t ns = detail::monotonic_ns();
    best = {static_cast<uint64_t>(ns), ns};
  } else {
    // The tick nearest the clock_gettime call: midpoint of the tightest pair.
    for (int i = 0; i < 7; ++i) {
      const uint64_t a = __rdtsc();
      const int64_t ns = detail::monotonic_ns();
      const uint64_t b = __rdtsc();
      if (b - a < best_width) {
        best_width = b - a;
        best = {a + (b - a) / 2, ns};
      }
    }
  }
  if (points_.empty()) {
    points_.push_back(best);
    last_real_ = best;
    measured_ = 1;
    return 0;
  }
  const CalibrationPoint& last = points_.back();
  if (best.tick <= last.tick || best.mono_ns <= last.mono_ns) return 0;  // no progress
  int64_t error = 0;
  if (points_.size() >= 2) {
    error = std::llabs(mono_at(best.tick) - best.mono_ns);
    max_error_ns_ = std::max(max_error_ns_, error);
  }
  // Times already converted past the last point stay as they were: the new
  // segment starts where the extrapolation left off.
  if (points_.size() >= 2 && max_converted_ > last.tick && max_converted_ < best.tick) {
    const CalibrationPoint joint{max_converted_, mono_at(max_converted_)};
    points_.push_back(joint);
    best.mono_ns = std::max(best.mono_ns, joint.mono_ns + 1);
  }
  ++measured_;
  ns_per_tick_ = static_cast<double>(best.mono_ns - last_real_.mono_ns) /
                 static_cast<double>(best.tick - last_real_.tick);
  points_.push_back(best);
  last_real_ = best;
  return error;
}

int64_t TickConverter::mono_at(uint64_t tick) const {
  const size_t n = points_.size();
  const CalibrationPoint& last = points_.back();
  if (n == 1 || tick >= last.tick) {
    return last.mono_ns +
           static_cast<int64_t>(std::llround(
               static_cast<double>(static_cast<int64_t>(tick - last.tick)) * ns_per_tick_));
  }
  // Inside the calibrated range: the segment holding tick (most often the last one).
  size_t hi = n - 1;
  if (tick < points_[n - 2].tick) {
    hi = static_cast<size_t>(
        std::upper_bound(points_.begin(), points_.end(), tick,
                         [](uint64_t t, const CalibrationPoint& p) { return t < p.tick; }) -
        points_.begin());
    if (hi == 0) hi = 1;  // before the zero point: the first segment, extended
  }
  const CalibrationPoint& a = points_[hi - 1];
  const CalibrationPoint& b = points_[hi];
  const double slope =
      static_cast<double>(b.mono_ns - a.mono_ns) / static_cast<double>(b.tick - a.tick);
  return a.mono_ns + static_cast<int64_t>(std::llround(
                         static_cast<double>(static_cast<int64_t>(tick - a.tick)) * slope));
}

int64_t TickConverter::to_ns(uint64_t tick) {
  if (tick > max_converted_) max_converted_ = tick;
  return mono_at(tick) - zero_monotonic_ns() + offset_ns_;
}

nlohmann::json TickConverter::metadata(int64_t zero_unix_ns) const {
  const CalibrationPoint& first = points_.front();
  const CalibrationPoint& last = points_.back();
  const double avg = last.tick > first.tick ? static_cast<double>(last.mono_ns - first.mono_ns) /
                                                  static_cast<double>(last.tick - first.tick)
                                            : 1.0;
  return {{"units", "ns"},
          {"source", to_string(source_)},
          {"zero_monotonic_ns", first.mono_ns},
          {"zero_unix_ns", zero_unix_ns},
          {"ns_per_tick", avg},
          {"calibration_points", measured_},
          {"calibration_max_error_ns", max_error_ns_},
          {"offset_to_reference_ns", offset_ns_}};
}

}  // namespace legato::rec
