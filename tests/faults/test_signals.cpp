// Every signal whose default action ends the process finishes the trace
// first, exactly once, however many arrive and however fast; a signal the
// program handles or ignores is left to it. Forked children record; the test
// sends the signals.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <map>
#include <random>

#include "recorder/recorder_test_util.hpp"
#include "tools/run_command.hpp"

using namespace legato;
using rec::testing::ChildResult;
using trace::testing::load_file;
using trace::testing::TempDir;

namespace {

// A child that records numbered tasks until a signal ends it. How it
// treats signals before recording starts is up to `setup`.
struct Recording {
  pid_t pid = 0;
  int ready_fd = -1;
};

Recording start_recording_child(const TempDir& dir, const std::function<void()>& setup,
                                uint64_t count = UINT64_MAX) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ready[0]);
    for (int sig = 1; sig < NSIG; ++sig) {
      if (sig != SIGKILL && sig != SIGSTOP) std::signal(sig, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int err = ::open(dir.file("stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(err, 2);
    setup();
    rec::RecorderOptions o = rec::testing::options_in(dir);
    o.report_command = "legate_prof archive " + dir.file("legate_0.prof") + " -o report";
    rec::start(o);
    const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
    uint64_t x = 1;
    for (uint64_t i = 0; i < count; ++i) {
      const auto start = rec::stamp(rec::now());
      x = rec::testing::busy_work(x);
      rec::record(
          trace::TaskRecord{i, x & 0xff, cpu, 1, 1, start, rec::stamp(rec::now()), start, start});
      if (i == 2000) [[maybe_unused]]
        ssize_t n = ::write(ready[1], "r", 1);
    }
    rec::finish();
    std::_Exit(0);
  }
  ::close(ready[1]);
  return {pid, ready[0]};
}

void wait_ready(const Recording& r) {
  char c;
  REQUIRE(::read(r.ready_fd, &c, 1) == 1);
  ::close(r.ready_fd);
}

ChildResult wait_child(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildResult c;
  c.exited = WIFEXITED(status);
  c.exit_code = c.exited ? WEXITSTATUS(status) : -1;
  c.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return c;
}

// Sends the signals one after another, 0.2-0.5 ms apart.
void burst(pid_t pid, const std::vector<int>& signals, std::mt19937& rng) {
  for (int sig : signals) {
    ::kill(pid, sig);
    ::usleep(200 + rng() % 300);
  }
}

// The trace's tasks are 0..n-1 and it is finished; returns its Signal errors.
std::vector<std::string> check_finished(const TempDir& dir) {
  const trace::testing::Loaded l = load_file(dir.file("legate_0.prof"));
  CHECK(l.clean);
  const auto& tasks = l.records.get<trace::TaskRecord>();
  CHECK(tasks.size() > 2000);
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (tasks[i].uid != i) FAIL("task " << i << " is " << tasks[i].uid);
  }
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
  std::vector<std::string> signals;
  for (const auto& e : l.records.get<trace::ErrorRecord>()) {
    if (e.error_kind == trace::ErrorKind::Signal) signals.push_back(strings[e.text]);
  }
  return signals;
}

std::string abbrev(int sig) {
  return std::string("SIG") + sigabbrev_np(sig);
}

}  // namespace

TEST_CASE("each signal that ends a process finishes the trace once, with the report command",
          "[fault][signal]") {
  const int signals[] = {SIGTERM, SIGINT,  SIGHUP,  SIGQUIT,   SIGXCPU, SIGXFSZ, SIGUSR1,
                         SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGPWR,  SIGRTMIN + 3};
  std::mt19937 rng(11);
  for (int sig : signals) {
    INFO("signal " << sig << " (" << sigdescr_np(sig) << ")");
    TempDir dir;
    const Recording r = start_recording_child(dir, [] {});
    wait_ready(r);
    burst(r.pid, std::vector<int>(6, sig), rng);
    const ChildResult child = wait_child(r.pid);
    CHECK(child.signal == sig);
    const std::vector<std::string> recorded = check_finished(dir);
    REQUIRE(recorded.size() == 1);
    CHECK_THAT(recorded[0], Catch::Contains(sig < SIGRTMIN ? abbrev(sig) : "signal"));
    const std::string err = legato::testing::slurp(dir.file("stderr.txt"));
    CHECK_THAT(err, Catch::Contains("stopped by signal " + std::to_string(sig)) &&
                        Catch::Contains("write the profile report with: legate_prof archive " +
                                        dir.file("legate_0.prof")));
  }
}

TEST_CASE("bursts of SIGINT and of mixed signals finish the trace exactly once",
          "[fault][signal]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 12; ++trial) {
    INFO("trial " << trial);
    TempDir dir;
    const Recording r = start_recording_child(dir, [] {});
    wait_ready(r);
    const std::vector<int> signals =
        trial % 2 == 0
            ? std::vector<int>(10, SIGINT)
            : std::vector<int>{SIGINT, SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGTERM, SIGQUIT};
    burst(r.pid, signals, rng);
    const ChildResult child = wait_child(r.pid);
    INFO("the child's stderr: " << legato::testing::slurp(dir.file("stderr.txt")));
    INFO("ended by signal " << child.signal);
    CHECK(child.signal != 0);
    const std::vector<std::string> recorded = check_finished(dir);
    REQUIRE(recorded.size() == 1);
    CHECK_THAT(recorded[0], Catch::Contains(abbrev(child.signal)));
  }
}

namespace {
volatile sig_atomic_t g_usr1 = 0;
}

TEST_CASE("a signal the program handles or ignores is left to it", "[fault][signal]") {
  std::mt19937 rng(3);
  TempDir dir;
  const Recording r = start_recording_child(
      dir,
      [] {
        std::signal(SIGUSR1, [](int) { g_usr1 = 1; });
        std::signal(SIGHUP, SIG_IGN);
      },
      400000);
  wait_ready(r);
  burst(r.pid, {SIGUSR1, SIGHUP, SIGUSR1}, rng);
  const ChildResult child = wait_child(r.pid);
  CHECK(child.exited);
  CHECK(child.exit_code == 0);  // ran to its end
  CHECK(check_finished(dir).empty());
  const trace::testing::Loaded l = load_file(dir.file("legate_0.prof"));
  CHECK(l.records.get<trace::TaskRecord>().size() == 400000);
}
