// Signals that end the process: the flusher finishes the file, then the
// signal proceeds with the disposition the program had before. Crash signals
// (a fault in the program) are always caught and passed on; the others only
// where the program left them at their default action, which ends the run.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include "recorder/recorder_impl.hpp"

namespace legato::rec::detail {
namespace {

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP};
// Sent to a run from outside: Ctrl-C, a launcher stopping the other ranks of
// a failed run (SIGTERM), hang-ups, CPU and file-size limits, batch systems'
// warnings before a time limit (SIGUSR1/2), alarms, a closed pipe.
constexpr int kEndSignals[] = {SIGTERM,   SIGINT,  SIGHUP,  SIGQUIT,   SIGXCPU,
                               SIGXFSZ,   SIGUSR1, SIGUSR2, SIGALRM,   SIGPIPE,
                               SIGVTALRM, SIGPROF, SIGPOLL, SIGSTKFLT, SIGPWR};

struct sigaction g_previous[NSIG];
bool g_caught[NSIG];  // whether on_signal is installed for the signal
std::atomic<bool> g_installed{false};
// The process that installed the handlers. A fork of it inherits them, and
// a signal can reach the fork before its fork handlers have run (while it
// still sees the parent's recorder): it must end the fork as it would have
// without the recorder, not wait for a flusher that is the parent's.
std::atomic<pid_t> g_installed_by{0};
std::atomic<int> g_handling{0};
std::atomic<bool> g_ended{false};

// The signals whose default action ends the process, other than crashes:
// kEndSignals and the real-time ones.
template <class F>
void for_each_end_signal(F&& f) {
  for (int sig : kEndSignals) f(sig);
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) f(sig);
}

bool is_crash(int sig) {
  for (int c : kCrashSignals) {
    if (c == sig) return true;
  }
  return false;
}

// The signal goes on under the disposition the program had before.
void pass_on(int sig) {
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);  // delivered when this handler returns
}

void wait_until_finished(const RecorderImpl& r) {
  pollfd pfd{r.done_fd, POLLIN, 0};
  ::poll(&pfd, 1, 10'000);
}

// Async-signal-safe: atomics, write and poll only. Every handled signal is
// blocked while it runs.
//
// A crash stops its thread here until the flusher has finished the file. A
// signal from outside only hands over: the handler returns at once, the
// interrupted thread goes on (it may hold a lock the flusher needs), and the
// flusher finishes the file and then ends the process with that signal
// (end_with_signal). Signals that arrive meanwhile add nothing: the file is
// finished once.
void on_signal(int sig, siginfo_t*, void*) {
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr || ::getpid() != g_installed_by.load() ||
      static_cast<int>(::gettid()) == r->flusher_tid.load())
    return pass_on(sig);
  const bool crash = is_crash(sig);
  if (g_handling.exchange(1) == 0) {
    r->crash_tick = now().count;
    r->crash_signal = sig;
    r->wake_flusher();
    // A flusher that already stopped (the run was finishing) will not see it.
    if (!crash && !r->flusher_done.load()) return;
  } else if (!crash) {
    return;
  }
  wait_until_finished(*r);
  pass_on(sig);
}

}  // namespace

void end_with_signal(int sig) {
  if (g_ended.exchange(true)) return;
  sigaction(sig, &g_previous[sig], nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
}

bool is_crash_signal(int sig) {
  return is_crash(sig);
}

BlockedSignals::BlockedSignals() {
  sigset_t set;
  sigemptyset(&set);
  for_each_end_signal([&](int sig) { sigaddset(&set, sig); });
  pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

BlockedSignals::~BlockedSignals() {
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void install_crash_handlers() {
  if (g_installed.exchange(true)) return;
  g_installed_by = ::getpid();
  g_handling = 0;
  g_ended = false;
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;  // the program goes on meanwhile: no EINTR
  sigemptyset(&sa.sa_mask);
  for (int sig : kCrashSignals) sigaddset(&sa.sa_mask, sig);
  for_each_end_signal([&](int sig) { sigaddset(&sa.sa_mask, sig); });
  for (int sig : kCrashSignals) g_caught[sig] = sigaction(sig, &sa, &g_previous[sig]) == 0;
  for_each_end_signal([&](int sig) {
    g_caught[sig] = false;
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) != 0 || (now.sa_flags & SA_SIGINFO) != 0 ||
        now.sa_handler != SIG_DFL)
      return;  // the program handles or ignores it: its choice stands
    g_caught[sig] = sigaction(sig, &sa, &g_previous[sig]) == 0;
  });
}

void remove_crash_handlers() {
  if (!g_installed.exchange(false)) return;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (g_caught[sig]) sigaction(sig, &g_previous[sig], nullptr);
    g_caught[sig] = false;
  }
}

}  // namespace legato::rec::detail
