// What items do around the CUDA calls they make: tag them for CUPTI, wait
// for the stream, end the program when a call fails.
#pragma once

#include <exception>
#include <string>

#include "runtime/core/gpus.hpp"
#include "runtime/gpu/device.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class Operation;

// Runs f between a push and a pop of the item's uid for CUPTI, then waits for the stream.
template <class F>
void on_stream(Gpus& gpus, trace::Uid item, gpu::Stream stream, const std::string& what, F f) {
  gpus.push(item);
  try {
    f();
  } catch (...) {
    gpus.pop();
    throw;
  }
  gpus.pop();
  gpu::synchronize(stream, what);
}

// A CUDA call failed under an item of op: the program cannot go on.
[[noreturn]] void device_failure(const Operation& op, const std::string& what,
                                 const std::exception& e);

}  // namespace legato::rt
