// How benchmarks print their figures: `RESULT <metric> <value> <unit>`, one
// per line, flushed so a long run shows its figures as they come.
#pragma once

#include <cstdio>
#include <string>

namespace legato::bench {

inline void result(const std::string& metric, double value, const char* unit) {
  std::printf("RESULT %s %.4g %s\n", metric.c_str(), value, unit);
  std::fflush(stdout);
}

}  // namespace legato::bench
