// Crashing and terminating signals: the flusher finishes the file, then the signal proceeds
// with whatever disposition the program had before.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include "recorder/recorder_impl.hpp"

namespace legato::rec::detail {
namespace {

// SIGTERM and SIGINT too: a launcher stops the other ranks of a failed run with SIGTERM.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
struct sigaction g_previous[NSIG];
std::atomic<bool> g_installed{false};
std::atomic<int> g_handling{0};

// Async-signal-safe: atomics, write and poll only.
void on_crash(int sig, siginfo_t*, void*) {
  RecorderImpl* r = g_recorder.load();
  if (r != nullptr && static_cast<int>(::gettid()) != r->flusher_tid.load()) {
    if (g_handling.exchange(1) == 0) {
      r->crash_flush(sig, now());
    } else {
      pollfd pfd{r->done_fd, POLLIN, 0};  // another thread is already finishing the file
      ::poll(&pfd, 1, 10'000);
    }
  }
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);  // delivered when this handler returns, under the previous disposition
}

}  // namespace

void install_crash_handlers() {
  if (g_installed.exchange(true)) return;
  g_handling = 0;
  struct sigaction sa {};
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (int sig : kSignals) sigaction(sig, &sa, &g_previous[sig]);
}

void remove_crash_handlers() {
  if (!g_installed.exchange(false)) return;
  for (int sig : kSignals) sigaction(sig, &g_previous[sig], nullptr);
}

}  // namespace legato::rec::detail
