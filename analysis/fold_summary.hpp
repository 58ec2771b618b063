// What folded items ran. Zoomed out, a lane's tiny items fold into boxes
// (timeline.hpp); such a box says what it ran by the colours of the names
// and kinds that ran longest in it, column by column, and by how busy they
// kept the lane there. The lead tables (Profile::lead_blocks, lead_groups)
// answer that from a few entries per column, whatever the number of items
// folded into it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/profile.hpp"
#include "analysis/timeline.hpp"

namespace legato::analysis {

// What an item counts as in a mix: its name and its kind (its colour).
inline uint32_t lead_key(const Item& it) {
  return it.name | static_cast<uint32_t>(it.kind) << 26;
}
// What an item weighs in a mix: its duration and 1 ns, so items of no
// duration still count by their number.
inline Time lead_weight(const Item& it) {
  return it.duration() + 1;
}

// Fills the lead tables for items [begin, end) (begin a multiple of
// kLeadGroup, end one or the number of items), which must be sized already.
void fill_lead_tables(Profile& p, size_t begin, size_t end);

struct Share {
  uint32_t item = kNone;  // an item of the name and kind: its label, its colour
  double share = 0;       // of the items' weight (lead_weight)
};
// Units leading() weighs at most.
inline constexpr uint32_t kLeadSamples = 16;

// The names and kinds that ran longest among items [begin, end) of one
// row, longest first, at most `most`. Below 64 items the items are the
// units weighed; up to 2047 the fold blocks wholly inside, from 2048 the
// lead groups wholly inside, each standing for its lead with its whole
// weight. At most kLeadSamples units are weighed, evenly spaced, so the
// cost never depends on the count; up to kLeadSamples items it is exact.
std::vector<Share> leading(const Profile& p, uint32_t begin, uint32_t end, size_t most);

// One column of a folded box: the box's items that start in it.
struct FoldColumn {
  double start = 0, stop = 0;     // the column's time
  uint32_t first = 0, count = 0;  // its items
  Time busy = 0;                  // their total duration
  // An item of the name and kind that ran longest there, found in O(1):
  // of up to four items the heaviest (as leading()); of more, the lead of
  // the fold block (from 2048 items: the lead group) holding the middle
  // item when that lead is one of them, else the middle item.
  uint32_t lead = kNone;
};
// A folded box (DrawBox::item == kNone) cut into columns of `width` ns on
// a grid from `origin` (the window's left edge, so the grid stays with the
// pixels); columns holding none of its items are left out. A column holds
// the items that start in it; in a box of kDenseColumn items or more per
// column on average (folds_by_block) a column ends at a fold block's
// boundary instead, so it may also hold up to kFoldBlock - 1 items that
// start in the next ones, and the search reads one item per block.
inline constexpr double kDenseColumn = 64;
bool folds_by_block(const DrawBox& box, double width);
void fold_columns(const Profile& p, const DrawBox& box, double origin, double width,
                  std::vector<FoldColumn>& out);

}  // namespace legato::analysis
