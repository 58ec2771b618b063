// Wall-clock timing of deferred work for the examples: start() and stop()
// wait for everything issued so far (a fence), so the time covers the work
// and not just issuing it.
#pragma once

#include <chrono>

#include "runtime/legato.hpp"

namespace examples {

class Timer {
 public:
  void start() {
    legato::rt::fence();
    t0_ = std::chrono::steady_clock::now();
  }
  // Milliseconds since start().
  double stop() {
    legato::rt::fence();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace examples
