// Runs a command line through the shell and captures its exit status, stdout
// and stderr, for tests that drive the tools as a user would.
#pragma once

#include <sys/wait.h>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "trace_format/trace_test_util.hpp"

namespace legato::testing {

struct CommandResult {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline CommandResult run_command(const std::string& cmd) {
  trace::testing::TempDir dir;
  const std::string out = dir.file("out"), err = dir.file("err");
  const int raw = std::system(("(" + cmd + ") >" + out + " 2>" + err + " </dev/null").c_str());
  CommandResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// "path:N" for the first line of a source file (relative to the source tree)
// that contains `text`, as the runtime names call sites.
inline std::string line_of(const std::string& relative_path, const std::string& text) {
  const std::string path = std::string(LEGATO_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(text) != std::string::npos) return path + ":" + std::to_string(n);
  }
  return "(no line of " + path + " contains '" + text + "')";
}

// A binary of this build.
inline std::string bin(const std::string& name) {
  return std::string(LEGATO_BIN_DIR) + "/" + name;
}

}  // namespace legato::testing
