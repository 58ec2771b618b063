// A progress line on the terminal for a command that runs long: once
// `delay` has passed it shows the phase a Progress is in on stderr,
// "legate_prof stats: reading 4 files (1.2 GB) 45% (3.1 s)", rewritten in
// place every `every`, and erases it when destroyed (before the command
// prints its answer). Only where someone watches: stderr a terminal and
// standard output not a pipe (a pager or another program reads it), so
// never in a log or a script's capture.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/progress.hpp"
#include "load/load.hpp"

namespace legato::tools {

class ProgressLine {
 public:
  // What the line writes, control characters and all (legate_prof's
  // std::cerr escapes them: terminal_text.hpp).
  using Writer = std::function<void(std::string_view)>;
  // Writes through `out`, lines of at most `width` characters.
  ProgressLine(std::string command, const base::Progress& progress, Writer out, size_t width,
               std::chrono::milliseconds delay = std::chrono::seconds(2),
               std::chrono::milliseconds every = std::chrono::milliseconds(200));
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The line for a state after `seconds`: "legate_prof stats: reading 4
  // files (1.2 GB) 45% (3.1 s)", cut to `width`.
  static std::string text(const std::string& command, const base::Progress::State& s,
                          double seconds, size_t width);

 private:
  void run();
  std::string command_;
  const base::Progress& progress_;
  Writer out_;
  size_t width_;
  std::chrono::milliseconds delay_, every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, shown_ = false;
  std::thread thread_;
};

// Load options that tell `progress` the loading's phases.
inline load::LoadOptions watched(base::Progress& progress) {
  load::LoadOptions o;
  o.progress = &progress;
  return o;
}

// A progress line on stderr for `command` when someone watches (see
// above), else null.
std::unique_ptr<ProgressLine> progress_line(const std::string& command,
                                            const base::Progress& progress);

}  // namespace legato::tools
