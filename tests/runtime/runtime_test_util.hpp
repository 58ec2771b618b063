// Starting the runtime in a test with a given LEGATE_CONFIG.
#pragma once

#include <cstdlib>
#include <string>

#include "runtime/legato.hpp"

namespace legato::rt::testing {

// start() with LEGATE_CONFIG set to config; finish() when it goes out of scope.
// LEGATO_TEST_EXTRA_CONFIG, when set, is added to every test's config (as
// "--gpus 1", to run the array tests on a GPU).
class RuntimeScope {
 public:
  explicit RuntimeScope(const std::string& config) {
    const char* extra = std::getenv("LEGATO_TEST_EXTRA_CONFIG");
    const std::string full = extra != nullptr ? config + " " + extra : config;
    setenv("LEGATE_CONFIG", full.c_str(), 1);
    start();
  }
  ~RuntimeScope() { finish(); }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;
};

}  // namespace legato::rt::testing
