// Starting the runtime in a test with a given LEGATE_CONFIG.
#pragma once

#include <cstdlib>
#include <string>

#include "runtime/legato.hpp"

namespace legato::rt::testing {

// start() with LEGATE_CONFIG set to config; finish() when it goes out of scope.
class RuntimeScope {
 public:
  explicit RuntimeScope(const std::string& config) {
    setenv("LEGATE_CONFIG", config.c_str(), 1);
    start();
  }
  ~RuntimeScope() { finish(); }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;
};

}  // namespace legato::rt::testing
