// legate_prof's progress line: what it says for measured and unmeasured
// phases, that a short job shows nothing, that a long one's line is
// rewritten in place and erased at the end; and how files report their
// share of a phase (base::FileProgress).
#include <chrono>
#include <mutex>
#include <thread>

#include <catch2/catch.hpp>

#include "base/progress.hpp"
#include "legate_prof/progress_line.hpp"

using namespace legato;
using namespace std::chrono_literals;

TEST_CASE("the progress line says the phase, how far it is and for how long", "[tools]") {
  base::Progress::State s{"reading 4 files (1.2 GiB)", 450, 1000};
  CHECK(tools::ProgressLine::text("legate_prof stats", s, 3.14, 200) ==
        "legate_prof stats: reading 4 files (1.2 GiB) 45% (3.1 s)");
  s = {"building the model", 0, 0};
  CHECK(tools::ProgressLine::text("legate_prof stats", s, 12.0, 200) ==
        "legate_prof stats: building the model (12.0 s)");
  // Cut to the terminal's width, never wrapped onto a second line.
  CHECK(tools::ProgressLine::text("legate_prof stats", s, 12.0, 20) == "legate_prof stats: b");
}

TEST_CASE("a short job shows no line, a long one rewrites its line and erases it", "[tools]") {
  base::Progress progress;
  progress.phase("reading 1 file (10 B)", 10);
  std::mutex m;
  std::string out;
  const auto write = [&](std::string_view s) {
    const std::lock_guard lock(m);
    out += s;
  };
  { tools::ProgressLine line("legate_prof stats", progress, write, 200, 1h, 10ms); }
  CHECK(out.empty());
  {
    tools::ProgressLine line("legate_prof stats", progress, write, 200, 0ms, 1ms);
    progress.advance(5);
    // Wait for the half-done state to be shown (by what is written, not by time).
    for (int i = 0; i < 100000; ++i) {
      {
        const std::lock_guard lock(m);
        if (out.find(" 50% (") != std::string::npos) break;
      }
      std::this_thread::sleep_for(1ms);
    }
    progress.phase("building the model");
    for (int i = 0; i < 100000; ++i) {
      {
        const std::lock_guard lock(m);
        if (out.find("building the model (") != std::string::npos) break;
      }
      std::this_thread::sleep_for(1ms);
    }
  }
  CHECK(out.rfind("\rlegate_prof stats: reading 1 file (10 B) ", 0) == 0);
  CHECK(out.find("\rlegate_prof stats: reading 1 file (10 B) 50% (") != std::string::npos);
  CHECK(out.find("\rlegate_prof stats: building the model (") != std::string::npos);
  CHECK(out.find('\n') == std::string::npos);  // one line, rewritten in place
  CHECK(out.size() >= 6);
  CHECK(out.substr(out.size() - 4) == "\r\033[K");  // erased at the end
}

TEST_CASE("a file advances its phase by its share, all of it once done", "[base]") {
  base::Progress progress;
  progress.phase("reading 2 files", 300);
  {
    base::FileProgress a(&progress, 100), b(&progress, 200);
    a.at(0.5);
    b.at(0.25);
    CHECK(progress.state().done == 100);
    a.at(0.4);  // never backwards
    b.at(7);    // never past the file
    CHECK(progress.state().done == 250);
  }
  CHECK(progress.state().done == 300);
  CHECK(progress.state().total == 300);
  progress.phase("building the model");
  CHECK(progress.state().done == 0);
  CHECK(progress.state().total == 0);
  base::FileProgress nobody(nullptr, 10);  // nobody watching: nothing to do
  nobody.at(0.5);
}
