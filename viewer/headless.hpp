// Dear ImGui without a window or GPU: frames are built (the model queries,
// layout and draw lists) and dropped. Tests and bench_viewer use it; the
// window (window.cpp) sets up its context with the same configure_context.
#pragma once

#include "viewer/app.hpp"
#include "viewer/script.hpp"

namespace legato::viewer {

// Style, fonts and settings shared by the window and the headless context.
void configure_context(ImGuiIO& io);

class HeadlessContext {
 public:
  HeadlessContext(int width, int height);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  // One frame: the script's input (if any), NewFrame, the app, Render.
  void frame(App& app, Script* script = nullptr);
  // Frames until the script finished (or max_frames passed); false if it did not finish.
  bool run(App& app, Script& script, int max_frames = 100000);

 private:
  ImGuiContext* ctx_ = nullptr;
};

}  // namespace legato::viewer
