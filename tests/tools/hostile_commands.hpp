// Helpers of the hostile-input tests of legate_prof (test_hostile_inputs.cpp,
// test_hostile_cli.cpp): commands that might block, run under a guard;
// checks that output is valid UTF-8 a terminal cannot be steered by; FIFOs,
// sockets and sessions of the viewer under Xvfb.
#pragma once

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

namespace legato::testing::hostile {

using trace::testing::TempDir;

// A command that might block, stopped after a minute (a guard, never a
// measure: each of these ends in well under a second).
inline std::string guarded(const std::string& cmd) {
  return "timeout -s KILL 60 " + cmd;
}

inline std::string prof(const std::string& args) {
  return guarded(bin("legate_prof") + " " + args);
}

// One shell word, whatever bytes it holds.
inline std::string sh(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80                 ? 1
            : c >= 0xc2 && c <= 0xdf ? 2
            : c >= 0xe0 && c <= 0xef ? 3
            : c >= 0xf0 && c <= 0xf4 ? 4
                                     : 0;
    if (n == 0 || i + static_cast<size_t>(n) > s.size()) return false;
    for (int k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0xc0) != 0x80) return false;
    i += static_cast<size_t>(n);
  }
  return true;
}

// Valid UTF-8 without a character a terminal would take as a command: no
// C0 control but newline and tab, no DEL, no C1 control, no bidi override.
inline bool terminal_safe(const std::string& s) {
  if (!valid_utf8(s)) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0) return false;
    if (s.compare(i, 3, "\xe2\x80\xae") == 0 || s.compare(i, 3, "\xe2\x81\xa6") == 0) return false;
  }
  return true;
}

inline bool parses_as_json(const std::string& text) {
  return nlohmann::json::accept(text);
}

inline bool every_line_parses(const std::string& text) {
  std::istringstream in(text);
  size_t n = 0;
  for (std::string line; std::getline(in, line); ++n)
    if (!nlohmann::json::accept(line)) return false;
  return n > 0;
}

inline void make_fifo(const std::string& path) {
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
}

inline void make_socket(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(path.size() < sizeof addr.sun_path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  ::close(fd);  // the socket file stays
}

// view reading `args` and writing a screenshot into dir, under Xvfb; its
// exit status from the line it prints (xvfb-run's own can be its clean-up's).
inline CommandResult view_screenshot(const std::string& args, const TempDir& dir) {
  CommandResult r = run_command("xvfb-run -a -f " + dir.file("Xauthority") +
                                " -s '-screen 0 1024x768x24' sh -c " +
                                sh(guarded(bin("legate_prof") + " view " + args +
                                           " --size 800x600 --screenshot " + dir.file("view.png")) +
                                   "; echo \"legate_prof exit status $?\""));
  const size_t at = r.out.rfind("legate_prof exit status ");
  r.status = at == std::string::npos ? -1 : std::stoi(r.out.substr(at + 24));
  return r;
}

// `legate_prof view ARGS --script S` under Xvfb, S holding script_text; as
// view_under_xvfb, with the guard inside xvfb-run (so that it stops
// legate_prof, and xvfb-run then its server).
inline CommandResult view_script(const std::string& args, const std::string& script_text,
                                 const TempDir& dir) {
  const std::string script = dir.file("script.txt");
  std::ofstream(script) << script_text;
  return run_command(
      "xvfb-run -a -f " + dir.file("Xauthority") + " -s '-screen 0 1600x1000x24' " +
      guarded(bin("legate_prof") + " view " + args + " --script " + script + " --size 1400x800"));
}

}  // namespace legato::testing::hostile
