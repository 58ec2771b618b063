// Scripted sessions (--script FILE, and --screenshot): steps that move the
// mouse, click, press keys and capture the window as a user would, one step
// after another between frames. One step per line; '#' starts a comment.
//
//   range START END        show that window (times like 1.5ms, from the run's start)
//   zoom FACTOR [AT]       zoom around a fraction of the width (FACTOR < 1 zooms in)
//   pan FRACTION           move by a fraction of the width
//   expand auto|all|none|kinds|KIND,...
//   hover X Y              move the mouse to window pixel (X, Y)
//   click X Y [right]      press and release a mouse button there
//   drag X0 Y0 X1 Y1 [right]
//   wheel X Y STEPS        mouse wheel at (X, Y), positive zooms in
//   key NAME               left, right, up, down, pageup, pagedown, home, backspace,
//                          escape, enter, a character (+ - ? z h s e c / ...), or
//                          ctrl+LETTER, ctrl+shift+LETTER
//   type TEXT              type characters into the focused text box
//   select QUERY [N]       bring the N-th item matching QUERY into view and click it
//   click-ui NAME          click a named control (critical, chain, zoom-item, back,
//                          open, paths, error-message, search, first-result)
//   click-label TEXT       click the lane label reading TEXT (expands or collapses)
//   search QUERY           open the search window with QUERY
//   finding N              click the N-th finding's row (from 0) in the Findings window
//                          (zooms to it, unfolds its lanes, outlines its items)
//   wait FRAMES            let frames pass
//   screenshot PATH        write the window as a PNG once everything is computed
//   dump PATH              write what is shown as JSON (window, rows, selection, findings,
//                          the clicked finding, outlined items, lanes shown and on screen, ...)
//   fps SECONDS            pan back and forth for SECONDS and print the frame rate
//   quit
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <imgui.h>

namespace legato::viewer {

class App;

// What a step does; defined in script.cpp next to the one table of the
// operations' names and arguments.
enum class ScriptOp : uint8_t;

// The steps a script can take, one per line, as `legate_prof view --help`
// lists them (the list above, for users who have no sources).
const char* script_steps_help();

class ScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Script {
 public:
  // Throws ScriptError naming the line of the first bad step.
  static Script parse(const std::string& text, const std::string& name);
  static Script load(const std::string& path);
  // A screenshot to `path`, then quit: the session of --screenshot. The
  // path is taken as it is (a newline or a '#' in it is part of the name),
  // never parsed as a script's text.
  static Script screenshot_then_quit(const std::string& path);

  // Before ImGui::NewFrame (after the platform backend's): this frame's input.
  void before_frame(App& app, ImGuiIO& io);
  // After the frame was rendered: a PNG path to capture now, or empty.
  std::string after_frame(App& app);
  bool finished() const { return next_ >= steps_.size(); }
  // The files its screenshot and dump steps write, in order.
  std::vector<std::string> outputs() const;
  // 0, or 1 once a step failed (the script then stops).
  int status() const { return status_; }

 private:
  struct Step {
    int line = 0;
    ScriptOp op{};
    std::vector<std::string> args;
  };
  bool fail(const std::string& message);  // stops the script; returns true
  void advance();
  double number(size_t arg) const;
  ImVec2 point(size_t arg) const;   // arguments arg and arg + 1 as a window pixel
  bool run(App& app, ImGuiIO& io);  // the current step's current phase; true when done

  // The steps that need more than a line of run(), given the step's phase;
  // each returns true when the step is done.
  bool click(int button, int phase);  // phases 0..2 of a click at at_
  bool drag(const Step& s, int phase);
  bool wheel(ImGuiIO& io, int phase);
  bool press_key(ImGuiIO& io, const Step& s);
  bool select(App& app, const Step& s, int phase);
  bool click_named(App& app, const Step& s, int phase);  // click-ui and click-label
  bool click_finding(App& app, const Step& s, int phase);
  bool measure_fps(App& app, int phase);
  bool capture(App& app, const Step& s, int phase);  // screenshot and dump

  std::string name_;
  std::vector<Step> steps_;
  size_t next_ = 0;
  int phase_ = 0;
  int status_ = 0;
  uint32_t target_ = 0;           // select: the item clicked
  ImVec2 at_{0, 0};               // where a click goes
  ImVec2 mouse_{-1e30f, -1e30f};  // the script's mouse, off the window at first
  bool down_[2] = {false, false};
  int held_key_ = -1;         // key: released on the next frame
  bool key_pressed_ = false;  // its modifiers too
  bool shift_ = false;        // a drag with shift held
  double fps_start_ = 0;      // fps: when it began
  int fps_frames_ = 0;
  std::string capture_;  // after_frame: capture or dump
  bool dump_ = false;
};

}  // namespace legato::viewer
