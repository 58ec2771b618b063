#include "runtime/ranks/comm.hpp"

#include <mpi.h>
#include <time.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace legato::rt::comm {

namespace {

bool g_active = false;
int g_rank = 0, g_size = 1;

// An integer environment variable, or -1.
int env_int(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return *end == '\0' && x >= 0 && x <= INT_MAX ? static_cast<int>(x) : -1;
}

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int n = 0;
  MPI_Error_string(rc, text, &n);
  throw std::runtime_error(std::string(what) + " failed: " + text);
}

}  // namespace

int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

Launch detect_launch() {
  struct Source {
    const char* rank;
    const char* size;
    const char* launcher;
  };
  static constexpr Source kSources[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "mpirun"},
                                        {"PMI_RANK", "PMI_SIZE", "pmi"},
                                        {"PMIX_RANK", "PMIX_SIZE", "pmi"},
                                        {"SLURM_PROCID", "SLURM_NTASKS", "srun"}};
  for (const Source& s : kSources) {
    const int r = env_int(s.rank), n = env_int(s.size);
    if (r >= 0 && n >= 1 && r < n) return Launch{r, n, s.launcher};
  }
  return Launch{};
}

void init() {
  if (g_active) return;
  const Launch l = detect_launch();
  if (l.size <= 1) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &g_size), "MPI_Comm_size");
  g_active = true;
}

bool active() {
  return g_active;
}
int rank() {
  return g_rank;
}
int size() {
  return g_size;
}

void barrier() {
  if (g_active) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

void finalize() {
  if (!g_active) return;
  g_active = false;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

std::string broadcast(const std::string& value) {
  if (!g_active) return value;
  int n = static_cast<int>(value.size());
  check(MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = g_rank == 0 ? value : std::string(static_cast<size_t>(n), '\0');
  check(MPI_Bcast(out.data(), n, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

std::vector<std::string> all_gather(const std::string& value) {
  if (!g_active) return {value};
  const int n = static_cast<int>(value.size());
  std::vector<int> sizes(static_cast<size_t>(g_size)), offsets(static_cast<size_t>(g_size), 0);
  check(MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  for (size_t r = 1; r < sizes.size(); ++r) offsets[r] = offsets[r - 1] + sizes[r - 1];
  std::string all(static_cast<size_t>(offsets.back() + sizes.back()), '\0');
  check(MPI_Allgatherv(value.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(),
                       MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> out;
  for (size_t r = 0; r < sizes.size(); ++r)
    out.push_back(all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(sizes[r])));
  return out;
}

int64_t broadcast(int64_t value) {
  if (!g_active) return value;
  check(MPI_Bcast(&value, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return value;
}

ClockOffset measure_clock_offset(int rounds) {
  ClockOffset best;
  if (!g_active) return best;
  constexpr int kTag = 7301;
  // Rank 0 answers each rank in turn: ping (empty), pong (its clock).
  for (int peer = 1; peer < g_size; ++peer) {
    if (g_rank == 0) {
      for (int i = 0; i < rounds; ++i) {
        char ping = 0;
        check(MPI_Recv(&ping, 1, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        const int64_t now = monotonic_ns();
        check(MPI_Send(&now, 1, MPI_INT64_T, peer, kTag, MPI_COMM_WORLD), "MPI_Send");
      }
    } else if (g_rank == peer) {
      int64_t best_rtt = INT64_MAX;
      for (int i = 0; i < rounds; ++i) {
        const char ping = 0;
        const int64_t sent = monotonic_ns();
        check(MPI_Send(&ping, 1, MPI_CHAR, 0, kTag, MPI_COMM_WORLD), "MPI_Send");
        int64_t remote = 0;
        check(MPI_Recv(&remote, 1, MPI_INT64_T, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
        const int64_t received = monotonic_ns();
        if (received - sent < best_rtt) {
          best_rtt = received - sent;
          // Rank 0 read its clock about halfway through the round trip.
          best.offset_ns = remote - (sent + received) / 2;
          best.uncertainty_ns = (best_rtt + 1) / 2;
        }
      }
    }
  }
  return best;
}

}  // namespace legato::rt::comm
