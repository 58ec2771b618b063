#include "runtime/core/profile_report.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/shell_word.hpp"

extern char** environ;

namespace legato::rt {
namespace {

std::string quoted(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) out += (out.empty() ? "" : " ") + base::shell_word(a);
  return out;
}

std::vector<std::string> archive_command(const std::vector<std::string>& traces,
                                         const std::string& dir) {
  std::vector<std::string> command = {"legate_prof", "archive"};
  command.insert(command.end(), traces.begin(), traces.end());
  command.insert(command.end(), {"-o", dir});
  return command;
}

void warn(const std::string& why, const std::vector<std::string>& command) {
  std::fprintf(stderr,
               "legate: warning: the profile report was not written (%s); write it later with: "
               "%s\n",
               why.c_str(), quoted(command).c_str());
  std::fflush(stderr);
}

}  // namespace

std::string legate_prof_executable() {
  for (const char* candidate : {LEGATO_PROF_BUILD_EXE, LEGATO_PROF_INSTALL_EXE}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return "legate_prof";
}

std::string report_command(const std::vector<std::string>& traces, const std::string& dir) {
  return quoted(archive_command(traces, dir));
}

bool write_profile_report(const std::vector<std::string>& traces, const std::string& dir) {
  std::string exe = legate_prof_executable();
  std::vector<std::string> command = archive_command(traces, dir);
  std::vector<char*> argv = {exe.data()};
  for (size_t i = 1; i < command.size(); ++i) argv.push_back(command[i].data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  const std::string report = dir + "/index.html";
  struct stat before {};
  const bool existed = ::stat(report.c_str(), &before) == 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    warn("cannot run " + exe + ": " + std::strerror(spawned), command);
    return false;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      warn(std::string("lost track of legate_prof: ") + std::strerror(errno), command);
      return false;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  // Status 1 with a new report: written from what loaded, while part of a
  // trace was lost (legate_prof said what above).
  struct stat after {};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && ::stat(report.c_str(), &after) == 0 &&
      (!existed || after.st_ino != before.st_ino || after.st_mtim.tv_sec != before.st_mtim.tv_sec ||
       after.st_mtim.tv_nsec != before.st_mtim.tv_nsec)) {
    return true;
  }
  warn(WIFEXITED(status)
           ? "legate_prof archive failed with exit status " + std::to_string(WEXITSTATUS(status))
           : "legate_prof archive was killed by signal " + std::to_string(WTERMSIG(status)),
       command);
  return false;
}

}  // namespace legato::rt
