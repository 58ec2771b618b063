// The viewer's window: GLFW, OpenGL 3 and the Dear ImGui backends around
// App, with scripted sessions and PNG screenshots.
#pragma once

#include <optional>

#include "viewer/app.hpp"
#include "viewer/script.hpp"

namespace legato::viewer {

// The scripted session --script or --screenshot asks for, if any. Throws
// ScriptError (a usage error) when the script cannot be read or has a bad step.
std::optional<Script> session_script(const ViewOptions& options);

// Opens the window and runs until it is closed or the script (if any)
// finished. Returns the exit status: 1 when no window could be opened, the
// files could not be read in a scripted session, a file open at the end was
// read only in part (Profile::incomplete_files), a screenshot could not be
// written, or a script step failed.
int run_window(const ViewOptions& options, std::optional<Script> script);

}  // namespace legato::viewer
