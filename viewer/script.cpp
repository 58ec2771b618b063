#include "viewer/script.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"
#include "base/file_create.hpp"
#include "viewer/app.hpp"
#include "viewer/keys.hpp"

namespace legato::viewer {

// The operations, in the order of the list in script.hpp.
enum class ScriptOp : uint8_t {
  Range,
  Zoom,
  Pan,
  Expand,
  Hover,
  Click,
  Drag,
  Wheel,
  Key,
  Type,
  Select,
  ClickUi,
  ClickLabel,
  Search,
  Finding,
  Wait,
  Screenshot,
  Dump,
  Fps,
  Quit
};

namespace {

// What one argument of a step must be.
enum class Arg : uint8_t {
  Word,     // anything
  Button,   // right (the default: left)
  DragHow,  // right or shift (the default: a plain left drag)
  Number,   // a number
  Time,     // a number with an optional unit: 1.5ms
  Key,      // a key name (parse_key)
  Lanes,    // what expand takes: auto, all, none, kinds or kinds of lanes (check_expand)
  Text,     // the rest of the line, spaces included
};

// One operation: its name in scripts, how many arguments it needs, and what
// each argument it takes must be (the arguments after min_args are optional).
struct OpInfo {
  ScriptOp op;
  std::string name;
  size_t min_args;
  std::vector<Arg> args;
};

// The one table of operations: parsing, checking and error messages read it,
// and Script::run has a case for each.
const std::vector<OpInfo>& operations() {
  using enum Arg;
  static const std::vector<OpInfo> table = {
      {ScriptOp::Range, "range", 2, {Time, Time}},
      {ScriptOp::Zoom, "zoom", 1, {Number, Number}},
      {ScriptOp::Pan, "pan", 1, {Number}},
      {ScriptOp::Expand, "expand", 1, {Lanes}},
      {ScriptOp::Hover, "hover", 2, {Number, Number}},
      {ScriptOp::Click, "click", 2, {Number, Number, Button}},
      {ScriptOp::Drag, "drag", 4, {Number, Number, Number, Number, DragHow}},
      {ScriptOp::Wheel, "wheel", 3, {Number, Number, Number}},
      {ScriptOp::Key, "key", 1, {Key}},
      {ScriptOp::Type, "type", 1, {Text}},
      {ScriptOp::Select, "select", 1, {Word, Number}},
      {ScriptOp::ClickUi, "click-ui", 1, {Word}},
      {ScriptOp::ClickLabel, "click-label", 1, {Text}},
      {ScriptOp::Search, "search", 1, {Text}},
      {ScriptOp::Finding, "finding", 1, {Number}},
      {ScriptOp::Wait, "wait", 1, {Number}},
      {ScriptOp::Screenshot, "screenshot", 1, {Text}},
      {ScriptOp::Dump, "dump", 1, {Text}},
      {ScriptOp::Fps, "fps", 1, {Number}},
      {ScriptOp::Quit, "quit", 0, {}},
  };
  return table;
}

}  // namespace

const char* script_steps_help() {
  return "Script steps (--script FILE: one step per line, '#' starts a comment; times like "
         "1.5ms, from the run's start; X Y are window pixels):\n"
         "  range START END        show that window\n"
         "  zoom FACTOR [AT]       zoom around a fraction of the width (FACTOR < 1 zooms in)\n"
         "  pan FRACTION           move by a fraction of the width\n"
         "  expand auto|all|none|kinds|KIND,...\n"
         "  hover X Y              move the mouse there\n"
         "  click X Y [right]      press and release a mouse button there\n"
         "  drag X0 Y0 X1 Y1 [right|shift]\n"
         "  wheel X Y STEPS        mouse wheel at (X, Y), positive zooms in\n"
         "  key NAME               left, right, up, down, pageup, pagedown, home, end, "
         "backspace,\n"
         "                         escape, enter, tab, space, delete, a character (+ - ? z h s e "
         "c / ...),\n"
         "                         ctrl+LETTER, ctrl+shift+LETTER\n"
         "  type TEXT              type characters into the focused text box\n"
         "  select QUERY [N]       bring the N-th item matching QUERY into view and click it\n"
         "  click-ui NAME          click a control: critical, chain, zoom-item, back, open, "
         "paths,\n"
         "                         error-message, search, first-result\n"
         "  click-label TEXT       click the lane label reading TEXT\n"
         "  search QUERY           open the search window with QUERY\n"
         "  finding N              click the N-th finding's row (from 0) in the Findings window\n"
         "  wait FRAMES            let frames pass\n"
         "  screenshot PATH        write the window as a PNG once everything is computed\n"
         "  dump PATH              write what is shown as JSON (window, rows, selection, "
         "findings, ...)\n"
         "  fps SECONDS            pan back and forth for SECONDS and print the frame rate\n"
         "  quit";
}

namespace {

// The operation a script calls `name`, or null.
const OpInfo* find_operation(const std::string& name) {
  for (const OpInfo& o : operations())
    if (o.name == name) return &o;
  return nullptr;
}

const std::string& name_of(ScriptOp op) {
  for (const OpInfo& o : operations())
    if (o.op == op) return o.name;
  static const std::string unknown = "?";
  return unknown;
}

// "click, click-label, ...": every operation's name, in alphabetical order.
std::string operation_names() {
  std::vector<std::string> names;
  for (const OpInfo& o : operations()) names.push_back(o.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
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

// The arguments of a step: the words after its name, or for an operation
// that takes text the rest of the line (none if it is blank).
std::vector<std::string> read_arguments(std::istringstream& words, const OpInfo& op) {
  std::vector<std::string> args;
  if (!op.args.empty() && op.args.back() == Arg::Text) {
    std::string rest;
    std::getline(words, rest);
    const size_t b = rest.find_first_not_of(' ');
    if (b != std::string::npos) args.push_back(rest.substr(b));
  } else {
    for (std::string w; words >> w;) args.push_back(w);
  }
  return args;
}

// Why `value` cannot be an argument of that kind, or empty if it can.
std::string check_argument(Arg kind, const std::string& value) {
  switch (kind) {
    case Arg::Word:
    case Arg::Text:
      return "";
    case Arg::Button:
      return value == "right" ? "" : "'" + value + "' is not a button (right, or none for left)";
    case Arg::DragHow:
      return value == "right" || value == "shift"
                 ? ""
                 : "'" + value + "' is not right or shift (none: a left drag)";
    case Arg::Number: {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      return end == value.c_str() || *end || !std::isfinite(v) ? "'" + value + "' is not a number"
                                                               : "";
    }
    case Arg::Time:
      return analysis::parse_duration_ns(value)
                 ? ""
                 : "'" + value + "' is not a time (a number with an optional unit: ns, us, ms, s)";
    case Arg::Key:
      return parse_key(value) ? "" : "unknown key '" + value + "'";
    case Arg::Lanes:
      return check_expand(value);
  }
  return "";
}

// Why the step cannot take these arguments (how many, what each is), or empty.
std::string check_arguments(const OpInfo& op, const std::vector<std::string>& args) {
  const size_t max_args = op.args.size();
  if (args.size() < op.min_args || args.size() > max_args) {
    return "'" + op.name + "' takes " + std::to_string(op.min_args) +
           (max_args != op.min_args ? " to " + std::to_string(max_args) : "") +
           " argument(s), got " + std::to_string(args.size());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (std::string why = check_argument(op.args[i], args[i]); !why.empty()) return why;
  }
  return "";
}

}  // namespace

Script Script::screenshot_then_quit(const std::string& path) {
  Script s;
  s.name_ = "--screenshot";
  s.steps_.push_back(Step{1, ScriptOp::Screenshot, {path}});
  s.steps_.push_back(Step{1, ScriptOp::Quit, {}});
  return s;
}

Script Script::parse(const std::string& text, const std::string& name) {
  Script s;
  s.name_ = name;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const size_t hash = line.find('#'); hash != std::string::npos && line.rfind("type", 0) != 0)
      line.resize(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    const std::string where = name + ":" + std::to_string(n) + ": ";
    const OpInfo* op = find_operation(word);
    if (!op) {
      throw ScriptError(where + "unknown step '" + word + "' (steps: " + operation_names() + ")");
    }
    Step step;
    step.line = n;
    step.op = op->op;
    step.args = read_arguments(words, *op);
    if (const std::string why = check_arguments(*op, step.args); !why.empty())
      throw ScriptError(where + why);
    s.steps_.push_back(std::move(step));
  }
  return s;
}

Script Script::load(const std::string& path) {
  // A FIFO would block the open until someone writes to it, a device would
  // never end: what is not a regular file is refused, unopened.
  if (const std::string kind = base::special_file(path); !kind.empty())
    throw ScriptError(path + ": cannot read the script file: " + base::not_a_file_reason(kind));
  std::ifstream in(path);
  if (!in) throw ScriptError(path + ": cannot read the script file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

std::vector<std::string> Script::outputs() const {
  std::vector<std::string> out;
  for (const Step& s : steps_)
    if (s.op == ScriptOp::Screenshot || s.op == ScriptOp::Dump) out.push_back(s.args[0]);
  return out;
}

bool Script::fail(const std::string& message) {
  const Step& s = steps_[next_];
  std::cerr << "legate_prof view: " << name_ << ":" << s.line << ": " << name_of(s.op) << ": "
            << message << "\n";
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

ImVec2 Script::point(size_t arg) const {
  return ImVec2(static_cast<float>(number(arg)), static_cast<float>(number(arg + 1)));
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
  if (shift_) io.KeyShift = true;
  io.MouseDown[0] = down_[0];
  io.MouseDown[1] = down_[1];
}

bool Script::run(App& app, ImGuiIO& io) {
  const Step& s = steps_[next_];
  const int phase = phase_++;
  switch (s.op) {
    case ScriptOp::Wait:
      return phase + 1 >= static_cast<int>(number(0));
    case ScriptOp::Range:
      app.set_range(*analysis::parse_duration_ns(s.args[0]),
                    *analysis::parse_duration_ns(s.args[1]));
      return true;
    case ScriptOp::Zoom:
      app.camera().zoom(number(0), s.args.size() > 1 ? number(1) : 0.5);
      return true;
    case ScriptOp::Pan:
      app.camera().pan(number(0));
      return true;
    case ScriptOp::Expand:
      app.set_expand(s.args[0]);
      return true;
    case ScriptOp::Hover:
      mouse_ = point(0);
      return phase >= 1;  // one frame drawn with the mouse there
    case ScriptOp::Click:
      if (phase == 0) at_ = point(0);
      return click(s.args.size() > 2 && s.args[2] == "right" ? 1 : 0, phase);
    case ScriptOp::Drag:
      return drag(s, phase);
    case ScriptOp::Wheel:
      return wheel(io, phase);
    case ScriptOp::Key:
      return press_key(io, s);
    case ScriptOp::Type:
      io.AddInputCharactersUTF8(s.args[0].c_str());
      return true;
    case ScriptOp::Search:
      app.show_search(s.args[0]);
      return true;
    case ScriptOp::Select:
      return select(app, s, phase);
    case ScriptOp::ClickUi:
    case ScriptOp::ClickLabel:
      return click_named(app, s, phase);
    case ScriptOp::Finding:
      return click_finding(app, s, phase);
    case ScriptOp::Fps:
      return measure_fps(app, phase);
    case ScriptOp::Screenshot:
    case ScriptOp::Dump:
      return capture(app, s, phase);
    case ScriptOp::Quit:
      app.request_quit();
      next_ = steps_.size();
      return false;
  }
  return true;
}

bool Script::click(int button, int phase) {
  if (phase == 0) mouse_ = at_;
  if (phase == 1) down_[button] = true;
  if (phase == 2) down_[button] = false;
  return phase == 2;
}

// Moves to the first point, presses, moves halfway, then to the second point, releases.
bool Script::drag(const Step& s, int phase) {
  const std::string how = s.args.size() > 4 ? s.args[4] : "";
  const int button = how == "right" ? 1 : 0;
  shift_ = how == "shift" && phase < 4;  // held from the press to the release
  const ImVec2 a = point(0);
  const ImVec2 b = point(2);
  if (phase == 0) mouse_ = a;
  if (phase == 1) down_[button] = true;
  if (phase == 2) mouse_ = ImVec2((a.x + b.x) / 2, (a.y + b.y) / 2);
  if (phase == 3) mouse_ = b;
  if (phase == 4) down_[button] = false;
  return phase == 4;
}

// The mouse moves there on one frame and the wheel turns on the next.
bool Script::wheel(ImGuiIO& io, int phase) {
  mouse_ = point(0);
  if (phase == 1) io.MouseWheel = static_cast<float>(number(2));
  return phase == 1;
}

// The key and its modifiers go down now; before_frame releases them next frame.
bool Script::press_key(ImGuiIO& io, const Step& s) {
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

// Finds the item, brings it into view, lets a frame draw it, then clicks its middle.
bool Script::select(App& app, const Step& s, int phase) {
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

// Clicks the middle of a named control (click-ui) or of a lane label (click-label).
bool Script::click_named(App& app, const Step& s, int phase) {
  if (phase == 0) {
    std::optional<ImVec4> r;
    if (s.op == ScriptOp::ClickUi) {
      r = app.control(s.args[0]);
    } else {
      r = app.label_rect(s.args[0]);
    }
    if (!r) return fail("nothing named '" + s.args[0] + "' is on screen");
    at_ = ImVec2((r->x + r->z) / 2, (r->y + r->w) / 2);
  }
  return click(0, phase);
}

// Opens the Findings pane with the finding's row in view, then clicks the row.
bool Script::click_finding(App& app, const Step& s, int phase) {
  constexpr int kClick = 100;  // the phase the click starts at
  const std::string control = "finding-" + s.args[0];
  if (phase == 0) {
    if (!app.profile()) return fail("no trace is open");
    if (!app.findings_ready()) {  // the rules still run
      phase_ = 0;
      return false;
    }
    const double n = number(0);
    const size_t count = app.findings().findings.size();
    if (n < 0 || n != std::floor(n) || n >= static_cast<double>(count))
      return fail("there is no finding " + s.args[0] + " (the run has " + std::to_string(count) +
                  ", numbered from 0)");
    app.scroll_to_finding(static_cast<int>(n));
    return false;
  }
  if (phase < kClick) {  // frames draw the window and scroll to the row
    const auto r = app.control(control);
    if (!r)
      return phase >= 5 ? fail("the row of finding " + s.args[0] + " is not on screen") : false;
    at_ = ImVec2((r->x + r->z) / 2, (r->y + r->w) / 2);
    phase_ = kClick;
    return false;
  }
  return click(0, phase - kClick);
}

// Pans back and forth every frame until the time is up, then prints the frame rate.
bool Script::measure_fps(App& app, int phase) {
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

// Waits for a frame drawn once everything has been computed, then hands
// after_frame the path to capture or dump into.
bool Script::capture(App& app, const Step& s, int phase) {
  if (!app.settled()) {
    phase_ = 0;
    return false;
  }
  if (phase < 2) return false;
  capture_ = s.args[0];
  dump_ = s.op == ScriptOp::Dump;
  return true;
}

std::string Script::after_frame(App& app) {
  std::string path = std::move(capture_);
  capture_.clear();
  if (path.empty() || !dump_) return path;
  // Written as screenshots are: replacing what is at the path, never
  // through a link, never into a FIFO (which would block until read).
  const std::string kind = base::special_file(path);
  int err = 0;
  if (kind.empty()) {
    const auto& replace = nlohmann::json::error_handler_t::replace;
    err = base::write_replacing(path, app.state().dump(2, ' ', false, replace) + "\n");
  }
  if (!kind.empty() || err != 0) {
    std::cerr << "legate_prof view: " << name_ << ": cannot write " << path << ": "
              << (kind.empty() ? std::strerror(err) : base::not_a_file_reason(kind)) << "\n";
    status_ = 1;
  }
  return "";
}

}  // namespace legato::viewer
