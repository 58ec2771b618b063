// How a recorder is set up. The runtime fills this from LEGATE_CONFIG; any
// other program can fill it directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace legato::rec {

struct RecorderOptions {
  std::string logdir = ".";     // created if missing
  std::string name = "legate";  // the file is <logdir>/<name>_<rank>.prof
  uint32_t rank = 0;
  uint32_t ranks = 1;
  std::string run_id;  // shared by every rank of a run; empty: a fresh one
  // Clock alignment to the reference clock (rank 0), from the multi-rank runtime.
  int64_t reference_offset_ns = 0;
  int64_t reference_uncertainty_ns = 0;
  // Where time 0 is on this process' CLOCK_MONOTONIC (0: when recording
  // starts). Ranks use rank 0's start converted to their clock, so every
  // file of a run shares one time axis.
  int64_t zero_monotonic_ns = 0;

  size_t buffer_bytes = 256 << 10;  // per-thread event buffer
  size_t max_buffers = 256;         // buffers in all; beyond, producers wait (or drop)
  bool drop_when_full = false;      // count and drop events instead of waiting
  int flush_interval_ms = 50;       // the flusher writes at least this often
  int zstd_level = 1;
  // Finish the file before a signal ends the process: crashes (SIGSEGV,
  // SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP) and every signal whose
  // default action ends it (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXCPU,
  // SIGUSR1...) that the program has not given a handler of its own.
  bool crash_handlers = true;
  // Shown after such a signal: the command that writes the run's report.
  std::string report_command;

  nlohmann::json config = nlohmann::json::object();  // stored as the "config" metadata

  // The trace file this configuration writes to.
  std::string trace_path() const;
  // Empty when valid, otherwise what is wrong and what to do, one sentence.
  std::string validate() const;
};

}  // namespace legato::rec
