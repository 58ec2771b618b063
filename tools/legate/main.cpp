// legate [FLAGS] PROGRAM [ARGS...]: runs PROGRAM with FLAGS passed in
// LEGATE_CONFIG (after any LEGATE_CONFIG already set, so the flags win),
// through a launcher (mpirun, srun) when the run has several ranks. A
// PROGRAM ending in .py runs under the Python interpreter, one per rank.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "python_program.hpp"
#include "runtime/config.hpp"

namespace {

const char* kUsage =
    "usage: legate [FLAGS] PROGRAM [ARGS...]\n"
    "Runs PROGRAM on the Legato runtime with FLAGS (passed to it in LEGATE_CONFIG).\n"
    "A PROGRAM ending in .py (import legato.numpy as np) runs under Python.\n\n"
    "Driver flags:\n"
    "  --launcher L          start --ranks-per-node x --nodes ranks with L: mpirun, srun, or\n"
    "                        none (default: the ranks are started already, e.g. by\n"
    "                        'mpirun -n 4 legate ...', or there is one)\n"
    "  --cpu-bind B          bind each rank's threads: none, core or socket (to the launcher)\n"
    "  --verbose             print the command before running it\n"
    "  --help                print this help and the runtime flags, then exit\n"
    "  --version             print the version of legate, then exit\n\n";

// Single-quotes s for a shell (and for LEGATE_CONFIG) when it needs it.
std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct LaunchFlags {
  std::string launcher = "none";
  std::string cpu_bind;
};

bool on_path(const std::string& exe) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t at = 0;
  while (at <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string dir = dirs.substr(at, end - at);
    if (!dir.empty() && access((dir + "/" + exe).c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

// The launcher's command line that starts the run's ranks, before the
// program and its arguments (empty for --launcher none).
std::vector<std::string> launch_command(const LaunchFlags& f, const legato::rt::Config& c,
                                        const legato::rt::MachineInfo& machine) {
  using legato::rt::ConfigError;
  if (f.launcher != "none" && f.launcher != "mpirun" && f.launcher != "srun")
    throw ConfigError("--launcher " + f.launcher + ": expected mpirun, srun or none");
  if (!f.cpu_bind.empty() && f.cpu_bind != "none" && f.cpu_bind != "core" && f.cpu_bind != "socket")
    throw ConfigError("--cpu-bind " + f.cpu_bind + ": expected none, core or socket");
  if (f.launcher == "none") {
    if (!f.cpu_bind.empty())
      throw ConfigError("--cpu-bind needs a launcher to pass it to (--launcher mpirun or srun)");
    return {};
  }
  if (!on_path(f.launcher)) {
    throw ConfigError("--launcher " + f.launcher + ": '" + f.launcher +
                      "' is not installed (not found on PATH); install it, pick the other "
                      "launcher, or start the ranks yourself and pass --launcher none");
  }
  const std::string ranks = std::to_string(c.ranks()), per_node = std::to_string(c.ranks_per_node);
  std::vector<std::string> cmd;
  if (f.launcher == "mpirun") {
    cmd = {"mpirun", "-n", ranks, "--npernode", per_node};
    if (geteuid() == 0) cmd.emplace_back("--allow-run-as-root");
    // More ranks than cores on a node: let them share the cores.
    if (c.ranks_per_node > machine.cores) cmd.emplace_back("--oversubscribe");
    if (!f.cpu_bind.empty()) cmd.insert(cmd.end(), {"--bind-to", f.cpu_bind});
    // When a rank fails, mpirun stops the others with SIGTERM and, 1 s later
    // by default, SIGKILL: give them time to finish their traces.
    cmd.insert(cmd.end(), {"--mca", "odls_base_sigkill_timeout", "5", "-x", "LEGATE_CONFIG"});
  } else {
    cmd = {"srun",
           "-n",
           ranks,
           "--ntasks-per-node",
           per_node,
           "--nodes",
           std::to_string(c.nodes),
           "--export=ALL"};
    if (!f.cpu_bind.empty())
      cmd.push_back("--cpu-bind=" + std::string(f.cpu_bind == "core"     ? "cores"
                                                : f.cpu_bind == "socket" ? "sockets"
                                                                         : "none"));
  }
  return cmd;
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
  LaunchFlags launch;
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
    if (arg == "--version") {
      std::printf("legate %s (Legato runtime and driver)\n", LEGATO_VERSION);
      return 0;
    }
    if (arg == "--launcher" || arg == "--cpu-bind" || arg.rfind("--launcher=", 0) == 0 ||
        arg.rfind("--cpu-bind=", 0) == 0) {
      const size_t eq = arg.find('=');
      const std::string name = arg.substr(0, eq);
      if (eq == std::string::npos && i + 1 >= argc) return fail(name + " needs a value");
      const std::string value = eq == std::string::npos ? argv[++i] : arg.substr(eq + 1);
      (name == "--launcher" ? launch.launcher : launch.cpu_bind) = value;
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
  std::vector<std::string> command;
  try {
    command = launch_command(launch, config, detect_machine());
  } catch (const ConfigError& e) {
    return fail(e.what());
  }
  if (legato::driver::is_python_program(argv[i])) {
    try {
      command.insert(command.end(), {legato::driver::prepare_python()});
    } catch (const std::runtime_error& e) {
      return fail(std::string(argv[i]) + ": " + e.what());
    }
    // mpirun passes only the variables it is told to.
    if (!command.empty() && command.front() == "mpirun")
      command.insert(command.end() - 1, {"-x", "PYTHONPATH"});
  }
  for (int k = i; k < argc; ++k) command.emplace_back(argv[k]);
  if (verbose) {
    std::string cmd = "LEGATE_CONFIG=" + shell_quote(legate_config);
    for (const auto& a : command) cmd += " " + shell_quote(a);
    std::printf("legate: running %s\n", cmd.c_str());
    std::fflush(stdout);
  }
  std::vector<char*> args;
  for (auto& a : command) args.push_back(a.data());
  args.push_back(nullptr);
  execvp(args[0], args.data());
  const int err = errno;
  std::fprintf(stderr, "legate: error: cannot run '%s': %s\n", args[0], std::strerror(err));
  return err == ENOENT ? 127 : 126;
}
