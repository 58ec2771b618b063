// The viewer's window: GLFW, OpenGL 3 and the Dear ImGui backends around
// App, with scripted sessions and PNG screenshots.
#pragma once

#include "viewer/app.hpp"

namespace legato::viewer {

// Opens the window and runs until it is closed or the script (--script,
// --screenshot) finished. Returns the exit status: 1 when no window could
// be opened, the files could not be read in a scripted session, or a
// script step failed.
int run_window(const ViewOptions& options);

}  // namespace legato::viewer
