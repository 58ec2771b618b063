// Ranks joining one run: they agree on the run id and on one time axis
// (rank 0's clock, through the offset measured over MPI), and record how
// well the clocks agreed at start and at the end.
#pragma once

#include "recorder/recorder.hpp"

namespace legato::rt {

// Collective on runs of several ranks (every rank, profiling or not): sets
// the options' run id and zero time. A run of one rank leaves them alone.
void join_ranks(rec::RecorderOptions& options);
// The offset measured at start, as the trace's clock_alignment metadata.
void record_clock_alignment();
// Measures the offset again (collective) and records it as
// clock_alignment_at_finish: how far the clocks drifted apart.
void record_clock_drift();

}  // namespace legato::rt
