#include "viewer/headless.hpp"

#include <iostream>

#include "viewer/keys.hpp"
#include "viewer/palette.hpp"

namespace legato::viewer {

void configure_context(ImGuiIO& io) {
  io.IniFilename = nullptr;  // nothing written next to the user's traces
  io.ConfigWindowsMoveFromTitleBarOnly = true;
  set_theme(theme());
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  style.ScrollbarRounding = 3;
  style.WindowBorderSize = 1;
}

HeadlessContext::HeadlessContext(int width, int height) {
  ctx_ = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  configure_context(io);
  keys::map_keys(io);
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DeltaTime = 1.f / 60;
  // As the OpenGL 3 backend does: draw lists past 64 k vertices split into
  // commands with a vertex offset (indices are 16-bit).
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas; no texture is made
  io.Fonts->SetTexID(nullptr);
}

HeadlessContext::~HeadlessContext() {
  ImGui::DestroyContext(ctx_);
}

void HeadlessContext::frame(App& app, Script* script) {
  ImGui::SetCurrentContext(ctx_);
  ImGuiIO& io = ImGui::GetIO();
  if (script) script->before_frame(app, io);
  ImGui::NewFrame();
  app.frame();
  ImGui::Render();
  if (!script) return;
  if (const std::string png = script->after_frame(app); !png.empty())
    std::cerr << "legate_prof view: screenshot " << png << " skipped: no window to capture\n";
}

bool HeadlessContext::run(App& app, Script& script, int max_frames) {
  for (int f = 0; f < max_frames && !script.finished() && !app.quit_requested(); ++f)
    frame(app, &script);
  return script.finished() || app.quit_requested();
}

}  // namespace legato::viewer
