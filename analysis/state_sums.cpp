#include "analysis/state_sums.hpp"

#include <algorithm>
#include <cmath>

namespace legato::analysis {

StateSums::StateSums(const Profile& p, uint32_t item) {
  const Item& it = p.items[item];
  const auto [w, wend] = p.waits_of(item);
  const size_t n = static_cast<size_t>(wend - w);
  for (auto* v : {&start_, &ready_, &end_, &blocked_before_, &ready_before_}) v->reserve(n);
  Time at = it.start, blocked = 0, ready = 0;
  const auto clip = [&](Time t) { return std::clamp<Time>(t, it.start, it.stop()); };
  for (const Wait* x = w; x != wend; ++x) {
    // As states(): a wait starts no earlier than the one before ended.
    const Time s = clip(std::max(x->start, at));
    const Time r = clip(std::max(x->ready, s));
    const Time e = clip(std::max(x->end, r));
    start_.push_back(s);
    ready_.push_back(r);
    end_.push_back(e);
    blocked_before_.push_back(blocked);
    ready_before_.push_back(ready);
    blocked += r - s;
    ready += e - r;
    at = std::max(at, e);
  }
}

Time StateSums::before(State state, Time t) const {
  // The last wait starting at or before t.
  const auto k =
      static_cast<size_t>(std::upper_bound(start_.begin(), start_.end(), t) - start_.begin());
  if (k == 0) return 0;
  const size_t w = k - 1;
  if (state == State::Blocked)
    return blocked_before_[w] + std::clamp(t, start_[w], ready_[w]) - start_[w];
  return ready_before_[w] + std::clamp(t, ready_[w], end_[w]) - ready_[w];
}

Time StateSums::time_in(State state, Time a, Time b) const {
  if (b <= a || state == State::Running) return 0;
  return before(state, b) - before(state, a);
}

void pixel_states(const Profile& p, uint32_t item, const StateSums& sums, double t0, double w,
                  int n, std::vector<PixelRun>& out) {
  out.clear();
  const Item& it = p.items[item];
  const auto at = [&](int k) { return static_cast<Time>(std::llround(t0 + k * w)); };
  for (int k = 0; k < n; ++k) {
    const Time a = std::max<Time>(at(k), it.start), b = std::min<Time>(at(k + 1), it.stop());
    PixelRun run{k, State::Running, b <= a};
    if (!run.empty) {
      const Time blocked = sums.time_in(State::Blocked, a, b);
      const Time ready = sums.time_in(State::Ready, a, b);
      const Time running = b - a - blocked - ready;
      run.state = blocked >= ready && blocked >= running ? State::Blocked
                  : ready >= running                     ? State::Ready
                                                         : State::Running;
    }
    if (out.empty() || out.back().empty != run.empty || out.back().state != run.state)
      out.push_back(run);
  }
}

}  // namespace legato::analysis
