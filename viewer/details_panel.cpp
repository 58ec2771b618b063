// The details window of the selected item (its times, what it waited for,
// its preconditions and the critical path as links) and the hover tooltip.
#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/fold_summary.hpp"
#include "analysis/units.hpp"
#include "analysis/utilization.hpp"
#include "viewer/app.hpp"

namespace legato::viewer {

using analysis::human_ns;
using analysis::kNone;

namespace {

void field(const char* name, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", name);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextWrapped("%s", value.c_str());
}

// A duration to three digits ("200 ms"); the exact nanoseconds on hover.
void duration_field(const char* name, analysis::Time ns) {
  field(name, analysis::short_ns(static_cast<double>(ns)));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "%s ns", analysis::grouped(static_cast<uint64_t>(std::max<analysis::Time>(ns, 0))).c_str());
}

}  // namespace

void App::precondition_row(const analysis::Precondition& pre, bool critical, int index) {
  const analysis::Profile& p = *profile_;
  ImGui::PushID(index);
  if (ImGui::SmallButton("go to")) {
    select(pre.item);
    reveal(pre.item);
  }
  if (critical) remember_control("critical");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", std::string(analysis::precondition_name(pre.kind)).c_str());
  ImGui::SameLine();
  const analysis::Item& it = p.items[pre.item];
  ImGui::Text("%s, ended %s", analysis::describe(p, pre.item).c_str(),
              at_time(p, it.stop()).c_str());
  if (critical) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "last to finish");
  }
  ImGui::PopID();
}

void App::details_window() {
  if (!details_) return;
  const analysis::Profile& p = *profile_;
  const analysis::ItemDetails d = *details_;  // a link below may select another item
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - 520, 60), ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(500, 460), ImGuiCond_Appearing);
  bool open = true;
  if (!ImGui::Begin("Details", &open, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  ImGui::TextWrapped("%s (%s)", d.name.c_str(), std::string(p.kind_name(d.item)).c_str());
  if (ImGui::Button("Zoom to item")) zoom_to_selected();
  remember_control("zoom-item");
  ImGui::SameLine();
  const bool chain_shown = !hl_.chain.empty() && hl_.chain.front() == d.item;
  if (ImGui::Button(chain_shown ? "Clear chain" : "Highlight chain")) toggle_chain();
  remember_control("chain");
  if (!back_.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Back")) {
      const uint32_t prev = back_.back();
      back_.pop_back();
      select(prev, false);
      reveal(prev);
    }
    remember_control("back");
  }
  if (chain_shown) {
    const analysis::Item& first = p.items[hl_.chain.back()];
    ImGui::TextDisabled("critical path: %zu items from %s to %s", hl_.chain.size(),
                        at_time(p, first.start).c_str(),
                        at_time(p, p.items[d.item].stop()).c_str());
  }
  if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 170);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    if (!d.signature.empty()) field("signature", d.signature);
    field("lane", d.lane);
    if (!d.operation.empty()) field("operation", d.operation);
    if (!d.operation.empty()) field("op id", std::to_string(d.op_id));
    if (!d.provenance.empty()) field("provenance", d.provenance);
    if (d.creator != kNone) field("issued by", p.str(p.operations[d.creator].name));
    field("start", at_time(p, d.start));
    duration_field("duration", d.stop - d.start);
    if (d.kind != analysis::ItemKind::Instance) {
      field("created", at_time(p, d.create));
      field("ready", at_time(p, d.ready));
      duration_field("waiting for preconditions", d.waiting_for_dependencies);
      duration_field("waiting for a processor", d.waiting_for_processor);
      if (d.operation_runtime > 0) {
        duration_field("runtime work for its operation", d.operation_runtime);
        if (d.runtime_overhead != d.operation_runtime)
          duration_field("  its share (per item)", d.runtime_overhead);
      }
      duration_field("running", d.running);
      if (d.blocked || d.resuming) {
        duration_field("blocked", d.blocked);
        duration_field("ready to resume", d.resuming);
      }
    } else {
      field("allocated", at_time(p, d.ready));
    }
    if (d.bytes)
      field("bytes", analysis::grouped(d.bytes) + " (" +
                         analysis::human_bytes(static_cast<double>(d.bytes)) + ")");
    if (d.bandwidth > 0) field("bandwidth", analysis::human_bytes(d.bandwidth) + "/s");
    ImGui::EndTable();
  }
  if (d.previous != kNone) {
    ImGui::TextDisabled("before it on the lane:");
    ImGui::SameLine();
    if (ImGui::SmallButton(analysis::describe(p, d.previous).c_str())) {
      select(d.previous);
      reveal(d.previous);
    }
  }
  ImGui::Separator();
  if (d.critical != kNone) {
    ImGui::Text("Why did it not start earlier?");
    precondition_row(analysis::Precondition{d.critical, d.critical_kind}, true, -1);
  } else {
    ImGui::TextDisabled("No recorded precondition: it could start when it was created.");
  }
  if (!d.preconditions.empty() &&
      ImGui::CollapsingHeader(
          ("Preconditions (" + std::to_string(d.preconditions.size()) + ")").c_str())) {
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(d.preconditions.size()));
    while (clip.Step()) {
      for (int k = clip.DisplayStart; k < clip.DisplayEnd; ++k)
        precondition_row(d.preconditions[static_cast<size_t>(k)], false, k);
    }
  }
  const bool waits_open =
      !d.noted_waits.empty() &&
      ImGui::CollapsingHeader(
          ("Where it waited (" + std::to_string(d.noted_waits.size()) + ")").c_str());
  if (!d.noted_waits.empty()) remember_control("waits");
  if (waits_open) {
    for (size_t k = 0; k < d.noted_waits.size(); ++k) {
      const analysis::WaitDetail& w = d.noted_waits[k];
      ImGui::PushID(static_cast<int>(k) + 100000);
      ImGui::Text("at %s, blocked %s", at_time(p, w.start).c_str(),
                  analysis::short_ns(static_cast<double>(w.ready - w.start)).c_str());
      if (w.event != kNone) {
        ImGui::SameLine();
        ImGui::TextDisabled("on");
        ImGui::SameLine();
        if (ImGui::SmallButton(analysis::describe(p, w.event).c_str())) {
          select(w.event);
          reveal(w.event);
        }
      }
      ImGui::TextWrapped("%s", w.note.c_str());
      ImGui::PopID();
    }
  }
  finding_links();
  ImGui::End();
  if (!open) {
    details_.reset();
    hl_.selected = kNone;
  }
}

void App::tooltip(const Pick& pick) {
  const analysis::Profile& p = *profile_;
  std::string text;
  switch (pick.type) {
    case Pick::Type::Item: {
      const analysis::Item& it = p.items[pick.item];
      text = analysis::describe(p, pick.item) + "\n" +
             human_ns(static_cast<double>(it.duration())) + " from " + at_time(p, it.start);
      if (it.op != kNone && p.operations[it.op].provenance)
        text += "\n" + p.str(p.operations[it.op].provenance);
      uint64_t bytes = 0;  // none, or a damaged size the model left out
      if (const analysis::CopyInfo* copy = p.copy_of(it)) bytes = copy->bytes;
      if (const analysis::InstanceInfo* info = p.instance_of(it)) bytes = info->bytes;
      if (bytes) text += "\n" + analysis::human_bytes(static_cast<double>(bytes));
      text += "\n(click for details)";
      break;
    }
    case Pick::Type::Merged:
      text = analysis::grouped(pick.count) + " items folded, " +
             human_ns(static_cast<double>(pick.busy)) + " busy in " +
             human_ns(static_cast<double>(pick.stop - pick.start));
      for (const analysis::Share& s : analysis::leading(p, pick.item, pick.item + pick.count, 3)) {
        char share[16];
        std::snprintf(share, sizeof share, "%.0f%%", 100 * s.share);
        text += "\n" + std::string(share) + "  " + p.label(s.item) + " (" +
                std::string(p.kind_name(s.item)) + ")";
      }
      text += "\n(click to zoom in)";
      break;
    case Pick::Type::Avg: {
      const LayoutRow& row = layout_.rows()[static_cast<size_t>(pick.row)];
      char buf[96];
      if (std::isnan(pick.value)) {
        std::snprintf(buf, sizeof buf, "unknown at %s (no size given for these memories)",
                      human_ns(pick.time - camera_.run_start()).c_str());
      } else {
        std::snprintf(buf, sizeof buf, "%.1f%% at %s", pick.value * 100,
                      human_ns(pick.time - camera_.run_start()).c_str());
      }
      text = row.text + ": " + buf;
      if (analysis::sized_by_instances(p, row.kind, row.rank))
        text += "\n(of the bytes of all their instances: the trace gives no capacity)";
      break;
    }
    case Pick::Type::Lost: {
      const analysis::LostSpan& l = p.lost[pick.error];
      text = "records lost here, " + at_time(p, l.from) + " to " + at_time(p, l.to) + " on node " +
             std::to_string(l.rank) + ": " + l.why +
             (l.records ? " (" + analysis::grouped(l.records) + " records)" : "") +
             "\nwhat ran here is not known; this is not idle time";
      break;
    }
    case Pick::Type::Error: {
      const analysis::ErrorMark& e = p.errors[pick.error];
      const std::string& msg = p.str(e.text);
      text = msg.substr(0, msg.find('\n')) + "\n(click for the whole message)";
      break;
    }
    default:
      break;
  }
  tooltip_ = text;
  if (text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace legato::viewer
