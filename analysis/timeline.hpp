// What to draw for a time window: boxes per row with tiny items folded into
// boxes (count and total time; fold_summary.hpp says what they ran), and
// each task's running / ready / blocked segments. Cost follows what is
// visible, not the trace size.
#pragma once

#include <limits>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::analysis {

struct DrawBox {
  Time start = 0, stop = 0;
  uint32_t item = kNone;  // the item, or kNone for a folded group
  uint32_t count = 1;     // items in the box
  Time busy = 0;          // their total duration
  uint32_t row = 0;
  uint32_t first = 0;  // first item index of the box (folded: of the group)
};

struct Window {
  Time t0 = 0, t1 = 0;
  double ns_per_px = 1;  // time one pixel shows
  double min_px = 3;     // items narrower than this fold into boxes
};

// Appends the boxes of one lane visible in the window, row by row.
void visible_boxes(const Profile& p, uint32_t lane, const Window& w, std::vector<DrawBox>& out);

enum class State : uint8_t { Running, Ready, Blocked };
struct Segment {
  Time start = 0, stop = 0;
  State state = State::Running;
};
// An item's span cut into running, ready-to-resume and blocked segments;
// only those that overlap [from, to) (a view: an item running through the
// whole run may wait a million times, and only a few of them show).
std::vector<Segment> states(const Profile& p, uint32_t item,
                            Time from = std::numeric_limits<Time>::min(),
                            Time to = std::numeric_limits<Time>::max());

}  // namespace legato::analysis
