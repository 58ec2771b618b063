#include "viewer/script.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"
#include "viewer/app.hpp"
#include "viewer/keys.hpp"

namespace legato::viewer {

namespace {

// Arguments each step takes: at least, at most.
const std::map<std::string, std::pair<size_t, size_t>>& arity() {
  static const std::map<std::string, std::pair<size_t, size_t>> m = {
      {"range", {2, 2}},       {"zoom", {1, 2}},   {"pan", {1, 1}},    {"expand", {1, 1}},
      {"hover", {2, 2}},       {"click", {2, 3}},  {"drag", {4, 5}},   {"wheel", {3, 3}},
      {"key", {1, 1}},         {"type", {1, 1}},   {"select", {1, 2}}, {"click-ui", {1, 1}},
      {"click-label", {1, 1}}, {"search", {1, 1}}, {"wait", {1, 1}},   {"screenshot", {1, 1}},
      {"dump", {1, 1}},        {"fps", {1, 1}},    {"quit", {0, 0}}};
  return m;
}

// Steps whose last argument is the rest of the line (may hold spaces).
bool takes_text(const std::string& op) {
  return op == "type" || op == "search" || op == "click-label" || op == "screenshot" ||
         op == "dump";
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct KeyPress {
  int code = -1;
  ImWchar character = 0;
  bool ctrl = false, shift = false;
};

std::optional<KeyPress> parse_key(std::string name) {
  KeyPress k;
  for (;;) {
    if (name.rfind("ctrl+", 0) == 0 && name.size() > 5) {
      k.ctrl = true;
      name = name.substr(5);
    } else if (name.rfind("shift+", 0) == 0 && name.size() > 6) {
      k.shift = true;
      name = name.substr(6);
    } else {
      break;
    }
  }
  static const std::map<std::string, int> named = {
      {"left", keys::kLeft},     {"right", keys::kRight},   {"up", keys::kUp},
      {"down", keys::kDown},     {"pageup", keys::kPageUp}, {"pagedown", keys::kPageDown},
      {"home", keys::kHome},     {"end", keys::kEnd},       {"backspace", keys::kBackspace},
      {"escape", keys::kEscape}, {"enter", keys::kEnter},   {"tab", keys::kTab},
      {"space", keys::kSpace},   {"delete", keys::kDelete}};
  if (const auto it = named.find(name); it != named.end()) {
    k.code = it->second;
    return k;
  }
  if (name.size() != 1 || static_cast<unsigned char>(name[0]) < 32 ||
      static_cast<unsigned char>(name[0]) > 126)
    return std::nullopt;
  const char c = name[0];
  if (std::isalpha(static_cast<unsigned char>(c)))
    k.code = std::toupper(static_cast<unsigned char>(c));
  // Ctrl+letter types nothing, as on a real keyboard.
  if (!k.ctrl) k.character = static_cast<ImWchar>(c);
  return k;
}

}  // namespace

Script Script::parse(const std::string& text, const std::string& name) {
  Script s;
  s.name_ = name;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const size_t hash = line.find('#'); hash != std::string::npos && line.rfind("type", 0) != 0)
      line.resize(hash);
    std::istringstream words(line);
    Step step;
    step.line = n;
    if (!(words >> step.op)) continue;
    const auto a = arity().find(step.op);
    if (a == arity().end()) {
      std::string known;
      for (const auto& [op, _] : arity()) known += (known.empty() ? "" : ", ") + op;
      throw ScriptError(name + ":" + std::to_string(n) + ": unknown step '" + step.op +
                        "' (steps: " + known + ")");
    }
    if (takes_text(step.op)) {
      std::string rest;
      std::getline(words, rest);
      const size_t b = rest.find_first_not_of(' ');
      if (b != std::string::npos) step.args.push_back(rest.substr(b));
    } else {
      for (std::string w; words >> w;) step.args.push_back(w);
    }
    if (step.args.size() < a->second.first || step.args.size() > a->second.second) {
      throw ScriptError(
          name + ":" + std::to_string(n) + ": '" + step.op + "' takes " +
          std::to_string(a->second.first) +
          (a->second.second != a->second.first ? " to " + std::to_string(a->second.second) : "") +
          " argument(s), got " + std::to_string(step.args.size()));
    }
    if (step.op == "key" && !parse_key(step.args[0]))
      throw ScriptError(name + ":" + std::to_string(n) + ": unknown key '" + step.args[0] + "'");
    if (step.op == "expand" && !check_expand(step.args[0]).empty())
      throw ScriptError(name + ":" + std::to_string(n) + ": " + check_expand(step.args[0]));
    static const std::map<std::string, std::vector<size_t>> numeric = {
        {"zoom", {0, 1}},  {"pan", {0}},           {"hover", {0, 1}},
        {"click", {0, 1}}, {"drag", {0, 1, 2, 3}}, {"wheel", {0, 1, 2}},
        {"wait", {0}},     {"fps", {0}},           {"select", {1}}};
    if (const auto it = numeric.find(step.op); it != numeric.end()) {
      for (size_t i : it->second) {
        if (i >= step.args.size()) continue;
        char* end = nullptr;
        std::strtod(step.args[i].c_str(), &end);
        if (end == step.args[i].c_str() || *end)
          throw ScriptError(name + ":" + std::to_string(n) + ": '" + step.args[i] +
                            "' is not a number");
      }
    }
    if (step.op == "range") {
      for (const auto& t : step.args) {
        if (!analysis::parse_duration_ns(t))
          throw ScriptError(name + ":" + std::to_string(n) + ": '" + t +
                            "' is not a time (a number with an optional unit: ns, us, ms, s)");
      }
    }
    s.steps_.push_back(std::move(step));
  }
  return s;
}

Script Script::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ScriptError(path + ": cannot read the script file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

bool Script::fail(const std::string& message) {
  const Step& s = steps_[next_];
  std::cerr << "legate_prof view: " << name_ << ":" << s.line << ": " << s.op << ": " << message
            << "\n";
  status_ = 1;
  next_ = steps_.size();
  return true;
}

void Script::advance() {
  ++next_;
  phase_ = 0;
}

double Script::number(size_t arg) const {
  return std::strtod(steps_[next_].args[arg].c_str(), nullptr);
}

void Script::before_frame(App& app, ImGuiIO& io) {
  if (key_pressed_) {  // a key step's key and modifiers go up on the next frame
    if (held_key_ >= 0) io.KeysDown[held_key_] = false;
    io.KeyCtrl = io.KeyShift = false;
    held_key_ = -1;
    key_pressed_ = false;
  }
  io.MouseWheel = 0;
  // Nothing runs until the files are loaded (or failed to load).
  if (!finished() && !app.loading() && run(app, io)) advance();
  // The script owns the mouse: the platform backend's state is replaced.
  io.MousePos = mouse_;
  io.MouseDown[0] = down_[0];
  io.MouseDown[1] = down_[1];
}

bool Script::run(App& app, ImGuiIO& io) {
  const Step& s = steps_[next_];
  const int phase = phase_++;
  const auto click = [&](int button) {  // phases 0..2 of a click at at_
    if (phase == 0) mouse_ = at_;
    if (phase == 1) down_[button] = true;
    if (phase == 2) down_[button] = false;
    return phase == 2;
  };
  if (s.op == "wait") return phase + 1 >= static_cast<int>(number(0));
  if (s.op == "range") {
    app.set_range(*analysis::parse_duration_ns(s.args[0]), *analysis::parse_duration_ns(s.args[1]));
    return true;
  }
  if (s.op == "zoom") {
    app.camera().zoom(number(0), s.args.size() > 1 ? number(1) : 0.5);
    return true;
  }
  if (s.op == "pan") {
    app.camera().pan(number(0));
    return true;
  }
  if (s.op == "expand") {
    app.set_expand(s.args[0]);
    return true;
  }
  if (s.op == "hover") {
    mouse_ = ImVec2(static_cast<float>(number(0)), static_cast<float>(number(1)));
    return phase >= 1;  // one frame drawn with the mouse there
  }
  if (s.op == "click") {
    if (phase == 0) at_ = ImVec2(static_cast<float>(number(0)), static_cast<float>(number(1)));
    return click(s.args.size() > 2 && s.args[2] == "right" ? 1 : 0);
  }
  if (s.op == "drag") {
    const int button = s.args.size() > 4 && s.args[4] == "right" ? 1 : 0;
    const ImVec2 a(static_cast<float>(number(0)), static_cast<float>(number(1)));
    const ImVec2 b(static_cast<float>(number(2)), static_cast<float>(number(3)));
    if (phase == 0) mouse_ = a;
    if (phase == 1) down_[button] = true;
    if (phase == 2) mouse_ = ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2);
    if (phase == 3) mouse_ = b;
    if (phase == 4) down_[button] = false;
    return phase == 4;
  }
  if (s.op == "wheel") {
    mouse_ = ImVec2(static_cast<float>(number(0)), static_cast<float>(number(1)));
    if (phase == 1) io.MouseWheel = static_cast<float>(number(2));
    return phase == 1;
  }
  if (s.op == "key") {
    const KeyPress k = *parse_key(s.args[0]);
    io.KeyCtrl = k.ctrl;
    io.KeyShift = k.shift;
    key_pressed_ = true;
    if (k.code >= 0) {
      io.KeysDown[k.code] = true;
      held_key_ = k.code;
    }
    if (k.character) io.AddInputCharacter(k.character);
    return true;
  }
  if (s.op == "type") {
    io.AddInputCharactersUTF8(s.args[0].c_str());
    return true;
  }
  if (s.op == "search") {
    app.show_search(s.args[0]);
    return true;
  }
  if (s.op == "select") {
    if (phase == 0) {
      if (!app.profile()) return fail("no trace is open");
      const auto n = s.args.size() > 1 ? static_cast<size_t>(number(1)) : size_t{0};
      const auto hits = analysis::search(*app.profile(), s.args[0], n + 1);
      if (hits.size() <= n)
        return fail("no item " + std::to_string(n) + " matches '" + s.args[0] + "'");
      target_ = hits[n];
      app.reveal(target_);
      return false;
    }
    if (phase == 1) return false;  // a frame draws it where it now is
    if (phase == 2) {
      const auto r = app.view().item_rect(target_);
      if (!r) return fail("item " + std::to_string(target_) + " was not drawn on its own");
      at_ = ImVec2((std::max(r->x, app.view().lanes_origin().x) + r->z) / 2, (r->y + r->w) / 2);
      mouse_ = at_;
      return false;
    }
    down_[0] = phase == 3;
    return phase == 4;
  }
  if (s.op == "click-ui" || s.op == "click-label") {
    if (phase == 0) {
      std::optional<ImVec4> r;
      if (s.op == "click-ui") {
        r = app.control(s.args[0]);
      } else {
        r = app.label_rect(s.args[0]);
      }
      if (!r) return fail("nothing named '" + s.args[0] + "' is on screen");
      at_ = ImVec2((r->x + r->z) / 2, (r->y + r->w) / 2);
    }
    return click(0);
  }
  if (s.op == "fps") {
    if (phase == 0) {
      fps_start_ = seconds_now();
      fps_frames_ = 0;
    }
    app.camera().pan((fps_frames_ / 30) % 2 ? -0.02 : 0.02);
    ++fps_frames_;
    const double elapsed = seconds_now() - fps_start_;
    if (elapsed < number(0)) return false;
    std::printf("fps %.1f (%d frames in %.2f s)\n", fps_frames_ / elapsed, fps_frames_, elapsed);
    std::fflush(stdout);
    return true;
  }
  if (s.op == "screenshot" || s.op == "dump") {
    // Captured after a frame drawn once everything has been computed.
    if (!app.settled()) {
      phase_ = 0;
      return false;
    }
    if (phase < 2) return false;
    capture_ = s.args[0];
    dump_ = s.op == "dump";
    return true;
  }
  if (s.op == "quit") {
    app.request_quit();
    next_ = steps_.size();
    return false;
  }
  return true;
}

std::string Script::after_frame(App& app) {
  std::string path = std::move(capture_);
  capture_.clear();
  if (path.empty() || !dump_) return path;
  std::ofstream out(path);
  out << app.state().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  if (!out) {
    std::cerr << "legate_prof view: " << name_ << ": cannot write " << path << "\n";
    status_ = 1;
  }
  return "";
}

}  // namespace legato::viewer
