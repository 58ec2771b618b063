// legate [FLAGS] PROGRAM [ARGS...]: runs PROGRAM with FLAGS passed in
// LEGATE_CONFIG (after any LEGATE_CONFIG already set, so the flags win).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/config.hpp"

namespace {

const char* kUsage =
    "usage: legate [FLAGS] PROGRAM [ARGS...]\n"
    "Runs PROGRAM on the Legato runtime with FLAGS (passed to it in LEGATE_CONFIG).\n\n"
    "Driver flags:\n"
    "  --verbose             print the command before running it\n"
    "  --help                print this help and the runtime flags, then exit\n\n";

// Single-quotes s for a shell (and for LEGATE_CONFIG) when it needs it.
std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int fail(const std::string& what) {
  std::fprintf(stderr, "legate: error: %s\nRun 'legate --help' to list every flag.\n",
               what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace legato::rt;
  std::vector<std::string> flags;
  bool verbose = false, help = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) break;  // the program
    if (arg == "--verbose") {
      verbose = true;
      continue;
    }
    if (arg == "--help") {
      help = true;
      continue;
    }
    bool takes_value = false;
    if (!is_config_flag(arg, &takes_value)) {
      flags.push_back(arg);  // parse_config names it, with a suggestion
      continue;
    }
    if (arg.find('=') == std::string::npos && i + 1 < argc) {
      const std::string next = argv[i + 1];
      const bool bool_value = next == "1" || next == "0" || next == "true" || next == "false" ||
                              next == "yes" || next == "no" || next == "t" || next == "f" ||
                              next == "y" || next == "n";
      if (takes_value || bool_value) {
        flags.push_back(arg + "=" + next);
        ++i;
        continue;
      }
    }
    flags.push_back(arg);
  }
  if (help) {
    std::fputs(kUsage, stdout);
    std::fputs(config_help().c_str(), stdout);
    return 0;
  }
  Config config;
  try {
    config = parse_config(flags, detect_machine(), "the legate command line");
  } catch (const ConfigError& e) {
    return fail(e.what());
  }
  if (i >= argc) {
    if (config.show_config) {
      std::fputs(config.summary().c_str(), stdout);
      return 0;
    }
    return fail("no program to run: legate [FLAGS] PROGRAM [ARGS...]");
  }
  std::string legate_config;
  if (const char* env = std::getenv("LEGATE_CONFIG"); env != nullptr && *env != '\0')
    legate_config = env;
  for (const std::string& f : flags)
    legate_config += (legate_config.empty() ? "" : " ") + shell_quote(f);
  setenv("LEGATE_CONFIG", legate_config.c_str(), 1);
  if (verbose) {
    std::string cmd = "LEGATE_CONFIG=" + shell_quote(legate_config);
    for (int k = i; k < argc; ++k) cmd += " " + shell_quote(argv[k]);
    std::printf("legate: running %s\n", cmd.c_str());
    std::fflush(stdout);
  }
  execvp(argv[i], argv + i);
  const int err = errno;
  std::fprintf(stderr, "legate: error: cannot run '%s': %s\n", argv[i], std::strerror(err));
  return err == ENOENT ? 127 : 126;
}
