// Starting and stopping the runtime: LEGATE_CONFIG, MPI and the ranks, the
// recorder, the runtime itself, and at the end the report.
#include "runtime/core/lifecycle.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "recorder/recorder.hpp"
#include "runtime/core/api_support.hpp"
#include "runtime/core/profile_report.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/legato.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/join.hpp"

namespace legato::rt {

RuntimeImpl* g_runtime = nullptr;

namespace {

std::mutex g_lifecycle;
Config g_last_config;
uint64_t g_epoch = 0;
// The process that started the runtime, and in a process forked from it
// while it ran (fork(), Python's os.fork(), multiprocessing's "fork"
// start method) that process: the child has a copy of the runtime's memory
// but none of its threads, so the runtime stays the parent's. The child
// leaves it alone: its operations throw (no_runtime), and finish() at its
// exit neither waits for threads it does not have nor writes the parent's
// trace or report.
pid_t g_owner_pid = 0;
std::atomic<pid_t> g_forked_from{0};

void after_fork_in_child() {
  if (g_runtime == nullptr) return;
  g_forked_from.store(g_owner_pid);
  g_runtime = nullptr;  // the parent's: never used, never freed here
}

// The rank the launcher gave this process (before MPI starts), 0 without one.
int launch_rank() {
  return comm::detect_launch().rank;
}

// A mistake in the configuration is the same on every rank: rank 0 says it.
// Problems of one rank (its MPI, its trace file) are said by that rank.
[[noreturn]] void config_error(const std::string& what, bool every_rank_alike = true) {
  const comm::Launch l = comm::detect_launch();
  if (!every_rank_alike || l.rank == 0) {
    const std::string who =
        l.size > 1 && !every_rank_alike
            ? "rank " + std::to_string(l.rank) + " of " + std::to_string(l.size) + ": "
            : "";
    std::fprintf(stderr,
                 "LEGATE ERROR: %s%s\nRun with LEGATE_CONFIG=\"--help\" to list every option and "
                 "its default.\n",
                 who.c_str(), what.c_str());
  }
  std::exit(1);
}

// Every rank's trace file.
std::vector<std::string> trace_paths(const Config& c) {
  std::vector<std::string> out;
  for (int r = 0; r < comm::size(); ++r) {
    rec::RecorderOptions o;
    o.logdir = c.logdir;
    o.name = c.profile_name;
    o.rank = static_cast<uint32_t>(r);
    out.push_back(o.trace_path());
  }
  return out;
}

std::string report_dir(const Config& c) {
  return c.logdir + "/legate_prof";
}

// Starts this rank's recorder. A full disk, or a trace path that holds no
// regular file (a FIFO, which would block the run, a device, a directory),
// turns profiling off for the run (the program runs to its end
// unrecorded); false then.
bool start_recording(const rec::RecorderOptions& options) {
  try {
    rec::start(options);
    return true;
  } catch (const rec::RecorderError& e) {
    switch (e.cause()) {
      case rec::RecorderError::Cause::NoSpace:
        std::fprintf(stderr,
                     "legate: warning: profiling is off for this run: %s. The program runs to its "
                     "end unrecorded; a trace an earlier run left there is untouched.\n",
                     e.what());
        return false;
      case rec::RecorderError::Cause::NotAFile:
        std::fprintf(stderr,
                     "legate: warning: profiling is off for this run: %s. The program runs to its "
                     "end unrecorded; what is at that path is left as it is.\n",
                     e.what());
        return false;
      case rec::RecorderError::Cause::Busy:
        config_error(std::string(e.what()) + " (--logdir DIR or --profile-name NAME)", false);
      case rec::RecorderError::Cause::Setup:
        break;
    }
    config_error(e.what(), false);
  }
}

// The run's shape as configured against the ranks the launcher started
// (flags left unset take the launcher's count).
void check_ranks(const Config& c) {
  const bool shaped = c.was_given(Option::RanksPerNode) || c.was_given(Option::Nodes);
  if (c.ranks() == comm::size() || (comm::active() && !shaped)) return;
  const std::string asked = "--ranks-per-node " + std::to_string(c.ranks_per_node) + " --nodes " +
                            std::to_string(c.nodes) + " ask for " + std::to_string(c.ranks());
  if (!comm::active()) {
    config_error(asked +
                 " ranks but this process was not started by a launcher; run it with legate "
                 "--launcher mpirun (or srun), or under mpirun -n " +
                 std::to_string(c.ranks()));
  }
  config_error(asked + " rank(s) but the launcher started " + std::to_string(comm::size()) +
               "; start " + std::to_string(c.ranks()) + " (e.g. mpirun -n " +
               std::to_string(c.ranks()) + ") or change the flags");
}

}  // namespace

rec::RecorderOptions recorder_options(const Config& c, int rank) {
  rec::RecorderOptions o;
  o.logdir = c.logdir;
  o.name = c.profile_name;
  o.config = c.to_json();
  o.rank = static_cast<uint32_t>(rank);
  o.ranks = static_cast<uint32_t>(comm::size());
  // Rank 0 names the report command after a signal ends the run.
  if (rank == 0 && c.profile_report)
    o.report_command = report_command(trace_paths(c), report_dir(c));
  return o;
}

// The report of the finished traces of every rank, when the configuration
// asks for one; rank 0 writes it once every rank has finished its file.
void write_run_report(const Config& c) {
  if (!c.profile || !c.profile_report || comm::rank() != 0) return;
  write_profile_report(trace_paths(c), report_dir(c));
}

// --- public lifecycle ---

void no_runtime(const char* what) {
  if (const pid_t parent = g_forked_from.load(); parent != 0) {
    throw std::logic_error(
        std::string(what) + ": the Legato runtime belongs to process " + std::to_string(parent) +
        ", and this process (" + std::to_string(::getpid()) +
        ") is a fork of it (fork(), os.fork(), or multiprocessing's \"fork\" start method). A "
        "fork gets a copy of the runtime's memory but none of its threads, so it cannot run "
        "array operations or read arrays: use them in the parent process, or start workers "
        "with multiprocessing's \"spawn\" start method (each then starts a runtime of its own)");
  }
  throw std::logic_error(std::string(what) +
                         ": the Legato runtime is not running; call legato::rt::start() first");
}

bool runtime_left_in_parent() {
  return g_forked_from.load() != 0;
}

void start() {
  if (runtime_left_in_parent()) no_runtime("start");
  std::lock_guard life(g_lifecycle);
  if (g_runtime != nullptr) return;
  Config c;
  try {
    const char* env = std::getenv("LEGATE_CONFIG");
    c = parse_config(split_config(env ? env : ""), detect_machine());
  } catch (const ConfigError& e) {
    config_error(e.what());
  }
  if (c.help) {
    if (launch_rank() == 0) std::fputs(config_help().c_str(), stdout);
    std::exit(0);
  }
  if (launch_rank() == 0) {
    for (const std::string& w : c.warnings)
      std::fprintf(stderr, "legate: warning: %s\n", w.c_str());
  }
  if (c.show_config && launch_rank() == 0) {
    std::fputs(c.summary().c_str(), stdout);
    std::fflush(stdout);
  }
  try {
    comm::init();
  } catch (const std::runtime_error& e) {
    config_error(std::string("cannot start MPI for the run's ranks: ") + e.what(), false);
  }
  check_ranks(c);
  rec::RecorderOptions options = recorder_options(c, comm::rank());
  join_ranks(options);  // collective: every rank, profiling or not
  if (c.profile) c.profile = start_recording(options);
  if (c.profile) record_clock_alignment();
  try {
    g_runtime = new RuntimeImpl(c);
  } catch (const std::runtime_error& e) {
    rec::finish();
    config_error(e.what(), false);
  }
  g_last_config = c;
  ++g_epoch;
  g_owner_pid = ::getpid();
  static const bool at_exit = [] {
    std::atexit([] { finish(); });
    pthread_atfork(nullptr, nullptr, after_fork_in_child);
    return true;
  }();
  (void)at_exit;
}

void finish() {
  // A fork has nothing to finish (and the lock may have been held by one of
  // the parent's threads when it forked).
  if (runtime_left_in_parent()) return;
  std::lock_guard life(g_lifecycle);
  if (g_runtime == nullptr) return;
  g_runtime->shutdown();
  record_clock_drift();
  rec::finish();  // its finish hook still sees the runtime
  const Config c = g_runtime->config();
  delete g_runtime;
  g_runtime = nullptr;
  comm::barrier();  // every rank's file is finished
  write_run_report(c);
  comm::finalize();
}

bool running() {
  return g_runtime != nullptr;
}

uint64_t epoch() {
  std::lock_guard lock(g_lifecycle);
  return g_epoch;
}

const Config& config() {
  return g_runtime != nullptr ? g_runtime->config() : g_last_config;
}

}  // namespace legato::rt
