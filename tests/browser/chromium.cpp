#include "browser/chromium.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "browser/browser_util.hpp"

namespace legato::testing {

Chromium::Chromium(int width, int height) : width_(width), height_(height) {
  const char* env = std::getenv("CHROMIUM");
  const std::string exe = env && *env ? env : "chromium";
  char dir_template[] = "/tmp/legato-chromium-XXXXXX";
  if (!mkdtemp(dir_template)) return;
  profile_dir_ = dir_template;
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0) return;
  pid_ = fork();
  if (pid_ == 0) {
    dup2(to[0], 3);
    dup2(from[1], 4);
    for (int fd : {to[0], to[1], from[0], from[1]}) {
      if (fd > 4) close(fd);
    }
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    const std::string window =
        "--window-size=" + std::to_string(width) + "," + std::to_string(height);
    const std::string data = "--user-data-dir=" + profile_dir_;
    execlp(exe.c_str(), exe.c_str(), "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--remote-debugging-pipe",
           window.c_str(), data.c_str(), "about:blank", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  to_browser_ = to[1];
  from_browser_ = from[0];
  if (pid_ < 0) return;
  try {
    call("Browser.getVersion", nlohmann::json::object(), false);
  } catch (const std::exception&) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

Chromium::~Chromium() {
  if (pid_ > 0) {
    try {
      send({{"id", next_id_++}, {"method", "Browser.close"}});
    } catch (const std::exception&) {
    }
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (to_browser_ >= 0) close(to_browser_);
  if (from_browser_ >= 0) close(from_browser_);
  std::error_code ec;
  if (!profile_dir_.empty()) std::filesystem::remove_all(profile_dir_, ec);
}

void Chromium::send(const nlohmann::json& message) {
  const std::string text = message.dump() + '\0';
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(to_browser_, text.data() + done, text.size() - done);
    if (n <= 0) throw std::runtime_error("chromium closed its pipe");
    done += static_cast<size_t>(n);
  }
}

nlohmann::json Chromium::receive(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto nul = buffer_.find('\0');
    if (nul != std::string::npos) {
      auto message = nlohmann::json::parse(buffer_.substr(0, nul));
      buffer_.erase(0, nul + 1);
      return message;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("chromium did not answer in time");
    pollfd p{from_browser_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    const ssize_t n = read(from_browser_, chunk, sizeof chunk);
    if (n <= 0) throw std::runtime_error("chromium exited");
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

void Chromium::note_event(const nlohmann::json& event) {
  const std::string method = event.value("method", "");
  if (method == "Runtime.consoleAPICalled") {
    std::string line = event["params"].value("type", "log") + ":";
    for (const auto& a : event["params"]["args"]) line += " " + a.value("value", a.dump());
    console_.push_back(line);
  } else if (method == "Runtime.exceptionThrown") {
    console_.push_back("exception: " + event["params"]["exceptionDetails"].dump());
  }
}

nlohmann::json Chromium::call(const std::string& method, nlohmann::json params, bool in_page) {
  const int id = next_id_++;
  nlohmann::json message = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (in_page) message["sessionId"] = session_;
  send(message);
  for (;;) {
    const auto reply = receive(30000);
    if (reply.value("id", 0) != id) {
      note_event(reply);
      continue;
    }
    if (reply.contains("error")) {
      throw std::runtime_error(method + " failed: " + reply["error"].dump());
    }
    return reply.value("result", nlohmann::json::object());
  }
}

void Chromium::open_file(const std::string& path, const std::string& fragment) {
  const auto target = call("Target.createTarget", {{"url", "about:blank"}}, false);
  const auto attached =
      call("Target.attachToTarget", {{"targetId", target["targetId"]}, {"flatten", true}}, false);
  session_ = attached["sessionId"];
  call("Page.enable");
  call("Runtime.enable");
  call("Emulation.setDeviceMetricsOverride",
       {{"width", width_}, {"height", height_}, {"deviceScaleFactor", 1}, {"mobile", false}});
  call("Page.navigate", {{"url", file_url(path) + (fragment.empty() ? "" : "#" + fragment)}});
  wait_for("document.readyState === 'complete'");
}

nlohmann::json Chromium::eval(const std::string& expression) {
  const auto r =
      call("Runtime.evaluate",
           {{"expression", expression}, {"awaitPromise", true}, {"returnByValue", true}});
  if (r.contains("exceptionDetails")) {
    throw std::runtime_error("script failed: " + expression + ": " + r["exceptionDetails"].dump());
  }
  return r["result"].value("value", nlohmann::json());
}

bool Chromium::wait_for(const std::string& expression, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto v = eval("Boolean(" + expression + ")");
    if (v.is_boolean() && v.get<bool>()) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void Chromium::mouse_move(double x, double y) {
  call("Input.dispatchMouseEvent", {{"type", "mouseMoved"}, {"x", x}, {"y", y}});
}

void Chromium::click(double x, double y) {
  mouse_move(x, y);
  for (const char* type : {"mousePressed", "mouseReleased"}) {
    call("Input.dispatchMouseEvent",
         {{"type", type}, {"x", x}, {"y", y}, {"button", "left"}, {"clickCount", 1}});
  }
}

void Chromium::drag(double x0, double y0, double x1, double y1, const std::string& button,
                    bool shift) {
  const int modifiers = shift ? 8 : 0;
  const int buttons = button == "right" ? 2 : 1;
  mouse_move(x0, y0);
  call("Input.dispatchMouseEvent", {{"type", "mousePressed"},
                                    {"x", x0},
                                    {"y", y0},
                                    {"button", button},
                                    {"buttons", buttons},
                                    {"clickCount", 1},
                                    {"modifiers", modifiers}});
  for (int k = 1; k <= 4; ++k) {
    const double x = x0 + (x1 - x0) * k / 4, y = y0 + (y1 - y0) * k / 4;
    call("Input.dispatchMouseEvent", {{"type", "mouseMoved"},
                                      {"x", x},
                                      {"y", y},
                                      {"button", button},
                                      {"buttons", buttons},
                                      {"modifiers", modifiers}});
  }
  call("Input.dispatchMouseEvent", {{"type", "mouseReleased"},
                                    {"x", x1},
                                    {"y", y1},
                                    {"button", button},
                                    {"buttons", 0},
                                    {"clickCount", 1},
                                    {"modifiers", modifiers}});
}

void Chromium::key(const std::string& key) {
  for (const char* type : {"keyDown", "keyUp"}) {
    nlohmann::json params = {{"type", type}, {"key", key}};
    if (key.size() == 1 && std::string(type) == "keyDown") params["text"] = key;
    call("Input.dispatchKeyEvent", params);
  }
}

void Chromium::key_with_shift(const std::string& key) {
  for (const char* type : {"keyDown", "keyUp"})
    call("Input.dispatchKeyEvent", {{"type", type}, {"key", key}, {"modifiers", 8}});
}

void Chromium::screenshot(const std::string& path) {
  const auto r = call("Page.captureScreenshot", {{"format", "png"}});
  std::ofstream(path, std::ios::binary) << decode_base64(r["data"].get<std::string>());
}

}  // namespace legato::testing
