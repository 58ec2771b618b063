// Native key codes: the viewer uses GLFW's (letters are their upper-case
// ASCII codes), in the window through the GLFW backend and headless through
// the same key map, so scripts press the keys a user would.
#pragma once

#include <imgui.h>

namespace legato::viewer::keys {

inline constexpr int kTab = 258, kLeft = 263, kRight = 262, kUp = 265, kDown = 264, kPageUp = 266,
                     kPageDown = 267, kHome = 268, kEnd = 269, kInsert = 260, kDelete = 261,
                     kBackspace = 259, kSpace = 32, kEnter = 257, kEscape = 256, kKeypadEnter = 335;

// io.KeyMap as the GLFW backend fills it.
inline void map_keys(ImGuiIO& io) {
  const int map[][2] = {{ImGuiKey_Tab, kTab},
                        {ImGuiKey_LeftArrow, kLeft},
                        {ImGuiKey_RightArrow, kRight},
                        {ImGuiKey_UpArrow, kUp},
                        {ImGuiKey_DownArrow, kDown},
                        {ImGuiKey_PageUp, kPageUp},
                        {ImGuiKey_PageDown, kPageDown},
                        {ImGuiKey_Home, kHome},
                        {ImGuiKey_End, kEnd},
                        {ImGuiKey_Insert, kInsert},
                        {ImGuiKey_Delete, kDelete},
                        {ImGuiKey_Backspace, kBackspace},
                        {ImGuiKey_Space, kSpace},
                        {ImGuiKey_Enter, kEnter},
                        {ImGuiKey_Escape, kEscape},
                        {ImGuiKey_KeyPadEnter, kKeypadEnter},
                        {ImGuiKey_A, 'A'},
                        {ImGuiKey_C, 'C'},
                        {ImGuiKey_V, 'V'},
                        {ImGuiKey_X, 'X'},
                        {ImGuiKey_Y, 'Y'},
                        {ImGuiKey_Z, 'Z'}};
  for (const auto& [imgui_key, code] : map) io.KeyMap[imgui_key] = code;
}

}  // namespace legato::viewer::keys
