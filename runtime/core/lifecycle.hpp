// Starting and stopping the runtime (start() and finish() of legato.hpp):
// what the other parts need of it.
#pragma once

#include "recorder/recorder.hpp"
#include "runtime/config.hpp"

namespace legato::rt {

// The recorder's options for one rank's trace of this run.
rec::RecorderOptions recorder_options(const Config& c, int rank);
// The report of every rank's finished traces, written by rank 0 when the
// configuration asks for one.
void write_run_report(const Config& c);

}  // namespace legato::rt
