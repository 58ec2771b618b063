// What the public API's functions share: the running runtime (or an error
// saying to start it) and the range check of a store argument.
#pragma once

#include <stdexcept>
#include <string>

#include "runtime/core/runtime_impl.hpp"
#include "runtime/legato.hpp"

namespace legato::rt {

// Throws std::logic_error saying why `what` finds no runtime: it was not
// started, or this process is a fork of the one running it (lifecycle.cpp).
[[noreturn]] void no_runtime(const char* what);
// Whether this process is a fork of one that was running the runtime.
bool runtime_left_in_parent();

inline RuntimeImpl& need_runtime(const char* what) {
  if (g_runtime == nullptr) no_runtime(what);
  return *g_runtime;
}

inline void check_range(const Store& s, Range r, const std::string& who) {
  if (!s.valid()) throw std::invalid_argument(who + ": the store is empty (default-constructed)");
  if (r.lo < 0 || r.hi > s.size() || r.lo > r.hi) {
    throw std::out_of_range(who + ": elements [" + std::to_string(r.lo) + ", " +
                            std::to_string(r.hi) + ") are outside store '" + s.name() + "' of " +
                            std::to_string(s.size()) + " elements");
  }
}

}  // namespace legato::rt
