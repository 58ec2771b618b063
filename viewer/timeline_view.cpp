#include "viewer/timeline_view.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/fold_summary.hpp"
#include "analysis/palette.hpp"
#include "analysis/units.hpp"
#include "viewer/palette.hpp"

namespace legato::viewer {

using analysis::Item;
using analysis::kNone;
using analysis::Profile;
using analysis::Time;

namespace {

constexpr ImU32 kWhite = IM_COL32(255, 255, 255, 255);

bool any_in(const std::vector<uint32_t>& sorted, uint32_t first, uint32_t count) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), first);
  return it != sorted.end() && *it < first + count;
}

ImU32 outline_of(const Highlights& hl, uint32_t first, uint32_t count) {
  const auto in = [&](uint32_t i) { return i != kNone && i >= first && i < first + count; };
  if (in(hl.flash)) return colors().flash;
  if (in(hl.selected)) return colors().selected;
  if (any_in(hl.outlined, first, count)) return colors().outlined;
  if (any_in(hl.chain_sorted, first, count)) return colors().chain;
  if (any_in(hl.hits, first, count)) return colors().hit;
  return 0;
}

// White on dark fills, dark on light ones (blocked and ready shading).
ImU32 text_color_on(ImU32 fill) {
  const auto byte = [fill](int shift) { return static_cast<uint8_t>((fill >> shift) & 0xff); };
  const analysis::Rgb c =
      analysis::label_rgb({byte(IM_COL32_R_SHIFT), byte(IM_COL32_G_SHIFT), byte(IM_COL32_B_SHIFT)});
  return IM_COL32(c.r, c.g, c.b, 255);
}

}  // namespace

float TimelineView::screen_x(Time t, const Camera& cam) const {
  // Far outside the view folds to just outside it, so float vertices stay
  // exact when zoomed in to nanoseconds on a long run.
  const double left = lanes_origin().x, right = left + lanes_width();
  return static_cast<float>(std::clamp(cam.x_of(static_cast<double>(t), lanes_width()) + left,
                                       left - 16.0, right + 16.0));
}

void TimelineView::box_text(ImDrawList* dl, const std::string& text, float x0, float x1, float y,
                            float h, ImU32 color) const {
  const float left = lanes_origin().x, right = left + lanes_width();
  const float x = std::max(x0, left) + 3;
  const ImVec4 clip(x - 1, y, std::min(x1, right) - 2, y + h);
  dl->AddText(nullptr, 0, ImVec2(x, y + (h - ImGui::GetFontSize()) / 2), color, text.data(),
              text.data() + text.size(), 0, &clip);
}

const char* error_tag(trace::ErrorKind kind) {
  switch (kind) {
    case trace::ErrorKind::OutOfMemory:
      return "out of memory";
    case trace::ErrorKind::Signal:
      return "crash";
    case trace::ErrorKind::Warning:
      return "warning";
    default:
      return "fatal error";
  }
}

std::string at_time(const Profile& p, Time t) {
  return analysis::human_ns(static_cast<double>(t - p.start));
}

std::string tick_label(double ns, double step) {
  struct Unit {
    double scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
  const Unit* u = &kUnits[0];
  for (const Unit& c : kUnits)  // 500 us steps read as 0.5 ms, 1.5 ms, ...
    if (step * 2 >= c.scale) u = &c;
  const int decimals =
      std::max(0, static_cast<int>(std::ceil(-std::log10(step / u->scale) - 1e-9)));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, ns / u->scale, u->name);
  return buf;
}

void TimelineView::draw(ImDrawList* dl, ImVec2 origin, ImVec2 size, const Profile& p,
                        const Layout& layout, const Camera& cam, const UtilizationCache& util,
                        const Highlights& hl) {
  origin_ = origin;
  label_width_ =
      std::clamp(24 + static_cast<float>(layout.longest_label()) * ImGui::CalcTextSize("M").x,
                 kMinLabelWidth, kMaxLabelWidth);
  size_ = ImVec2(std::max(size.x, label_width_ + 1), std::max(size.y, kAxisHeight + 1));
  hits_.clear();
  outlined_drawn_ = 0;
  const ImVec2 end(origin.x + size_.x, origin.y + size_.y);
  dl->AddRectFilled(origin, end, colors().background);
  const ImVec2 lanes = lanes_origin();
  dl->PushClipRect(ImVec2(lanes.x, lanes.y), end, true);
  const auto& rows = layout.rows();
  const float top0 = lanes.y - cam.scroll();
  for (int r = std::max(0, layout.row_at(cam.scroll())); r < static_cast<int>(rows.size()); ++r) {
    const LayoutRow& row = rows[static_cast<size_t>(r)];
    const float top = top0 + row.y;
    if (top > end.y) break;
    if (row.type == RowType::Node) {
      dl->AddRectFilled(ImVec2(lanes.x, top), ImVec2(end.x, top + row.h), colors().node_header);
    } else if (row.type == RowType::Avg) {
      draw_avg(dl, row, top, cam, util);
    } else {
      draw_lane(dl, p, row, top, cam, hl);
    }
    if (!p.lost.empty()) draw_lost(dl, p, row, top, cam);
    dl->AddLine(ImVec2(lanes.x, top + row.h - 0.5f), ImVec2(end.x, top + row.h - 0.5f),
                colors().row_line);
  }
  draw_chain(dl, p, layout, cam, hl);
  // Where the visible rows lie in all of them, when they do not all fit.
  if (layout.height() > lanes_height()) {
    const float track = lanes_height(), thumb = std::max(20.f, track * track / layout.height());
    const float at = lanes.y + (track - thumb) * cam.scroll() / (layout.height() - track);
    dl->AddRectFilled(ImVec2(end.x - 6, at), ImVec2(end.x - 2, at + thumb), colors().scroll_thumb,
                      2);
  }
  const auto length = [&](double ns) { return analysis::short_ns(std::fabs(ns)); };
  if (hl.mark) {
    draw_band(dl, screen_x(static_cast<Time>(hl.mark->first), cam),
              screen_x(static_cast<Time>(hl.mark->second), cam), colors().mark, colors().mark_edge,
              "mark " + length(hl.mark->second - hl.mark->first));
  }
  if (hl.range) {
    draw_band(dl, screen_x(static_cast<Time>(hl.range->first), cam),
              screen_x(static_cast<Time>(hl.range->second), cam), colors().selection,
              colors().selection_edge, length(hl.range->second - hl.range->first));
  }
  if (hl.selecting) {
    const float a = lanes.x + std::min(hl.selecting->first, hl.selecting->second);
    const float b = lanes.x + std::max(hl.selecting->first, hl.selecting->second);
    draw_band(dl, a, b, colors().selection, colors().selection_edge,
              length((b - a) / lanes_width() * cam.span()));
  }
  dl->PopClipRect();
  draw_labels(dl, layout, cam);
  draw_axis(dl, cam);
  draw_errors(dl, p, cam);
}

void TimelineView::draw_lost(ImDrawList* dl, const Profile& p, const LayoutRow& row, float top,
                             const Camera& cam) const {
  if (row.type == RowType::Node || row.rank == analysis::kAllNodes) return;
  const float left = lanes_origin().x, right = left + lanes_width();
  for (const analysis::LostSpan& l : p.lost) {
    if (l.rank != row.rank) continue;
    const float x0 = std::max(screen_x(l.from, cam), left);
    const float x1 = std::min(std::max(screen_x(l.to, cam), x0 + 2), right);
    if (x1 <= left || x0 >= right) continue;
    const ImVec2 a(x0, top), b(x1, top + row.h - 1);
    dl->AddRectFilled(a, b, colors().lost_fill);
    // Diagonal hatching, clipped to the span.
    dl->PushClipRect(a, b, true);
    for (float x = x0 - row.h; x < x1; x += 7)
      dl->AddLine(ImVec2(x, b.y), ImVec2(x + row.h, a.y), colors().lost_hatch);
    dl->PopClipRect();
  }
}

void TimelineView::draw_band(ImDrawList* dl, float x0, float x1, ImU32 fill, ImU32 edge,
                             const std::string& length) const {
  const ImVec2 lanes = lanes_origin();
  const float bottom = origin_.y + size_.y;
  if (x1 < x0) std::swap(x0, x1);
  dl->AddRectFilled(ImVec2(x0, lanes.y), ImVec2(std::max(x1, x0 + 1), bottom), fill);
  dl->AddLine(ImVec2(x0, lanes.y), ImVec2(x0, bottom), edge);
  dl->AddLine(ImVec2(x1, lanes.y), ImVec2(x1, bottom), edge);
  // The length on a tag at the band's top, centred, kept on screen.
  const ImVec2 text = ImGui::CalcTextSize(length.c_str());
  const float left = lanes.x, right = lanes.x + lanes_width();
  const float x =
      std::clamp((x0 + x1 - text.x) / 2, left + 2, std::max(left + 2, right - text.x - 6));
  dl->AddRectFilled(ImVec2(x - 3, lanes.y + 2), ImVec2(x + text.x + 3, lanes.y + text.y + 4), edge,
                    3);
  dl->AddText(ImVec2(x, lanes.y + 3), kWhite, length.c_str());
}

void TimelineView::draw_axis(ImDrawList* dl, const Camera& cam) const {
  const ImVec2 a = origin_, b(origin_.x + size_.x, origin_.y + kAxisHeight);
  dl->AddRectFilled(a, b, colors().axis);
  dl->AddLine(ImVec2(a.x, b.y - 0.5f), ImVec2(b.x, b.y - 0.5f), colors().axis_line);
  const std::string span = "span " + analysis::short_ns(cam.span());
  dl->AddText(ImVec2(a.x + 6, a.y + 5), colors().axis_text, span.c_str());
  const double target = cam.span() / std::max(1.0, lanes_width() / 110.0);
  const double pow10 = std::pow(10.0, std::floor(std::log10(std::max(target, 1.0))));
  double step = 10 * pow10;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * pow10 >= target) {
      step = m * pow10;
      break;
    }
  }
  dl->PushClipRect(ImVec2(lanes_origin().x, a.y), b, true);
  const double origin = cam.run_start();
  for (double t = std::ceil((cam.t0() - origin) / step) * step + origin; t < cam.t1(); t += step) {
    const float x = x_of(t, cam);
    dl->AddLine(ImVec2(x, b.y - 6), ImVec2(x, b.y), colors().axis_text);
    const std::string label = tick_label(t - origin, step);
    dl->AddText(ImVec2(x + 3, a.y + 4), colors().axis_text, label.c_str());
  }
  dl->PopClipRect();
}

void TimelineView::draw_avg(ImDrawList* dl, const LayoutRow& row, float top, const Camera& cam,
                            const UtilizationCache& util) {
  const analysis::UtilizationLine* curve = util.get(row.rank, row.kind);
  const float left = lanes_origin().x;
  if (!curve) {
    dl->AddText(ImVec2(left + 6, top + 6), colors().axis_text, "computing utilization...");
    return;
  }
  if (!curve->known()) {
    dl->AddText(ImVec2(left + 6, top + 6), colors().axis_text,
                "utilization unknown: the trace gives no size for these memories");
    return;
  }
  const int n = std::max(1, static_cast<int>(lanes_width() / 2));
  const std::vector<float> values = curve->sample(static_cast<Time>(std::floor(cam.t0())),
                                                  static_cast<Time>(std::ceil(cam.t1())), n);
  const float h = row.h - 4, base = top + row.h - 2, w = lanes_width() / static_cast<float>(n);
  // Runs of equal buckets become one rectangle and one segment of the line.
  points_.clear();
  float run_x = left, run_y = base;
  for (int k = 0; k <= n; ++k) {
    const float y = k == n ? -1 : base - std::clamp(values[static_cast<size_t>(k)], 0.f, 1.f) * h;
    if (k > 0 && y == run_y) continue;
    const float x = left + static_cast<float>(k) * w;
    if (k > 0) {
      if (run_y < base) dl->AddRectFilled(ImVec2(run_x, run_y), ImVec2(x, base), colors().avg_fill);
      points_.push_back(ImVec2(run_x, run_y));
      points_.push_back(ImVec2(x, run_y));
    }
    run_x = x;
    run_y = y;
  }
  dl->AddPolyline(points_.data(), static_cast<int>(points_.size()), colors().avg_line, 0, 1.0f);
}

void TimelineView::draw_lane(ImDrawList* dl, const Profile& p, const LayoutRow& row, float top,
                             const Camera& cam, const Highlights& hl) {
  analysis::Window w;
  w.t0 = static_cast<Time>(std::floor(cam.t0()));
  w.t1 = static_cast<Time>(std::ceil(cam.t1()));
  w.ns_per_px = cam.span() / lanes_width();
  w.min_px = kMinBoxPx;
  boxes_.clear();
  analysis::visible_boxes(p, row.lane, w, boxes_);
  for (const analysis::DrawBox& b : boxes_) {
    const float y = top + 1 + static_cast<float>(b.row) * kRowHeight, h = kRowHeight - 2;
    const float x0 = screen_x(b.start, cam);
    float x1 = screen_x(b.stop, cam);
    if (b.item != kNone) {
      x1 = std::max(x1, x0 + 1);
      draw_item(dl, p, b.item, x0, x1, y, h, cam);
    } else {
      x1 = std::max(x1, x0 + kMinBoxPx);
      draw_folded(dl, p, b, x0, x1, y, h, cam);
    }
    if (const ImU32 c = outline_of(hl, b.first, b.count)) {
      if (c == colors().outlined) {
        // A finding's items stand out even as slivers (at least 8 px wide) and
        // on boxes of any color (a dark edge around the bright one).
        const float grow = std::max(0.f, (8 - (x1 - x0)) / 2);
        dl->AddRect(ImVec2(x0 - 4 - grow, y - 4), ImVec2(x1 + 4 + grow, y + h + 4),
                    colors().outlined_edge, 0, 0, 1.5f);
        dl->AddRect(ImVec2(x0 - 2 - grow, y - 2), ImVec2(x1 + 2 + grow, y + h + 2), c, 0, 0, 3.0f);
        ++outlined_drawn_;
      } else {
        dl->AddRect(ImVec2(x0 - 1, y - 1), ImVec2(x1 + 1, y + h + 1), c, 0, 0, 2.0f);
      }
    }
    hits_.push_back(HitBox{x0, x1, y, y + h, b.first, b.count, b.start, b.stop, b.busy});
  }
}

void TimelineView::draw_item(ImDrawList* dl, const Profile& p, uint32_t i, float x0, float x1,
                             float y, float h, const Camera& cam) {
  const Item& it = p.items[i];
  const float text_x = std::max(x0, lanes_origin().x) + 3;  // where box_text starts
  ImU32 under_text = colors_.get(p, i, analysis::State::Running);
  const auto [w0, w1] = p.waits_of(i);
  if (static_cast<float>(w1 - w0) * 3 > lanes_width()) {
    under_text = draw_pixel_states(dl, p, i, x0, x1, y, h, cam, text_x);
  } else if (it.flags & analysis::kItemHasWaits) {
    // Only the segments in view: a task running through the whole run may
    // wait a million times.
    for (const analysis::Segment& s :
         analysis::states(p, i, static_cast<Time>(std::floor(cam.t0())),
                          static_cast<Time>(std::ceil(cam.t1())))) {
      const float a = screen_x(s.start, cam), b = screen_x(s.stop, cam);
      const ImU32 color = colors_.get(p, i, s.state);
      dl->AddRectFilled(ImVec2(a, y), ImVec2(std::max(b, a + 1), y + h), color);
      if (a <= text_x && text_x < b) under_text = color;
    }
  } else {
    dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + h), under_text);
  }
  if (x1 - x0 > 40) box_text(dl, p.label(i), x0, x1, y, h, text_color_on(under_text));
}

ImU32 TimelineView::draw_pixel_states(ImDrawList* dl, const Profile& p, uint32_t i, float x0,
                                      float x1, float y, float h, const Camera& cam, float text_x) {
  if (sums_of_ != &p) {
    sums_.clear();
    sums_of_ = &p;
  }
  auto found = sums_.find(i);
  if (found == sums_.end()) found = sums_.emplace(i, analysis::StateSums(p, i)).first;
  const float left = lanes_origin().x;
  const int first = std::max(0, static_cast<int>(std::floor(x0 - left)));
  const int last =
      std::min(static_cast<int>(std::ceil(lanes_width())), static_cast<int>(std::ceil(x1 - left)));
  ImU32 under_text = colors_.get(p, i, analysis::State::Running);
  if (last <= first) return under_text;
  const double ns_per_px = cam.span() / lanes_width();
  analysis::pixel_states(p, i, found->second, cam.t0() + first * ns_per_px, ns_per_px, last - first,
                         runs_);
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (runs_[r].empty) continue;
    const int end = r + 1 < runs_.size() ? runs_[r + 1].first : last - first;
    const float a = left + static_cast<float>(first + runs_[r].first);
    const float b = left + static_cast<float>(first + end);
    const ImU32 color = colors_.get(p, i, runs_[r].state);
    dl->AddRectFilled(ImVec2(a, y), ImVec2(b, y + h), color);
    if (a <= text_x && text_x < b) under_text = color;
  }
  return under_text;
}

void TimelineView::draw_folded(ImDrawList* dl, const Profile& p, const analysis::DrawBox& b,
                               float x0, float x1, float y, float h, const Camera& cam) {
  // A light box where the items lie; in it a bar per column of kMinBoxPx
  // pixels, as tall as the share of the column's time its items ran, in the
  // colour of the name and kind that ran longest there.
  dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + h), colors().folded);
  columns_.clear();
  const double width = kMinBoxPx * cam.span() / lanes_width();
  analysis::fold_columns(p, b, cam.t0(), width, columns_);
  // Neighbouring columns mostly lead with the same name and kind, and
  // alike ones (same colour, same height in whole pixels) are drawn as one.
  uint32_t key = kNone;
  ImU32 color = 0;
  float run_a = 0, run_e = 0, run_bar = 0;
  ImU32 run_color = 0;
  const auto flush = [&] {
    if (run_e > run_a)
      dl->AddRectFilled(ImVec2(run_a, y + h - run_bar), ImVec2(run_e, y + h), run_color);
  };
  for (const analysis::FoldColumn& c : columns_) {
    const float a = std::max(x0, x_of(c.start, cam));
    const float e = std::max(std::min(x1, x_of(c.stop, cam)), a + 1);
    const double share = std::min(1.0, static_cast<double>(c.busy) / width);
    const float bar = std::max(2.f, std::round(static_cast<float>(share) * h));
    if (analysis::lead_key(p.items[c.lead]) != key) {
      key = analysis::lead_key(p.items[c.lead]);
      color = colors_.get(p, c.lead, analysis::State::Running);
    }
    if (color == run_color && bar == run_bar && a <= run_e) {
      run_e = e;
      continue;
    }
    flush();
    run_a = a, run_e = e, run_bar = bar, run_color = color;
  }
  flush();
}

void TimelineView::draw_chain(ImDrawList* dl, const Profile& p, const Layout& layout,
                              const Camera& cam, const Highlights& hl) const {
  const float left = lanes_origin().x, right = left + lanes_width();
  const float base = lanes_origin().y - cam.scroll();
  for (size_t k = 0; k + 1 < hl.chain.size(); ++k) {
    const uint32_t later = hl.chain[k], earlier = hl.chain[k + 1];
    const float xa = screen_x(p.items[earlier].stop(), cam),
                xb = screen_x(p.items[later].start, cam);
    if ((xa < left && xb < left) || (xa > right && xb > right)) continue;
    float ha = 0, hb = 0;
    const float ya = base + layout.item_y(p, earlier, &ha) + ha / 2;
    const float yb = base + layout.item_y(p, later, &hb) + hb / 2;
    const ImVec2 a(xa, ya), b(xb, yb);
    dl->AddLine(a, b, colors().chain, 1.5f);
    dl->AddCircleFilled(b, 3, colors().chain);
  }
}

void TimelineView::draw_errors(ImDrawList* dl, const Profile& p, const Camera& cam) const {
  const float left = lanes_origin().x, right = left + lanes_width();
  for (const analysis::ErrorMark& e : p.errors) {
    const float x = x_of(static_cast<double>(e.time), cam);
    if (x < left || x > right) continue;
    dl->AddRectFilled(ImVec2(x - 1, origin_.y + kAxisHeight), ImVec2(x + 1, origin_.y + size_.y),
                      colors().error);
    const char* tag = error_tag(e.kind);
    const float tw = ImGui::CalcTextSize(tag).x + 8, tx = std::min(x, right - tw);
    dl->AddRectFilled(ImVec2(tx, origin_.y + 2), ImVec2(tx + tw, origin_.y + kAxisHeight - 2),
                      colors().error);
    dl->AddText(ImVec2(tx + 4, origin_.y + 5), kWhite, tag);
  }
}

void TimelineView::draw_labels(ImDrawList* dl, const Layout& layout, const Camera& cam) const {
  const ImVec2 a(origin_.x, origin_.y + kAxisHeight),
      b(origin_.x + label_width_, origin_.y + size_.y);
  dl->PushClipRect(a, b, true);
  dl->AddRectFilled(a, b, colors().label_column);
  const auto& rows = layout.rows();
  for (int r = std::max(0, layout.row_at(cam.scroll())); r < static_cast<int>(rows.size()); ++r) {
    const LayoutRow& row = rows[static_cast<size_t>(r)];
    const float top = a.y - cam.scroll() + row.y;
    if (top > b.y) break;
    const float font = ImGui::GetFontSize();
    float x = a.x + 6;
    if (row.type == RowType::Node) {
      dl->AddRectFilled(ImVec2(a.x, top), ImVec2(b.x, top + row.h), colors().node_header);
    } else {
      x += row.type == RowType::Lane ? 26 : 10;
    }
    const float y =
        row.type == RowType::Lane ? top + (kRowHeight - font) / 2 + 1 : top + (row.h - font) / 2;
    if (!row.key.empty()) {
      ImGui::RenderArrow(dl, ImVec2(x, y), colors().axis_text,
                         row.collapsed ? ImGuiDir_Right : ImGuiDir_Down, 0.7f);
      x += font;
    }
    dl->AddText(ImVec2(x, y), colors().text, row.text.c_str());
    dl->AddLine(ImVec2(a.x, top + row.h - 0.5f), ImVec2(b.x, top + row.h - 0.5f),
                colors().row_line);
  }
  dl->AddLine(ImVec2(b.x - 0.5f, a.y), ImVec2(b.x - 0.5f, b.y), colors().axis_line);
  dl->PopClipRect();
}

Pick TimelineView::pick(ImVec2 m, const Profile& p, const Layout& layout, const Camera& cam,
                        const UtilizationCache& util) const {
  Pick out;
  const ImVec2 lanes = lanes_origin();
  if (m.x < origin_.x || m.y < origin_.y || m.x >= origin_.x + size_.x ||
      m.y >= origin_.y + size_.y)
    return out;
  out.time = cam.time_at(m.x - lanes.x, lanes_width());
  for (size_t e = 0; e < p.errors.size(); ++e) {
    if (m.x >= lanes.x && std::fabs(x_of(static_cast<double>(p.errors[e].time), cam) - m.x) <= 3) {
      out.type = Pick::Type::Error;
      out.error = e;
      return out;
    }
  }
  if (m.y < lanes.y) {
    out.type = Pick::Type::Axis;
    return out;
  }
  out.row = layout.row_at(m.y - lanes.y + cam.scroll());
  if (m.x < lanes.x) {
    out.type = out.row >= 0 ? Pick::Type::Label : Pick::Type::None;
    return out;
  }
  // An item under the mouse wins over a box of folded items widened to
  // kMinBoxPx beside it; a pixel's slack only when nothing is right under it.
  const HitBox* under = nullptr;
  for (const HitBox& h : hits_) {
    if (m.x >= h.x0 && m.x <= h.x1 && m.y >= h.y0 && m.y <= h.y1 && (!under || h.count == 1)) {
      under = &h;
      if (h.count == 1) break;
    }
  }
  if (!under) {
    for (const HitBox& h : hits_) {
      if (m.x >= h.x0 - 1 && m.x <= h.x1 + 1 && m.y >= h.y0 && m.y <= h.y1) {
        under = &h;
        break;
      }
    }
  }
  if (under) {
    out.type = under->count == 1 ? Pick::Type::Item : Pick::Type::Merged;
    out.item = under->first;
    out.count = under->count;
    out.start = under->start;
    out.stop = under->stop;
    out.busy = under->busy;
    return out;
  }
  // Where the node's records were lost (hatched).
  if (out.row >= 0) {
    const LayoutRow& row = layout.rows()[static_cast<size_t>(out.row)];
    for (size_t l = 0; l < p.lost.size(); ++l) {
      const analysis::LostSpan& s = p.lost[l];
      if (row.type != RowType::Node && s.rank == row.rank &&
          out.time >= static_cast<double>(s.from) && out.time <= static_cast<double>(s.to)) {
        out.type = Pick::Type::Lost;
        out.error = l;
        return out;
      }
    }
  }
  if (out.row >= 0 && layout.rows()[static_cast<size_t>(out.row)].type == RowType::Avg) {
    const LayoutRow& row = layout.rows()[static_cast<size_t>(out.row)];
    if (const auto* curve = util.get(row.rank, row.kind)) {
      const double px = cam.span() / lanes_width();
      out.type = Pick::Type::Avg;
      out.value = curve->known() ? curve->average(static_cast<Time>(out.time - px),
                                                  static_cast<Time>(out.time + px))
                                 : std::nan("");
    }
  }
  return out;
}

std::optional<ImVec4> TimelineView::item_rect(uint32_t item) const {
  for (const HitBox& h : hits_) {
    if (h.count == 1 && h.first == item) return ImVec4(h.x0, h.y0, h.x1, h.y1);
  }
  return std::nullopt;
}

}  // namespace legato::viewer
