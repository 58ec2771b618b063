#include "browser/firefox.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include "browser/browser_util.hpp"

namespace legato::testing {

namespace {

using Clock = std::chrono::steady_clock;

// How long Firefox may take to start and listen, and the limits the session
// sets for a page load and a script (a reply waits a little longer).
constexpr auto kStartLimit = std::chrono::seconds(60);
constexpr int kPageLoadMs = 30000, kScriptMs = 30000;

int ms_left(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(left) : 0;
}

// The port in the profile's MarionetteActivePort, 0 while there is none yet.
int active_port(const std::string& profile_dir) {
  std::ifstream in(profile_dir + "/MarionetteActivePort");
  long port = 0;
  if (!(in >> port) || port <= 0 || port > 65535) return 0;
  return static_cast<int>(port);
}

int connect_local(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// WebDriver's code points for the keys that are not characters.
const std::map<std::string, std::string>& special_keys() {
  static const std::map<std::string, std::string> keys = {
      {"Backspace", "\ue003"}, {"Tab", "\ue004"},        {"Enter", "\ue007"},
      {"Escape", "\ue00c"},    {"PageUp", "\ue00e"},     {"PageDown", "\ue00f"},
      {"End", "\ue010"},       {"Home", "\ue011"},       {"ArrowLeft", "\ue012"},
      {"ArrowUp", "\ue013"},   {"ArrowRight", "\ue014"}, {"ArrowDown", "\ue015"},
      {"Delete", "\ue017"}};
  return keys;
}

// An input source of WebDriver's actions: the mouse doing actions in turn.
nlohmann::json pointer(std::vector<nlohmann::json> actions) {
  return {{"type", "pointer"},
          {"id", "mouse"},
          {"parameters", {{"pointerType", "mouse"}}},
          {"actions", std::move(actions)}};
}

nlohmann::json move_to(double x, double y) {
  return {{"type", "pointerMove"}, {"origin", "viewport"}, {"x", x}, {"y", y}};
}

}  // namespace

Firefox::Firefox(int width, int height) {
  const char* env = std::getenv("FIREFOX");
  const std::string exe = env && *env ? env : "firefox-esr";
  char dir_template[] = "/tmp/legato-firefox-XXXXXX";
  if (!mkdtemp(dir_template)) return;
  profile_dir_ = dir_template;
  {
    std::ofstream prefs(profile_dir_ + "/user.js");
    prefs << "user_pref(\"marionette.port\", 0);\n";
    if (!prefs) return;
  }
  const std::string w = std::to_string(width), h = std::to_string(height);
  pid_ = fork();
  if (pid_ == 0) {
    // A process group of its own, for the content processes to end with it,
    // and an end with the test's process should that die first.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int null = ::open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    execlp(exe.c_str(), exe.c_str(), "--headless", "--marionette", "-no-remote", "-profile",
           profile_dir_.c_str(), "--width", w.c_str(), "--height", h.c_str(), "about:blank",
           static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid_ < 0) return;
  setpgid(pid_, pid_);
  try {
    connect_and_start(width, height);
  } catch (const std::exception&) {
    stop();
  }
}

Firefox::~Firefox() {
  stop();
  std::error_code ec;
  if (!profile_dir_.empty()) std::filesystem::remove_all(profile_dir_, ec);
}

void Firefox::connect_and_start(int width, int height) {
  const auto deadline = Clock::now() + kStartLimit;
  while (socket_ < 0) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      // Exited (no such program, or it failed): its group may still hold children.
      kill(-pid_, SIGKILL);
      pid_ = -1;
      throw std::runtime_error("firefox exited while starting");
    }
    if (const int port = active_port(profile_dir_)) socket_ = connect_local(port);
    if (socket_ >= 0) break;
    if (Clock::now() > deadline) throw std::runtime_error("firefox did not start in time");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto greeting = receive(ms_left(deadline));
  if (greeting.value("applicationType", "") != "gecko") {
    throw std::runtime_error("not a Marionette greeting: " + greeting.dump());
  }
  // Marionette takes the capabilities themselves as the parameters.
  call("WebDriver:NewSession",
       {{"pageLoadStrategy", "normal"},
        {"timeouts", {{"implicit", 0}, {"pageLoad", kPageLoadMs}, {"script", kScriptMs}}}},
       ms_left(deadline));
  session_ = true;
  // --width and --height size the window: widen it by its frame for the
  // viewport to be width x height.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto inner = call("WebDriver:ExecuteScript",
                            {{"script", "return [window.innerWidth, window.innerHeight]"},
                             {"args", nlohmann::json::array()}})["value"];
    const int dw = width - inner[0].get<int>(), dh = height - inner[1].get<int>();
    if (dw == 0 && dh == 0) break;
    const auto rect = call("WebDriver:GetWindowRect");
    call("WebDriver:SetWindowRect",
         {{"width", rect["width"].get<int>() + dw}, {"height", rect["height"].get<int>() + dh}});
  }
}

void Firefox::stop() {
  if (socket_ >= 0) {
    if (session_) {
      try {
        call("WebDriver:DeleteSession", nlohmann::json::object(), 5000);
      } catch (const std::exception&) {
      }
      session_ = false;
    }
    close(socket_);
    socket_ = -1;
  }
  if (pid_ > 0) {
    kill(-pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

void Firefox::send(const nlohmann::json& message) {
  // ASCII only (non-ASCII escaped), so the length in characters is in bytes too.
  const std::string body = message.dump(-1, ' ', true);
  const std::string text = std::to_string(body.size()) + ":" + body;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(socket_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("firefox closed its connection");
    done += static_cast<size_t>(n);
  }
}

nlohmann::json Firefox::receive(int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto colon = buffer_.find(':');
    if (colon != std::string::npos) {
      if (colon == 0 || colon > 12 || buffer_.find_first_not_of("0123456789") != colon) {
        throw std::runtime_error("firefox sent no message length: " + buffer_.substr(0, 40));
      }
      const size_t length = std::stoul(buffer_.substr(0, colon));
      if (buffer_.size() - colon - 1 >= length) {
        auto message = nlohmann::json::parse(buffer_.substr(colon + 1, length));
        buffer_.erase(0, colon + 1 + length);
        return message;
      }
    } else if (buffer_.size() > 12) {
      throw std::runtime_error("firefox sent no message length: " + buffer_.substr(0, 40));
    }
    const int left = ms_left(deadline);
    if (left == 0) throw std::runtime_error("firefox did not answer in time");
    pollfd p{socket_, POLLIN, 0};
    if (poll(&p, 1, left) <= 0) continue;
    char chunk[65536];
    const ssize_t n = recv(socket_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("firefox closed its connection");
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

nlohmann::json Firefox::call(const std::string& command, nlohmann::json params, int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  const int id = next_id_++;
  send(nlohmann::json::array({0, id, command, std::move(params)}));
  for (;;) {
    // Replies to calls that timed out earlier come by, and are passed over.
    const auto reply = receive(ms_left(deadline));
    if (!reply.is_array() || reply.size() != 4 || reply[0] != 1 || reply[1] != id) continue;
    if (!reply[2].is_null()) {
      throw std::runtime_error(command + " failed: " + reply[2].value("error", "") + ": " +
                               reply[2].value("message", reply[2].dump()));
    }
    return reply[3];
  }
}

void Firefox::open_file(const std::string& path) {
  call("WebDriver:Navigate", {{"url", "about:blank"}});
  call("WebDriver:Navigate", {{"url", file_url(path)}});
  wait_for("document.readyState === 'complete'");
}

nlohmann::json Firefox::eval(const std::string& expression) {
  // Indirect eval gives a script's completion value, as DevTools' evaluate;
  // Marionette's scope for scripts is not held to the page's
  // Content-Security-Policy, so eval runs where the page forbids it.
  static const char* const script =
      "const [expression, done] = arguments;"
      "Promise.resolve().then(() => (0, eval)(expression)).then("
      "  (value) => done({value: value === undefined ? null : value}),"
      "  (e) => done({error: String(e) + (e && e.stack ? '\\n' + e.stack : '')}));";
  const auto r = call("WebDriver:ExecuteAsyncScript",
                      {{"script", script}, {"args", nlohmann::json::array({expression})}},
                      kScriptMs + 10000)["value"];
  if (r.contains("error")) {
    throw std::runtime_error("script failed: " + expression + ": " + r["error"].get<std::string>());
  }
  return r.value("value", nlohmann::json());
}

bool Firefox::wait_for(const std::string& expression, int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    const auto v = eval("Boolean(" + expression + ")");
    if (v.is_boolean() && v.get<bool>()) return true;
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void Firefox::perform(nlohmann::json source) {
  call("WebDriver:PerformActions", {{"actions", nlohmann::json::array({std::move(source)})}});
}

void Firefox::mouse_move(double x, double y) {
  perform(pointer({move_to(x, y)}));
}

void Firefox::click(double x, double y) {
  perform(pointer({move_to(x, y),
                   {{"type", "pointerDown"}, {"button", 0}},
                   {{"type", "pointerUp"}, {"button", 0}}}));
}

void Firefox::key(const std::string& key) {
  const auto special = special_keys().find(key);
  const std::string value = special != special_keys().end() ? special->second : key;
  auto actions = nlohmann::json::array();
  actions.push_back({{"type", "keyDown"}, {"value", value}});
  actions.push_back({{"type", "keyUp"}, {"value", value}});
  perform({{"type", "key"}, {"id", "keyboard"}, {"actions", std::move(actions)}});
}

void Firefox::screenshot(const std::string& path) {
  const auto r =
      call("WebDriver:TakeScreenshot", {{"full", false}, {"hash", false}, {"scroll", false}});
  std::ofstream out(path, std::ios::binary);
  out << decode_base64(r["value"].get<std::string>());
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace legato::testing
