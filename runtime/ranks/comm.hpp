// The ranks of a run: how the launcher started this process, and the few
// collective steps the runtime needs across ranks (agreeing on the run id,
// aligning clocks to rank 0, waiting for every rank), over MPI. A process
// not started by a launcher is a run of one rank and never touches MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace legato::rt::comm {

// What the launcher put in the environment (mpirun, srun, PMI).
struct Launch {
  int rank = 0;
  int size = 1;
  std::string launcher;  // "mpirun", "srun", "pmi", or empty when none
};
Launch detect_launch();

// Starts MPI when the launcher started several ranks; a no-op otherwise.
// Throws std::runtime_error when MPI cannot start.
void init();
bool active();  // MPI started (several ranks)
int rank();
int size();
void barrier();
void finalize();

// Rank 0's value on every rank.
std::string broadcast(const std::string& value);
// Every rank's value, in rank order, on every rank.
std::vector<std::string> all_gather(const std::string& value);
int64_t broadcast(int64_t value);

// The offset of rank 0's CLOCK_MONOTONIC from this rank's (add it to a local
// reading to get rank 0's), from the tightest of `rounds` round trips, and
// half that round trip as the uncertainty. Collective; rank 0 gets {0, 0}.
struct ClockOffset {
  int64_t offset_ns = 0;
  int64_t uncertainty_ns = 0;
};
ClockOffset measure_clock_offset(int rounds = 64);

int64_t monotonic_ns();

}  // namespace legato::rt::comm
