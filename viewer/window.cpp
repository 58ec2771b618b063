#include "viewer/window.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cstdlib>
#include <iostream>
#include <optional>
#include <vector>

#include "viewer/headless.hpp"
#include "viewer/screenshot_file.hpp"
#include "viewer/script.hpp"

namespace legato::viewer {

namespace {

std::string glfw_error;

struct Dropped {
  std::vector<std::string> paths;
};

// The back buffer as a PNG (rows flipped: OpenGL's origin is the bottom
// left). Empty, or why it could not be written.
std::string write_png(const std::string& path, int w, int h) {
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  std::vector<unsigned char> flipped(pixels.size());
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y)
    std::copy_n(&pixels[static_cast<size_t>(h - 1 - y) * row], row,
                &flipped[static_cast<size_t>(y) * row]);
  return write_png_file(path, w, h, flipped.data());
}

}  // namespace

std::optional<Script> session_script(const ViewOptions& options) {
  if (!options.script.empty()) return Script::load(options.script);
  if (!options.screenshot.empty()) return Script::screenshot_then_quit(options.screenshot);
  return std::nullopt;
}

int run_window(const ViewOptions& options, std::optional<Script> script) {
  glfwSetErrorCallback([](int, const char* text) { glfw_error = text ? text : "unknown error"; });
  if (!glfwInit()) {
    const char* display = std::getenv("DISPLAY");
    std::cerr << "legate_prof view: cannot open a window: " << glfw_error
              << (display ? " (DISPLAY=" + std::string(display) + ")" : " (DISPLAY is not set)")
              << ". Run it on a desktop, under 'xvfb-run -a' for screenshots, or write the HTML "
                 "report with 'legate_prof archive'.\n";
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 2);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
  GLFWwindow* window =
      glfwCreateWindow(options.width, options.height, "legate_prof view", nullptr, nullptr);
  if (!window) {
    std::cerr << "legate_prof view: cannot open an OpenGL 3.2 window: " << glfw_error << "\n";
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(script ? 0 : 1);
  Dropped dropped;
  glfwSetWindowUserPointer(window, &dropped);
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    auto* d = static_cast<Dropped*>(glfwGetWindowUserPointer(w));
    d->paths.assign(paths, paths + count);
  });

  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  configure_context(io);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 150");
  int status = 0;
  {
    App app(options);
    while (!glfwWindowShouldClose(window) && !app.quit_requested()) {
      // Idle windows wait for input; loading, computing and scripts keep drawing.
      if (script || !app.settled()) {
        glfwPollEvents();
      } else {
        glfwWaitEventsTimeout(0.5);
      }
      if (!dropped.paths.empty()) {
        app.open(std::move(dropped.paths));
        dropped.paths.clear();
      }
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      if (script) script->before_frame(app, io);
      ImGui::NewFrame();
      app.frame();
      ImGui::Render();
      int w = 0, h = 0;
      glfwGetFramebufferSize(window, &w, &h);
      glViewport(0, 0, w, h);
      glClearColor(1, 1, 1, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      if (script) {
        if (const std::string png = script->after_frame(app); !png.empty()) {
          if (const std::string why = write_png(png, w, h); why.empty()) {
            std::cout << "wrote " << png << " (" << w << "x" << h << ")\n";
          } else {
            std::cerr << "legate_prof view: " << screenshot_error(png, why) << "\n";
            status = 1;
          }
        }
      }
      glfwSwapBuffers(window);
      if (script && script->finished() && !app.loading()) break;
    }
    if (script) {
      status = std::max(status, script->status());
      if (app.profile() == nullptr && !app.loading()) status = 1;
    }
    // A file given that could not be read, or only in part: as every subcommand.
    if (app.profile() != nullptr && !app.profile()->incomplete_files.empty()) status = 1;
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return status;
}

}  // namespace legato::viewer
