// The positional counts of the benchmarks that take a few
// (`bench_runtime [TASKS] [REPEATS]`): --help prints the usage and exits 0;
// anything but a whole number from 1 up says which argument and exits 2.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace legato::bench {

class CountArgs {
 public:
  // usage: "bench_runtime [TASKS] [REPEATS]", what: what the counts are.
  CountArgs(int argc, char** argv, const char* usage, const char* what)
      : argc_(argc), argv_(argv), usage_(usage) {
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
        std::printf("usage: %s\n%s\n", usage, what);
        std::exit(0);
      }
    }
  }
  // The i-th argument (from 1), or fallback when it is not given.
  uint64_t get(int i, uint64_t fallback) const {
    if (i >= argc_) return fallback;
    const char* text = argv_[i];
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v == 0 || text[0] == '-') {
      std::fprintf(stderr, "%s: argument %d, '%s', is not a whole number from 1 up\nusage: %s\n",
                   argv_[0], i, text, usage_);
      std::exit(2);
    }
    return v;
  }

 private:
  int argc_;
  char** argv_;
  const char* usage_;
};

}  // namespace legato::bench
