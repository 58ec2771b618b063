#include "progress_line.hpp"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace legato::tools {

ProgressLine::ProgressLine(std::string command, const base::Progress& progress, Writer out,
                           size_t width, std::chrono::milliseconds delay,
                           std::chrono::milliseconds every)
    : command_(std::move(command)),
      progress_(progress),
      out_(std::move(out)),
      width_(width),
      delay_(delay),
      every_(every),
      thread_([this] { run(); }) {}

ProgressLine::~ProgressLine() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (shown_) out_("\r\033[K");  // the line erased, the cursor at its start
}

std::string ProgressLine::text(const std::string& command, const base::Progress::State& s,
                               double seconds, size_t width) {
  char tail[64];
  if (s.total > 0) {
    std::snprintf(tail, sizeof tail, " %.0f%% (%.1f s)",
                  100.0 * static_cast<double>(s.done) / static_cast<double>(s.total), seconds);
  } else {
    std::snprintf(tail, sizeof tail, " (%.1f s)", seconds);
  }
  std::string line = command + ": " + s.what + tail;
  if (line.size() > width) line.resize(width);
  return line;
}

void ProgressLine::run() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, delay_, [&] { return stop_; })) return;
  do {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out_("\r" + text(command_, progress_.state(), seconds, width_) + "\033[K");
    shown_ = true;
  } while (!wake_.wait_for(lock, every_, [&] { return stop_; }));
}

std::unique_ptr<ProgressLine> progress_line(const std::string& command,
                                            const base::Progress& progress) {
  struct stat out {};
  const bool piped = fstat(STDOUT_FILENO, &out) == 0 && S_ISFIFO(out.st_mode);
  if (!isatty(STDERR_FILENO) || piped) return nullptr;
  winsize size{};
  const size_t columns =
      ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 ? size.ws_col : 80;
  std::cerr.flush();
  const auto write = [](std::string_view s) {
    while (!s.empty()) {
      const ssize_t n = ::write(STDERR_FILENO, s.data(), s.size());
      if (n <= 0) return;  // a closed terminal: nothing more to show
      s.remove_prefix(static_cast<size_t>(n));
    }
  };
  return std::make_unique<ProgressLine>("legate_prof " + command, progress, write, columns - 1);
}

}  // namespace legato::tools
