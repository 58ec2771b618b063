// Helpers for recorder tests: options writing into a temp dir, running a
// function in a forked child, and streaming over a trace's records.
#pragma once

#include <functional>
#include <string>

#include "recorder/recorder.hpp"
#include "trace_format/trace_test_util.hpp"

namespace legato::rec::testing {

RecorderOptions options_in(const trace::testing::TempDir& dir);

struct ChildResult {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
};
// Runs body in a forked child; it exits 0 when body returns. With
// kill_after_ms >= 0 the parent kills it (SIGKILL) that long after `ready`
// first returns true (polled every millisecond, for at most 120 s; no
// `ready`: after the fork), so that a kill can be placed by what the child
// has done rather than by how fast this machine runs it.
ChildResult run_child(const std::function<void()>& body, int kill_after_ms = -1,
                      const std::function<bool()>& ready = nullptr);

// Calls f(frame) for every frame of the trace; returns the reader (for diagnostics).
std::unique_ptr<trace::TraceReader> for_each_frame(
    const std::string& path, const std::function<void(const trace::Frame&)>& f);

// Real work between records: a few hundred ns of arithmetic.
uint64_t busy_work(uint64_t seed);

}  // namespace legato::rec::testing
