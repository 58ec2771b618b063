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

// Appends text or a number to a fixed buffer (async-signal-safe).
struct Line {
  char text[1024];
  size_t n = 0;
  Line& operator<<(const char* s) {
    while (*s != '\0' && n < sizeof(text)) text[n++] = *s++;
    return *this;
  }
  Line& operator<<(uint64_t v) {
    char digits[20];
    int k = 0;
    do {
      digits[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (k > 0 && n < sizeof(text)) text[n++] = digits[--k];
    return *this;
  }
};

// Says which rank stopped and that its trace is finished.
void report(const RecorderImpl& r, int sig) {
  Line line;
  line << "legato: rank " << uint64_t{r.options.rank} << " stopped by signal "
       << static_cast<uint64_t>(sig) << " (" << sigdescr_np(sig) << "); its trace "
       << r.path.c_str() << " is finished";
  if (sig == SIGTERM && r.options.ranks > 1)
    line << " (a launcher stops every rank once one has failed: the first failure is above)";
  line << "\n";
  [[maybe_unused]] const ssize_t w = ::write(2, line.text, line.n);
}

// Async-signal-safe: atomics, write and poll only.
void on_crash(int sig, siginfo_t*, void*) {
  RecorderImpl* r = g_recorder.load();
  if (r != nullptr && static_cast<int>(::gettid()) != r->flusher_tid.load()) {
    if (g_handling.exchange(1) == 0) {
      r->crash_flush(sig, now());
      report(*r, sig);
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
