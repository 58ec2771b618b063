// How long an item spent ready to resume and blocked over any window, in
// two binary searches: for a task that waits thousands of times, drawn a
// pixel at a time where its waits outnumber the pixels (the state it spent
// most of each pixel in), or summed over buckets.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/timeline.hpp"

namespace legato::analysis {

class StateSums {
 public:
  StateSums() = default;
  // From the item's waits as states() cuts them.
  StateSums(const Profile& p, uint32_t item);
  // Time spent in `state` within [a, b): running is the rest of the item's
  // span there.
  Time time_in(State state, Time a, Time b) const;
  size_t waits() const { return start_.size(); }

 private:
  Time before(State state, Time t) const;
  // Per wait: where it blocked, became ready and resumed (clipped to the
  // item and in order, as states() makes them), and the blocked and ready
  // time of the waits before it.
  std::vector<Time> start_, ready_, end_, blocked_before_, ready_before_;
};

// The state item i spent most of each of n pixels [t0 + k w, t0 + (k + 1) w)
// in (ties: blocked, then ready, then running), as runs: (first pixel, state)
// each up to the next run's first pixel or n; pixels outside the item hold none.
struct PixelRun {
  int first = 0;
  State state = State::Running;
  bool empty = false;  // outside the item
};
void pixel_states(const Profile& p, uint32_t item, const StateSums& sums, double t0, double w,
                  int n, std::vector<PixelRun>& out);

}  // namespace legato::analysis
