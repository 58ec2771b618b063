#include "recorder/recorder_test_util.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace legato::rec::testing {

RecorderOptions options_in(const trace::testing::TempDir& dir) {
  RecorderOptions o;
  o.logdir = dir.path().string();
  o.flush_interval_ms = 20;
  return o;
}

ChildResult run_child(const std::function<void()>& body, int kill_after_ms,
                      const std::function<bool()>& ready) {
  std::fflush(nullptr);  // nothing buffered twice
  const pid_t pid = fork();
  if (pid == 0) {
    // A fresh program: default dispositions (not the test framework's
    // handlers) and no blocked signals.
    for (int sig = 1; sig < NSIG; ++sig) {
      if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    body();
    std::exit(0);
  }
  if (kill_after_ms >= 0) {
    // The test (not the traced program) waits before it kills the child.
    for (int waited_ms = 0; ready && !ready() && waited_ms < 120'000; ++waited_ms) usleep(1000);
    usleep(static_cast<useconds_t>(kill_after_ms) * 1000);
    kill(pid, SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ChildResult r;
  r.exited = WIFEXITED(status);
  r.exit_code = r.exited ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

std::unique_ptr<trace::TraceReader> for_each_frame(
    const std::string& path, const std::function<void(const trace::Frame&)>& f) {
  auto reader = trace::TraceReader::open(path);
  trace::Frame frame;
  while (reader->next(frame)) f(frame);
  return reader;
}

uint64_t busy_work(uint64_t seed) {
  uint64_t x = seed | 1;
  for (int i = 0; i < 64; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

}  // namespace legato::rec::testing
