#include "runtime/gpu/clock_fit.hpp"

#include <algorithm>
#include <cmath>

namespace legato::rt::gpu {

uint64_t ClockFit::to_tick(uint64_t gpu_ns) const {
  const double since = gpu_ns >= gpu_origin ? static_cast<double>(gpu_ns - gpu_origin)
                                            : -static_cast<double>(gpu_origin - gpu_ns);
  const double t = tick_at_origin + ticks_per_ns * since;
  return t <= 0 ? 0 : static_cast<uint64_t>(std::llround(t));
}

ClockFit fit_clock(const std::vector<ClockSample>& samples, double default_ticks_per_ns) {
  ClockFit fit;
  fit.ticks_per_ns = default_ticks_per_ns;
  fit.samples = samples.size();
  if (samples.empty()) return fit;
  // x: GPU ns, y: the middle of the tick window, both from the first sample.
  const uint64_t x0 = samples.front().gpu_ns;
  const double y0 = (static_cast<double>(samples.front().tick_before) +
                     static_cast<double>(samples.front().tick_after)) /
                    2;
  const auto x = [&](const ClockSample& s) {
    return s.gpu_ns >= x0 ? static_cast<double>(s.gpu_ns - x0)
                          : -static_cast<double>(x0 - s.gpu_ns);
  };
  const auto y = [&](const ClockSample& s) {
    return (static_cast<double>(s.tick_before) + static_cast<double>(s.tick_after)) / 2 - y0;
  };
  const double n = static_cast<double>(samples.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const ClockSample& s : samples) {
    sx += x(s);
    sy += y(s);
    sxx += x(s) * x(s);
    sxy += x(s) * y(s);
  }
  const double spread = n * sxx - sx * sx;
  const double slope = spread > 0 ? (n * sxy - sx * sy) / spread : default_ticks_per_ns;
  const double intercept = (sy - slope * sx) / n;
  double worst = 0;
  for (const ClockSample& s : samples) {
    const double half_window =
        (static_cast<double>(s.tick_after) - static_cast<double>(s.tick_before)) / 2;
    worst = std::max(worst, std::fabs(y(s) - (intercept + slope * x(s))) + std::fabs(half_window));
  }
  fit.gpu_origin = x0;
  fit.tick_at_origin = y0 + intercept;
  fit.ticks_per_ns = slope;
  fit.max_error_ticks = worst;
  return fit;
}

}  // namespace legato::rt::gpu
