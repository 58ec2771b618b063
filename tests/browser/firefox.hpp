// Headless Firefox driven over Marionette, its remote protocol: a TCP
// connection to 127.0.0.1 carrying messages "LENGTH:JSON" (LENGTH in bytes),
// commands [0, id, name, params] and replies [1, id, error, result]. The
// profile is a fresh temporary directory whose user.js sets marionette.port
// to 0, so the system picks a free port (Firefox writes it into the profile's
// MarionetteActivePort) and tests running at once do not clash. Enough to
// open a page, run script in it, send mouse and key events and take
// screenshots, as the Chromium driver (chromium.hpp).
#pragma once

#include <sys/types.h>

#include <string>

#include <nlohmann/json.hpp>

namespace legato::testing {

class Firefox {
 public:
  // Starts firefox (the FIREFOX environment variable or "firefox-esr") with a
  // viewport of width x height. available() says whether it started.
  Firefox(int width = 1400, int height = 900);
  ~Firefox();
  Firefox(const Firefox&) = delete;
  Firefox& operator=(const Firefox&) = delete;
  bool available() const { return pid_ > 0; }

  // Opens the file at path (a file:// URL of its absolute path) in a fresh
  // document and waits until the load event.
  void open_file(const std::string& path);
  // Evaluates script (an expression, or statements whose value is the last
  // one's), awaiting a promise, and returns its value. It runs in Marionette's
  // sandbox, which sees the page's globals but is a global of its own: what
  // it declares with var or function is gone by the next call (assign to
  // window to keep it), and objects it makes are not the page's (to page
  // code, an array made here is not instanceof Array).
  nlohmann::json eval(const std::string& expression);
  // Polls expression until it is true or timeout_ms passes; returns whether it became true.
  bool wait_for(const std::string& expression, int timeout_ms = 10000);
  void click(double x, double y);
  void mouse_move(double x, double y);
  // A key by its DOM name: one character, or Enter, Escape, Backspace,
  // Tab, Delete, Home, End, PageUp, PageDown, Arrow{Left,Right,Up,Down}.
  void key(const std::string& key);
  // Writes a PNG of the viewport.
  void screenshot(const std::string& path);

 private:
  nlohmann::json call(const std::string& command, nlohmann::json params = nlohmann::json::object(),
                      int timeout_ms = 40000);
  void send(const nlohmann::json& message);
  nlohmann::json receive(int timeout_ms);
  void connect_and_start(int width, int height);
  void perform(nlohmann::json source);
  void stop();

  pid_t pid_ = -1;
  int socket_ = -1;
  bool session_ = false;
  std::string buffer_;
  std::string profile_dir_;
  int next_id_ = 1;
};

}  // namespace legato::testing
