#include "runtime/ranks/join.hpp"

#include <string>

#include "runtime/ranks/comm.hpp"
#include "trace_format/metadata.hpp"

namespace legato::rt {
namespace {

// This rank's clock to rank 0's, measured at start.
comm::ClockOffset& clock_offset() {
  static comm::ClockOffset offset;
  return offset;
}

}  // namespace

void join_ranks(rec::RecorderOptions& o) {
  if (!comm::active()) return;
  o.run_id = comm::broadcast(comm::rank() == 0 ? trace::new_run_id() : std::string());
  const comm::ClockOffset offset = comm::measure_clock_offset();
  const int64_t zero = comm::broadcast(comm::monotonic_ns());  // rank 0's clock
  o.zero_monotonic_ns = zero - offset.offset_ns;
  clock_offset() = offset;
}

void record_clock_alignment() {
  if (!comm::active() || !rec::active()) return;
  rec::set_metadata("clock_alignment", {{"reference_rank", 0},
                                        {"offset_ns", clock_offset().offset_ns},
                                        {"uncertainty_ns", clock_offset().uncertainty_ns},
                                        {"method", "tightest of 64 MPI round trips to rank 0"}});
}

void record_clock_drift() {
  if (!comm::active()) return;
  const comm::ClockOffset end = comm::measure_clock_offset();
  if (rec::active()) {
    rec::set_metadata("clock_alignment_at_finish",
                      {{"offset_ns", end.offset_ns}, {"uncertainty_ns", end.uncertainty_ns}});
  }
}

}  // namespace legato::rt
