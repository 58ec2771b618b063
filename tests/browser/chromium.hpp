// Headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: commands on fd 3, replies on fd 4, each a JSON
// message ending in a NUL byte). Enough to open a page, run script in it,
// send mouse and key events and take screenshots.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace legato::testing {

class Chromium {
 public:
  // Starts chromium (the CHROMIUM environment variable or "chromium") with a
  // window of width x height. available() says whether it started.
  Chromium(int width = 1400, int height = 900);
  ~Chromium();
  bool available() const { return pid_ > 0; }

  // Opens the file at path (a file:// URL of its absolute path, then
  // #fragment if given) in a fresh page and waits until the load event.
  void open_file(const std::string& path, const std::string& fragment = "");
  // Evaluates a script expression (awaiting promises) and returns its value.
  nlohmann::json eval(const std::string& expression);
  // Polls expression until it is true or timeout_ms passes; returns the last value.
  bool wait_for(const std::string& expression, int timeout_ms = 10000);
  void click(double x, double y);
  void mouse_move(double x, double y);
  void key(const std::string& key);
  // The key with shift held (shift+Enter).
  void key_with_shift(const std::string& key);
  // Presses button ("left", "right") at (x0, y0), moves to (x1, y1) in
  // steps, releases; with shift held when asked.
  void drag(double x0, double y0, double x1, double y1, const std::string& button = "left",
            bool shift = false);
  // Writes a PNG of the page.
  void screenshot(const std::string& path);
  // Messages the page logged to the console and exceptions it threw.
  const std::vector<std::string>& console() const { return console_; }

 private:
  nlohmann::json call(const std::string& method, nlohmann::json params = nlohmann::json::object(),
                      bool in_page = true);
  void send(const nlohmann::json& message);
  nlohmann::json receive(int timeout_ms);
  void note_event(const nlohmann::json& event);

  pid_t pid_ = -1;
  int to_browser_ = -1, from_browser_ = -1;
  std::string buffer_;
  std::string session_;
  std::string profile_dir_;
  int next_id_ = 1;
  int width_, height_;
  std::vector<std::string> console_;
};

}  // namespace legato::testing
