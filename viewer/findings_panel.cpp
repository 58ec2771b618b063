// The Findings window (one row per finding, unfolding to its summary, lines,
// evidence, items and fix), what clicking a finding does to the timeline,
// the details window's links to an item's findings, and the findings' part
// of the state scripts dump.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "analysis/units.hpp"
#include "viewer/app.hpp"
#include "viewer/finding_focus.hpp"
#include "viewer/palette.hpp"

namespace legato::viewer {

using analysis::Finding;
using analysis::kNone;
using analysis::short_ns;

namespace {

constexpr float kSplitterHeight = 6;

ImVec4 severity_color(analysis::Severity s) {
  switch (s) {
    case analysis::Severity::High:
      return ImVec4(0.80f, 0.08f, 0.12f, 1);
    case analysis::Severity::Medium:
      return ImVec4(0.85f, 0.42f, 0.0f, 1);
    case analysis::Severity::Low:
      return ImVec4(0.62f, 0.52f, 0.0f, 1);
    default:
      return ImVec4(0.35f, 0.45f, 0.60f, 1);
  }
}

// Small text (the not-checked rules).
void small_disabled(const std::string& text) {
  ImGui::SetWindowFontScale(0.85f);
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::SetWindowFontScale(1);
}

}  // namespace

void App::focus_finding(int index) {
  if (!profile_ || index < 0 || static_cast<size_t>(index) >= findings_.findings.size()) {
    focused_ = -1;
    hl_.outlined.clear();
    return;
  }
  const analysis::Profile& p = *profile_;
  const FindingFocus f = focus_of(p, findings_.findings[static_cast<size_t>(index)]);
  focused_ = index;
  hl_.outlined = f.outline;
  camera_.set(f.t0, f.t1);
  for (uint32_t l : f.lanes) layout_.reveal(p, l);
  // All its lanes when they fit, else its own first (its items' may lie elsewhere).
  const float visible = view_.lanes_height();
  const float all = scroll_to_lanes(layout_, f.lanes, camera_.scroll(), visible);
  camera_.set_scroll(scroll_to_lanes(layout_, f.own, all, visible), layout_.height(), visible);
}

void App::scroll_to_finding(int index) {
  show_findings_ = !findings_.findings.empty();
  scroll_finding_ = index;
}

float App::findings_pane_height() const {
  if (!show_findings_ || findings_.findings.empty()) return 0;
  // What the timeline leaves: its ruler and a few rows stay.
  const float avail = ImGui::GetContentRegionAvail().y, most = avail - kAxisHeight - 60;
  if (most <= 0) return 0;
  const float h = findings_height_ > 0 ? findings_height_ : std::clamp(avail * 0.3f, 120.f, 340.f);
  return std::clamp(h, std::min(80.f, most), most);
}

void App::findings_pane(float height) {
  if (height <= 0) return;
  // A bar to drag: the pane grows upwards, the timeline gives way.
  const ImVec2 bar = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton("findings-splitter", ImVec2(width, kSplitterHeight));
  if (ImGui::IsItemActive()) findings_height_ = height - ImGui::GetIO().MouseDelta.y;
  if (ImGui::IsItemHovered() || ImGui::IsItemActive())
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  ImGui::GetWindowDrawList()->AddRectFilled(bar, ImVec2(bar.x + width, bar.y + kSplitterHeight),
                                            colors().splitter);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 6));
  ImGui::BeginChild("Findings", ImVec2(0, height - kSplitterHeight), false,
                    ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PopStyleVar();
  const ImVec2 a = ImGui::GetWindowPos(),
               b(a.x + ImGui::GetWindowWidth(), a.y + ImGui::GetWindowHeight());
  controls_["findings"] = ImVec4(a.x, a.y, b.x, b.y);
  const float hide_x = ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize("Hide").x -
                       2 * ImGui::GetStyle().FramePadding.x;
  ImGui::Text("Findings (%zu)", findings_.findings.size());
  ImGui::SameLine();
  std::string hint = "most severe first; click one to zoom to it and outline its items";
  if (focused_ >= 0) {
    if (ImGui::SmallButton("Clear")) focus_finding(-1);
    remember_control("clear-finding");
    ImGui::SameLine();
    if (focused_ >= 0)
      hint = "showing " + findings_.findings[static_cast<size_t>(focused_)].title +
             ": its window, its lanes, its items outlined in green";
  }
  // The hint as far as it fits before Hide.
  const float room = hide_x - ImGui::GetCursorPosX() - 8;
  if (room > 0) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::PushClipRect(at, ImVec2(at.x + room, at.y + ImGui::GetTextLineHeightWithSpacing()),
                        true);
    ImGui::TextDisabled("%s", hint.c_str());
    ImGui::PopClipRect();
  }
  ImGui::SameLine(std::max(hide_x, ImGui::GetCursorPosX()));
  if (ImGui::SmallButton("Hide")) show_findings_ = false;
  remember_control("hide-findings");
  ImGui::Separator();
  if (!findings_.note.empty()) ImGui::TextDisabled("%s", findings_.note.c_str());
  ImGui::BeginChild("list");
  // Columns: severity, title, cost and where, as wide as the widest of each.
  float sev_w = 0, title_w = 0, cost_w = 0;
  for (const Finding& g : findings_.findings) {
    sev_w = std::max(sev_w, ImGui::CalcTextSize(std::string(to_string(g.severity)).c_str()).x);
    title_w = std::max(title_w, ImGui::CalcTextSize(g.title.c_str()).x);
    cost_w = std::max(cost_w, ImGui::CalcTextSize(analysis::finding_cost(g).c_str()).x);
  }
  const float gap = 14;
  float x[4];
  x[0] = ImGui::GetCursorPosX() + ImGui::GetTreeNodeToLabelSpacing();
  x[1] = x[0] + sev_w + gap;
  x[2] = x[1] + title_w + gap;
  x[3] = x[2] + cost_w + gap;
  // The clicked finding's row light enough for its gray text to stay readable.
  ImGui::PushStyleColor(ImGuiCol_Header, ImVec4(0.80f, 0.88f, 1.0f, 1));
  ImGui::PushStyleColor(ImGuiCol_HeaderHovered, ImVec4(0.88f, 0.93f, 1.0f, 1));
  ImGui::PushStyleColor(ImGuiCol_HeaderActive, ImVec4(0.74f, 0.84f, 1.0f, 1));
  for (size_t k = 0; k < findings_.findings.size(); ++k) finding_row(static_cast<int>(k), x);
  ImGui::PopStyleColor(3);
  if (!findings_.skipped.empty()) {
    ImGui::Spacing();
    for (const analysis::Skipped& s : findings_.skipped)
      small_disabled("not checked: " + s.rule + ": " + s.reason);
  }
  ImGui::EndChild();
  ImGui::EndChild();
}

void App::finding_row(int index, const float* x) {
  const Finding& f = findings_.findings[static_cast<size_t>(index)];
  ImGui::PushID(index);
  if (scroll_finding_ == index) {
    ImGui::SetScrollHereY(0.1f);
    scroll_finding_ = -1;
  }
  const bool open = ImGui::TreeNodeEx(
      "##finding", ImGuiTreeNodeFlags_SpanAvailWidth | ImGuiTreeNodeFlags_AllowItemOverlap |
                       (focused_ == index ? ImGuiTreeNodeFlags_Selected : 0));
  if (ImGui::IsItemClicked()) focus_finding(index);
  if (ImGui::IsItemVisible()) remember_control("finding-" + std::to_string(index));
  ImGui::SameLine(x[0]);
  ImGui::TextColored(severity_color(f.severity), "%s", std::string(to_string(f.severity)).c_str());
  ImGui::SameLine(x[1]);
  ImGui::TextUnformatted(f.title.c_str());
  ImGui::SameLine(x[2]);
  ImGui::TextUnformatted(analysis::finding_cost(f).c_str());
  ImGui::SameLine(x[3]);
  ImGui::TextDisabled("%s", analysis::finding_where(*profile_, f).c_str());
  if (open) {
    finding_body(f);
    ImGui::TreePop();
  }
  ImGui::PopID();
}

void App::finding_body(const Finding& f) {
  const analysis::Profile& p = *profile_;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(f.summary.c_str());
  if (!f.lines.empty()) {
    ImGui::TextDisabled("Lines");
    for (const analysis::CodeLine& l : f.lines) {
      std::string text =
          l.where + "  " + analysis::grouped(l.items) + (l.items == 1 ? " item" : " items");
      if (l.cost > 0) text += ", " + short_ns(static_cast<double>(l.cost));
      if (l.bytes > 0) text += ", " + analysis::human_bytes(static_cast<double>(l.bytes));
      ImGui::Bullet();
      ImGui::TextUnformatted(text.c_str());
      if (!l.note.empty()) {
        ImGui::Indent();
        ImGui::TextDisabled("%s", l.note.c_str());
        ImGui::Unindent();
      }
    }
  }
  if (!f.evidence.empty()) {
    ImGui::TextDisabled("Evidence");
    std::string text;
    for (const analysis::Measure& m : f.evidence)
      text += (text.empty() ? "" : "; ") + m.label + " " + analysis::format_measure(m);
    ImGui::TextUnformatted(text.c_str());
  }
  if (!f.items.empty()) {
    ImGui::TextDisabled("For example (outlined in the timeline)");
    for (size_t k = 0; k < f.items.size(); ++k) {
      const uint32_t i = f.items[k];
      if (i >= p.items.size()) continue;
      ImGui::PushID(static_cast<int>(k));
      const std::string text = analysis::describe(p, i) + " at " +
                               short_ns(static_cast<double>(p.items[i].start - p.start)) + ", " +
                               short_ns(static_cast<double>(p.items[i].duration()));
      if (ImGui::SmallButton(text.c_str())) {
        select(i);
        reveal(i);
      }
      ImGui::PopID();
    }
  }
  if (!f.fix.empty()) {
    ImGui::TextDisabled("Fix");
    ImGui::TextUnformatted(f.fix.c_str());
  }
  if (!f.cost_basis.empty()) {
    ImGui::TextDisabled("How the cost was estimated");
    ImGui::TextUnformatted(f.cost_basis.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
}

void App::finding_links() {
  if (item_findings_.empty()) return;
  ImGui::Separator();
  ImGui::Text("In findings");
  for (int k : item_findings_) {
    const Finding& f = findings_.findings[static_cast<size_t>(k)];
    ImGui::PushID(k + 200000);
    ImGui::TextColored(severity_color(f.severity), "%s",
                       std::string(to_string(f.severity)).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(f.title.c_str())) {
      focus_finding(k);
      scroll_to_finding(k);
    }
    remember_control("item-finding-" + std::to_string(k));
    if (const std::string c = analysis::finding_cost(f); !c.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("%s", c.c_str());
    }
    ImGui::PopID();
  }
}

void App::findings_state(nlohmann::json& j) const {
  const analysis::Profile& p = *profile_;
  nlohmann::json list = nlohmann::json::array();
  for (size_t k = 0; k < findings_.findings.size(); ++k) {
    const Finding& f = findings_.findings[k];
    list.push_back({{"index", k},
                    {"rule", f.rule},
                    {"title", f.title},
                    {"severity", std::string(to_string(f.severity))},
                    {"cost_ns", f.cost},
                    {"cost_share", f.cost_share},
                    {"bytes", f.bytes},
                    {"cost", analysis::finding_cost(f)},
                    {"where", analysis::finding_where(p, f)},
                    {"t0", f.t0 - p.start},
                    {"t1", f.t1 - p.start},
                    {"lanes", f.lanes},
                    {"items", f.items}});
  }
  j["findings_ready"] = findings_ready_;
  j["findings"] = list;
  j["findings_note"] = findings_.note;
  nlohmann::json skipped = nlohmann::json::array();
  for (const analysis::Skipped& s : findings_.skipped)
    skipped.push_back({{"rule", s.rule}, {"reason", s.reason}});
  j["not_checked"] = skipped;
  j["finding"] = focused_;
  j["outlined"] = hl_.outlined;
  j["outlined_drawn"] = view_.outlined_drawn();
  // Lanes with a row (unfolded), and those whose row's top line is on screen.
  const ImVec2 lanes = view_.lanes_origin();
  const float bottom = lanes.y + view_.lanes_height();
  nlohmann::json shown = nlohmann::json::array(), on_screen = nlohmann::json::array();
  for (const LayoutRow& r : layout_.rows()) {
    if (r.lane == kNone) continue;
    shown.push_back(r.lane);
    const float top = lanes.y - camera_.scroll() + r.y;
    if (top >= lanes.y - 0.5f && top + std::min(r.h, kRowHeight) <= bottom + 0.5f)
      on_screen.push_back(r.lane);
  }
  j["lanes_shown"] = shown;
  j["lanes_on_screen"] = on_screen;
}

}  // namespace legato::viewer
