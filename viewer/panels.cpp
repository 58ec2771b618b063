// The menu bar, run header, warning and error banners, the open box, and the
// search, statistics, help and error-message windows.
#include <algorithm>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"
#include "viewer/app.hpp"

#include <imgui_internal.h>
#include "viewer/palette.hpp"

namespace legato::viewer {

using analysis::human_ns;
using analysis::short_ns;

namespace {

// The error as a sentence says it: "out of memory", "a crash", ...
std::string error_phrase(trace::ErrorKind k) {
  return (k == trace::ErrorKind::OutOfMemory ? "" : "a ") + std::string(error_tag(k));
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

// Full-width colored strip with text; returns with the cursor after it.
void banner_strip(ImU32 color, float height) {
  const ImVec2 a = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(
      a, ImVec2(a.x + ImGui::GetContentRegionAvail().x, a.y + height), color);
}

}  // namespace

void App::menu_bar() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", nullptr, false, !loading())) close();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (profile_ && ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Reset zoom", "0")) camera_.reset();
    if (ImGui::MenuItem("Undo zoom", "Backspace", false, camera_.can_undo())) camera_.undo();
    if (ImGui::MenuItem("Redo zoom", "Ctrl+Y", false, camera_.can_redo())) camera_.redo();
    if (ImGui::MenuItem("Zoom to selected item", "Z", false, details_.has_value()))
      zoom_to_selected();
    ImGui::Separator();
    const std::string link = profile_ ? view_link() : "";
    if (ImGui::MenuItem("Copy link to this view", nullptr, false, !link.empty()))
      ImGui::SetClipboardText(link.c_str());
    if (profile_ && link.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip(
          "No report beside the traces (legate_prof/index.html): write one with "
          "legate_prof archive");
    if (ImGui::MenuItem("Copy as command line", nullptr, false, profile_ != nullptr))
      ImGui::SetClipboardText(view_command().c_str());
    ImGui::Separator();
    bool dark = theme() == Theme::Dark;
    if (ImGui::MenuItem("Dark theme", nullptr, &dark)) set_theme(dark ? Theme::Dark : Theme::Light);
    ImGui::Separator();
    if (ImGui::MenuItem("Expand all", "E")) layout_.expand_all(*profile_);
    if (ImGui::MenuItem("Only avg lines", "C")) layout_.collapse_kinds(*profile_);
    if (ImGui::MenuItem("Collapse nodes")) layout_.collapse_all(*profile_);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Windows")) {
    ImGui::MenuItem("Search", "/", &show_search_, profile_ != nullptr);
    if (profile_ && !findings_ready_) {
      ImGui::MenuItem("Findings (computing...)", nullptr, false, false);
    } else if (profile_ && findings_.findings.empty()) {
      ImGui::MenuItem(findings_.empty_run ? "Nothing to check" : "No findings", nullptr, false,
                      false);
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        std::string text =
            findings_.empty_run ? findings_.note : "No rule saw a pattern that costs this run.";
        for (const auto& sk : findings_.skipped)
          text += "\nnot checked: " + sk.rule + ": " + sk.reason;
        ImGui::SetTooltip("%s", text.c_str());
      }
    } else {
      const std::string label =
          profile_ ? "Findings (" + std::to_string(findings_.findings.size()) + ")" : "Findings";
      ImGui::MenuItem(label.c_str(), "Shift+F", &show_findings_, profile_ != nullptr);
    }
    ImGui::MenuItem("Statistics", "Shift+S", &show_stats_, profile_ != nullptr);
    ImGui::MenuItem("Help", "?", &show_help_);
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void App::header() {
  const analysis::Profile& p = *profile_;
  // The view's ends with the digits its width needs, as the ruler writes them.
  const double step = camera_.span() / 4;
  const auto view_time = [step](double ns) { return tick_label(ns, step); };
  ImGui::SetCursorPos(ImVec2(8, ImGui::GetCursorPosY() + 4));
  ImGui::Text("%s", p.program.empty() ? "(program unknown)" : p.program.c_str());
  ImGui::SameLine();
  // A run opened in part says so: which nodes, out of how many.
  const std::string ranks =
      p.ranks_left_out.empty()
          ? std::to_string(p.ranks.size()) + " rank(s)"
          : "nodes " + (options_.nodes ? options_.nodes->text() : std::string()) + " of " +
                std::to_string(p.ranks_expected) +
                " (--nodes: " + std::to_string(p.ranks_left_out.size()) + " left out)";
  // So does a run opened for a range of its time: what was loaded.
  const std::string part =
      !p.window
          ? std::string()
          : " | loaded " + view_time(static_cast<double>(p.window->from - p.window->origin)) +
                " to " + view_time(static_cast<double>(p.window->to - p.window->origin)) +
                " (--range: " + analysis::grouped(p.window->items_left_out) + " items left out)";
  ImGui::TextDisabled("run %s | %s%s | %s records | %s | view %s to %s",
                      p.run_id.substr(0, 8).c_str(), ranks.c_str(), part.c_str(),
                      analysis::grouped(p.records).c_str(),
                      short_ns(static_cast<double>(p.stop - p.start)).c_str(),
                      view_time(camera_.t0() - camera_.run_start()).c_str(),
                      view_time(camera_.t1() - camera_.run_start()).c_str());
  // A selected range and a mark say how long they are, and where.
  const auto span_text = [&](const char* what, const std::pair<double, double>& r) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.12f, 0.37f, 0.75f, 1), "| %s %s (%s to %s)", what,
                       short_ns(r.second - r.first).c_str(),
                       view_time(r.first - camera_.run_start()).c_str(),
                       view_time(r.second - camera_.run_start()).c_str());
  };
  const bool header_hovered = ImGui::IsItemHovered();
  if (hl_.range) span_text("selected", *hl_.range);
  if (hl_.mark) span_text("marked", *hl_.mark);
  ImGui::SameLine();
  ImGui::TextDisabled("| ? for keys");
  if (header_hovered)
    ImGui::SetTooltip(
        "run %s ns, view %s to %s ns",
        analysis::grouped(static_cast<uint64_t>(p.stop - p.start)).c_str(),
        analysis::grouped(static_cast<uint64_t>(std::max(0.0, camera_.t0() - camera_.run_start())))
            .c_str(),
        analysis::grouped(static_cast<uint64_t>(std::max(0.0, camera_.t1() - camera_.run_start())))
            .c_str());
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 2);
}

void App::banners() {
  const analysis::Profile& p = *profile_;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec4 dark(0.2f, 0.15f, 0.1f, 1);
  for (size_t e = 0; e < p.errors.size(); ++e) {
    const analysis::ErrorMark& m = p.errors[e];
    if (m.kind == trace::ErrorKind::Warning) continue;
    banner_strip(colors().error_banner, line + 6);
    ImGui::SetCursorPos(ImVec2(8, ImGui::GetCursorPosY() + 3));
    ImGui::TextColored(ImVec4(0.6f, 0, 0.05f, 1), "The run ended with %s on node %u at %s: %s",
                       error_phrase(m.kind).c_str(), m.rank, at_time(p, m.time).c_str(),
                       first_line(p.str(m.text)).c_str());
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(e));
    if (ImGui::SmallButton("Show message")) show_error_ = e;
    remember_control("error-message");
    ImGui::PopID();
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 3);
  }
  if (p.warnings.empty()) return;
  banner_strip(colors().warning_banner, line + 6);
  ImGui::SetCursorPos(ImVec2(8, ImGui::GetCursorPosY() + 3));
  ImGui::TextColored(dark, "Warning: %s", p.warnings.front().c_str());
  if (p.warnings.size() > 1) {
    ImGui::SameLine();
    if (ImGui::SmallButton(show_warnings_
                               ? "Hide"
                               : ("+" + std::to_string(p.warnings.size() - 1) + " more").c_str()))
      show_warnings_ = !show_warnings_;
  }
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 3);
  if (!show_warnings_) return;
  for (size_t w = 1; w < p.warnings.size(); ++w) {
    banner_strip(colors().warning_banner, line);
    ImGui::SetCursorPosX(8);
    ImGui::TextColored(dark, "Warning: %s", p.warnings[w].c_str());
  }
}

void App::open_panel() {
  ImGui::SetCursorPos(ImVec2(24, 48));
  ImGui::BeginGroup();
  ImGui::Text("Open the traces of a run");
  ImGui::TextDisabled(
      "Paths or patterns separated by spaces, e.g. run/legate_*.prof; or drop files on the "
      "window.");
  ImGui::SetNextItemWidth(600);
  const bool enter =
      ImGui::InputText("##paths", &paths_input_, ImGuiInputTextFlags_EnterReturnsTrue);
  remember_control("paths");
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) {
    std::vector<std::string> files;
    size_t at = 0;
    while (at < paths_input_.size()) {
      const size_t end = std::min(paths_input_.find(' ', at), paths_input_.size());
      if (end > at) files.push_back(paths_input_.substr(at, end - at));
      at = end + 1;
    }
    open(files);
  }
  remember_control("open");
  if (!load_error_.empty()) {
    ImGui::Spacing();
    ImGui::PushTextWrapPos(ImGui::GetIO().DisplaySize.x - 40);
    ImGui::TextColored(ImVec4(0.75f, 0.05f, 0.1f, 1), "Could not open the traces: %s",
                       load_error_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndGroup();
}

void App::search_window() {
  if (!show_search_) return;
  // Right of the lane labels, never over them.
  ImGui::SetNextWindowPos(ImVec2(view_.lanes_origin().x + 16, 80), ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(520, 380), ImGuiCond_Appearing);
  if (!ImGui::Begin("Search", &show_search_, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  if (search_focus_) {
    ImGui::SetKeyboardFocusHere();
    search_focus_ = false;
  }
  ImGui::SetNextItemWidth(-1);
  // A query set from outside (a script, a finding's link) replaces what the
  // box holds while it is being edited.
  if (search_set_) {
    if (ImGui::GetActiveID() == ImGui::GetID("##query")) ImGui::ClearActiveID();
    search_set_ = false;
  }
  std::string q = search_query_;
  if (ImGui::InputTextWithHint("##query", "task name, operation or file:line", &q)) set_search(q);
  remember_control("search");
  if (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
    step_hit(ImGui::GetIO().KeyShift ? -1 : 1);
    search_focus_ = true;  // the details opening must not take the box's focus
  }
  const analysis::Profile& p = *profile_;
  if (!search_query_.empty()) {
    const std::string count = analysis::grouped(hits_by_time_.size());
    const std::string at =
        hit_at_ >= 0 ? analysis::grouped(static_cast<uint64_t>(hit_at_ + 1)) + " of " : "";
    ImGui::TextDisabled(
        "%s%s%s matches, by start time, outlined%s", at.c_str(), hits_capped_ ? "the first " : "",
        count.c_str(),
        hit_at_ < 0 && !hits_by_time_.empty() ? " (Enter: next, shift+Enter: previous)" : "");
  }
  ImGui::BeginChild("results");
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(hits_by_time_.size()));
  while (clip.Step()) {
    for (int k = clip.DisplayStart; k < clip.DisplayEnd; ++k) {
      const uint32_t i = hits_by_time_[static_cast<size_t>(k)];
      ImGui::PushID(k);
      const std::string text = analysis::describe(p, i) + "  at " + at_time(p, p.items[i].start);
      if (ImGui::Selectable(text.c_str(), hl_.selected == i)) {
        hit_at_ = k;
        select(i);
        reveal(i);
      }
      if (k == 0) remember_control("first-result");
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

void App::stats_window() {
  if (!show_stats_) return;
  const analysis::Profile& p = *profile_;
  // Bottom right, clear of the search (left) and details (top right) windows.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(std::max(20.f, display.x - 740), std::max(80.f, display.y - 500)),
                          ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(720, 480), ImGuiCond_Appearing);
  if (!ImGui::Begin("Statistics", &show_stats_, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  const auto flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY |
                     ImGuiTableFlags_Resizable;
  ImGui::Text("Utilization over the run");
  if (ImGui::BeginTable("util", 5, flags, ImVec2(0, 160))) {
    for (const char* h : {"node", "kind", "lanes", "average", "peak"}) ImGui::TableSetupColumn(h);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    for (const auto& u : analysis::utilization_summary(p)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (u.rank == analysis::kAllNodes) {
        ImGui::TextUnformatted("all");
      } else {
        ImGui::Text("%u", u.rank);
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::string(analysis::to_string(u.kind)).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%u", u.lanes);
      for (const double v : {u.average, u.peak}) {
        ImGui::TableNextColumn();
        if (u.known) {
          ImGui::Text("%.1f%%", v * 100);
        } else {
          ImGui::TextUnformatted("unknown (no size given)");
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::Text("By kind (largest total first)");
  if (ImGui::BeginTable("kinds", 7, flags)) {
    for (const char* h : {"name", "kind", "count", "total", "mean", "min", "max"})
      ImGui::TableSetupColumn(h);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    for (const auto& k : analysis::kind_stats(p)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.name.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::string(analysis::to_string(k.kind)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(analysis::grouped(k.count).c_str());
      for (const double v : {static_cast<double>(k.total), k.mean(), static_cast<double>(k.min),
                             static_cast<double>(k.max)}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(human_ns(v).c_str());
      }
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void App::help_window() {
  if (!show_help_) return;
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x / 2, 80), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0));
  if (!ImGui::Begin("Help", &show_help_,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  static const char* const kKeys[][2] = {
      {"wheel", "zoom around the mouse"},
      {"shift+wheel, wheel on labels", "scroll the lanes"},
      {"drag", "select a range of time: its length shows (f zooms to it, m marks it)"},
      {"right drag", "pan (both directions)"},
      {"ctrl/shift+drag, drag on the ruler", "zoom to the range dragged"},
      {"click",
       "details of an item; a box of folded items: zoom into it; a label: expand/collapse"},
      {"double-click", "zoom to the item"},
      {"w / s", "zoom in / out around the mouse"},
      {"a / d, left / right", "pan"},
      {"up / down, page up / down", "scroll"},
      {"+ / -", "zoom in / out"},
      {"backspace, u, ctrl+z", "undo zoom"},
      {"r, ctrl+y, ctrl+shift+z", "redo zoom"},
      {"0, home", "show the whole run"},
      {"f", "focus: zoom to the selected range, else the selected item"},
      {"m", "mark the selected range or item (again: unmark)"},
      {"z", "zoom to the selected item"},
      {"h", "highlight the selected item's critical path"},
      {"/, ctrl+f", "search"},
      {"shift+s", "statistics"},
      {"shift+f", "findings: patterns that cost the run time or memory"},
      {"e / c", "expand everything / only avg lines"},
      {"escape", "clear the selected range, the chain, the clicked finding, then the selection"},
      {"?", "this help"},
  };
  ImGui::Text(
      "Shading: darkest running, lighter ready to resume, lightest blocked. Tiny items fold into\n"
      "light boxes of bars: each bar as tall as the share of its time they ran, in the colour\n"
      "of what ran longest there.");
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& k : kKeys) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void App::error_window() {
  if (show_error_ >= profile_->errors.size()) return;
  const analysis::ErrorMark& e = profile_->errors[show_error_];
  bool open = true;
  ImGui::SetNextWindowSize(ImVec2(760, 420), ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(40, 90), ImGuiCond_Appearing);
  if (ImGui::Begin("The run's error", &open, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::Text("%s on node %u at %s", error_phrase(e.kind).c_str(), e.rank,
                at_time(*profile_, e.time).c_str());
    ImGui::Separator();
    ImGui::BeginChild("message");
    ImGui::TextUnformatted(profile_->str(e.text).c_str());
    ImGui::EndChild();
  }
  ImGui::End();
  if (!open) show_error_ = SIZE_MAX;
}

}  // namespace legato::viewer
