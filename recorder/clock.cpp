#include "recorder/clock.hpp"

#include <cpuid.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace legato::rec {
namespace {
// Nearest integer, without a call into libm.
int64_t round_to_int(double v) {
  return static_cast<int64_t>(v < 0 ? v - 0.5 : v + 0.5);
}
}  // namespace

bool cpu_has_invariant_tsc() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
}

void select_tick_source() {
  static const TickSource chosen =
      cpu_has_invariant_tsc() ? TickSource::Tsc : TickSource::Monotonic;
  detail::g_tick_source = chosen;
}

const char* to_string(TickSource s) {
  return s == TickSource::Tsc ? "tsc" : "monotonic";
}

TickConverter::TickConverter(TickSource source, int64_t reference_offset_ns,
                             int64_t axis_zero_monotonic_ns)
    : source_(source), offset_ns_(reference_offset_ns) {
  calibrate();
  if (axis_zero_monotonic_ns != 0) offset_ns_ += zero_monotonic_ns() - axis_zero_monotonic_ns;
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
    push_point(best);
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
    push_point(joint);
    best.mono_ns = std::max(best.mono_ns, joint.mono_ns + 1);
  }
  ++measured_;
  // The rate over the last stretch, measured over at least 10 ms (a shorter
  // one is mostly the noise of the readings): extrapolations use it.
  const CalibrationPoint& base =
      best.mono_ns - last_real_.mono_ns >= 10'000'000 ? last_real_ : points_.front();
  ns_per_tick_ =
      static_cast<double>(best.mono_ns - base.mono_ns) / static_cast<double>(best.tick - base.tick);
  push_point(best);
  last_real_ = best;
  return error;
}

void TickConverter::push_point(CalibrationPoint p) {
  if (!points_.empty()) {
    CalibrationPoint& prev = points_.back();
    prev.slope =
        static_cast<double>(p.mono_ns - prev.mono_ns) / static_cast<double>(p.tick - prev.tick);
  }
  points_.push_back(p);
}

int64_t TickConverter::mono_at(uint64_t tick) const {
  const size_t n = points_.size();
  const CalibrationPoint& last = points_.back();
  if (n == 1 || tick >= last.tick) {
    return last.mono_ns +
           round_to_int(static_cast<double>(static_cast<int64_t>(tick - last.tick)) * ns_per_tick_);
  }
  // The segment holding tick: most ticks are recent, so look back a few
  // segments before searching them all.
  size_t hi = n - 1;
  const size_t nearby = n > 8 ? n - 8 : 1;
  while (hi > nearby && tick < points_[hi - 1].tick) --hi;
  if (tick < points_[hi - 1].tick) {
    hi = static_cast<size_t>(
        std::upper_bound(points_.begin(), points_.end(), tick,
                         [](uint64_t t, const CalibrationPoint& p) { return t < p.tick; }) -
        points_.begin());
    if (hi == 0) hi = 1;  // before the zero point: the first segment, extended
  }
  const CalibrationPoint& a = points_[hi - 1];
  return a.mono_ns +
         round_to_int(static_cast<double>(static_cast<int64_t>(tick - a.tick)) * a.slope);
}

int64_t TickConverter::to_ns(Tick t) {
  const uint64_t tick = t.count;
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
