#include "viewer/app.hpp"

#include <glob.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>

#include "analysis/stats.hpp"
#include "analysis/units.hpp"
#include "load/load.hpp"
#include "viewer/finding_focus.hpp"
#include "viewer/palette.hpp"

namespace legato::viewer {

using analysis::kNone;

std::optional<std::pair<double, double>> parse_range(const std::string& text, std::string* error) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) {
    *error = "expected START:END, e.g. 0:1.5ms or 200us:";
    return std::nullopt;
  }
  const auto a = analysis::parse_duration_ns(text.substr(0, colon));
  const std::string end_text = text.substr(colon + 1);
  const auto b =
      end_text.empty() ? std::optional<double>(HUGE_VAL) : analysis::parse_duration_ns(end_text);
  if (!a || !b) {
    *error = "'" + (a ? end_text : text.substr(0, colon)) +
             "' is not a time (a number with an optional unit: ns, us, ms, s)";
    return std::nullopt;
  }
  if (*a < 0) {
    *error = "the start must be 0 or later (times count from the run's start)";
    return std::nullopt;
  }
  if (*b <= *a) {
    *error = "the end must come after the start";
    return std::nullopt;
  }
  return std::make_pair(*a, *b);
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t next = std::min(s.find(sep, at), s.size());
    if (next > at) out.push_back(s.substr(at, next - at));
    at = next + 1;
  }
  return out;
}

// "cpu" / "CPU" / "gpu-device" / "GPU Device" -> the kind.
std::optional<analysis::LaneKind> kind_named(std::string name) {
  const auto norm = [](std::string s) {
    std::string out;
    for (char c : s)
      if (std::isalnum(static_cast<unsigned char>(c)))
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  name = norm(name);
  for (int k = 0; k < analysis::kLaneKinds; ++k) {
    const auto kind = static_cast<analysis::LaneKind>(k);
    if (norm(std::string(analysis::to_string(kind))) == name) return kind;
  }
  return std::nullopt;
}

double now_s() {
  return static_cast<double>(ImGui::GetTime());
}

}  // namespace

std::string check_expand(const std::string& value) {
  if (value == "auto" || value == "all" || value == "none" || value == "kinds") return "";
  const auto names = split(value, ',');
  if (names.empty())
    return "expected auto, all, none, kinds or a list of kinds such as cpu,utility";
  for (const auto& n : names) {
    if (!kind_named(n)) {
      std::string known;
      for (int k = 0; k < analysis::kLaneKinds; ++k)
        known +=
            (k ? ", " : "") + std::string(analysis::to_string(static_cast<analysis::LaneKind>(k)));
      return "'" + n + "' is not a kind of lane (auto, all, none, kinds, or kinds among: " + known +
             ")";
    }
  }
  return "";
}

App::App(ViewOptions options) : options_(std::move(options)) {
  set_theme(options_.dark ? Theme::Dark : Theme::Light);
  if (!options_.files.empty()) open(options_.files);
}

App::~App() {
  if (loader_.joinable()) loader_.join();
  finder_.clear();  // before the profile it reads goes
}

void App::open(std::vector<std::string> files) {
  if (loader_.joinable()) loader_.join();
  // Globs as users type them in the open box (the shell expands them on the command line).
  std::vector<std::string> paths;
  for (const auto& f : files) {
    glob_t g{};
    if (f.find_first_of("*?[") != std::string::npos && glob(f.c_str(), 0, nullptr, &g) == 0) {
      for (size_t i = 0; i < g.gl_pathc; ++i) paths.emplace_back(g.gl_pathv[i]);
    } else {
      paths.push_back(f);
    }
    globfree(&g);
  }
  files_ = paths;
  loaded_ = false;
  load_started_ = ImGui::GetCurrentContext() ? now_s() : 0;
  loader_ = std::thread([this, paths] {
    try {
      if (paths.empty()) throw analysis::LoadError("no trace files given");
      load::LoadOptions options;
      options.nodes = options_.nodes;
      options.range = options_.range;
      incoming_ = std::make_unique<analysis::Profile>(load::load_profile(paths, options));
    } catch (const std::exception& e) {
      incoming_error_ = e.what();
    }
    loaded_.store(true, std::memory_order_release);
  });
}

void App::close() {
  util_.clear();  // its threads read the profile
  finder_.clear();
  profile_.reset();
  load_error_.clear();
  hl_ = Highlights{};
  details_.reset();
  back_.clear();
  findings_ = analysis::Findings{};
  findings_ready_ = false;
  focused_ = -1;
  item_findings_.clear();
  show_findings_ = false;
}

void App::wait_loaded() {
  if (loader_.joinable()) loader_.join();
  take_loaded();
}

void App::wait_settled() {
  wait_loaded();
  util_.wait();
  finder_.wait();
}

bool App::settled() const {
  return !loader_.joinable() && (!profile_ || (util_.all_ready() && finder_.done()));
}

void App::take_loaded() {
  if (!loaded_.load(std::memory_order_acquire)) return;
  if (loader_.joinable()) loader_.join();
  loaded_ = false;
  util_.clear();
  finder_.clear();
  hl_ = Highlights{};
  details_.reset();
  back_.clear();
  show_error_ = SIZE_MAX;
  load_error_ = std::move(incoming_error_);
  incoming_error_.clear();
  profile_ = std::move(incoming_);
  findings_ = analysis::Findings{};
  findings_ready_ = false;
  focused_ = -1;
  item_findings_.clear();
  show_findings_ = false;
  if (!load_error_.empty()) {
    std::cerr << "legate_prof view: " << load_error_ << "\n";
    return;
  }
  for (const auto& w : profile_->warnings) std::cerr << "legate_prof view: warning: " << w << "\n";
  layout_.build(*profile_);
  camera_.fit(profile_->start, profile_->stop,
              profile_->window ? profile_->window->origin : profile_->start);
  util_.start(*profile_);
  // Findings weigh costs against the whole program's time, which a run
  // opened for part of its time does not hold (take_findings says so).
  if (!profile_->window) finder_.start(*profile_);
  apply_start_view();
}

void App::take_findings() {
  if (!profile_ || findings_ready_ || !finder_.done()) return;
  std::string error;
  findings_ = finder_.take(&error);
  findings_ready_ = true;
  if (const auto& w = profile_->window) {
    findings_.note = "No findings: they judge a whole run, and this one was opened for " +
                     analysis::human_ns(static_cast<double>(w->from - w->origin)) + " to " +
                     analysis::human_ns(static_cast<double>(w->to - w->origin)) +
                     " of its time (--range); open it without --range for them.";
  }
  if (!error.empty()) {
    profile_->warnings.push_back("the findings could not be computed: " + error);
    std::cerr << "legate_prof view: warning: " << profile_->warnings.back() << "\n";
  }
  show_findings_ = !findings_.findings.empty();  // opens by itself when there are some
  if (details_) item_findings_ = findings_of(*profile_, findings_, details_->item);
}

void App::apply_start_view() {
  set_expand(options_.expand);
  if (options_.range) set_range(options_.range->first, options_.range->second);
  if (options_.window) set_range(options_.window->first, options_.window->second);
  if (!search_query_.empty()) set_search(search_query_);
  if (options_.select) {
    const uint64_t n = *options_.select, items = profile_->items.size();
    if (n < items) {
      pending_select_ = static_cast<uint32_t>(n);
    } else {
      profile_->warnings.push_back(
          "--select " + std::to_string(n) + ": the run has " + analysis::grouped(items) +
          " items (0 to " + std::to_string(items == 0 ? 0 : items - 1) + "); nothing selected");
      std::cerr << "legate_prof view: warning: " << profile_->warnings.back() << "\n";
    }
  }
}

void App::set_expand(const std::string& value) {
  if (!profile_ || !check_expand(value).empty()) return;
  if (value == "auto") {
    std::vector<analysis::LaneKind> kinds;
    for (int k = 0; k < analysis::kLaneKinds; ++k)
      if (!analysis::is_memory(static_cast<analysis::LaneKind>(k)))
        kinds.push_back(static_cast<analysis::LaneKind>(k));
    layout_.expand_only(*profile_, kinds);
  } else if (value == "all") {
    layout_.expand_all(*profile_);
  } else if (value == "none") {
    layout_.collapse_all(*profile_);
  } else if (value == "kinds") {
    layout_.collapse_kinds(*profile_);
  } else {
    std::vector<analysis::LaneKind> kinds;
    for (const auto& n : split(value, ',')) kinds.push_back(*kind_named(n));
    layout_.expand_only(*profile_, kinds);
  }
  camera_.set_scroll(camera_.scroll(), layout_.height(), view_.lanes_height());
}

void App::set_range(double a, double b) {
  if (!profile_) return;
  const double start = camera_.run_start();
  b = std::min(b, static_cast<double>(profile_->stop) - start);
  camera_.set(start + a, start + std::max(b, a + 10));
}

void App::set_search(const std::string& query) {
  search_query_ = query;
  hl_.hits.clear();
  hits_by_time_.clear();
  hit_at_ = -1;
  if (!profile_ || query.empty()) return;
  // Every hit up to kMaxHits (in item order, as the outline looks them up),
  // then again by start time for the list and for stepping.
  hl_.hits = analysis::search(*profile_, query, kMaxHits + 1);
  hits_capped_ = hl_.hits.size() > kMaxHits;
  if (hits_capped_) hl_.hits.pop_back();
  hits_by_time_ = hl_.hits;
  const auto& items = profile_->items;
  std::stable_sort(hits_by_time_.begin(), hits_by_time_.end(),
                   [&](uint32_t a, uint32_t b) { return items[a].start < items[b].start; });
}

void App::step_hit(int direction) {
  if (hits_by_time_.empty()) return;
  const auto n = static_cast<int64_t>(hits_by_time_.size());
  hit_at_ = hit_at_ < 0 ? (direction > 0 ? 0 : n - 1) : ((hit_at_ + direction) % n + n) % n;
  const uint32_t item = hits_by_time_[static_cast<size_t>(hit_at_)];
  select(item);
  reveal(item);
}

void App::show_search(const std::string& query) {
  show_search_ = true;
  search_set_ = true;
  set_search(query);
}

std::optional<ImVec4> App::label_rect(const std::string& text) const {
  const ImVec2 lanes = view_.lanes_origin();
  for (const LayoutRow& r : layout_.rows()) {
    const float top = lanes.y - camera_.scroll() + r.y;
    if (r.text != text || top < lanes.y || top + r.h > lanes.y + view_.lanes_height()) continue;
    return ImVec4(lanes.x - view_.label_width(), top, lanes.x, top + std::min(r.h, kRowHeight));
  }
  return std::nullopt;
}

void App::select(uint32_t item, bool remember) {
  if (!profile_ || item >= profile_->items.size()) return;
  if (remember && details_ && details_->item != item) back_.push_back(details_->item);
  details_ = analysis::details(*profile_, item);
  hl_.selected = item;
  item_findings_ = findings_of(*profile_, findings_, item);
}

void App::reveal(uint32_t item) {
  if (!profile_ || item >= profile_->items.size()) return;
  const analysis::Profile& p = *profile_;
  const uint32_t lane = p.lane_of(item);
  if (lane == kNone) return;
  layout_.reveal(p, lane);
  const analysis::Item& it = p.items[item];
  const double d = static_cast<double>(it.duration()), span = camera_.span();
  const double px = d * view_.lanes_width() / span;
  if (static_cast<double>(it.start) < camera_.t0() ||
      static_cast<double>(it.stop()) > camera_.t1() || px < kMinBoxPx) {
    const double w = (d * 4 > span || px < kMinBoxPx) ? std::max(d * 4, 1000.0) : span;
    const double c = (static_cast<double>(it.start) + static_cast<double>(it.stop())) / 2;
    camera_.set(c - w / 2, c + w / 2);
  }
  float h = 0;
  const float y = layout_.item_y(p, item, &h), visible = view_.lanes_height();
  if (y < camera_.scroll() || y + h > camera_.scroll() + visible)
    camera_.set_scroll(y - visible / 3, layout_.height(), visible);
  hl_.flash = item;
}

void App::toggle_chain() {
  if (!profile_ || !details_) return;
  const bool own = !hl_.chain.empty() && hl_.chain.front() == details_->item;
  hl_.chain.clear();
  hl_.chain_sorted.clear();
  if (own) return;
  hl_.chain = analysis::critical_path(*profile_, details_->item);
  hl_.chain_sorted = hl_.chain;
  std::sort(hl_.chain_sorted.begin(), hl_.chain_sorted.end());
}

void App::focus_selection() {
  if (hl_.range) {
    camera_.set(hl_.range->first, hl_.range->second);
  } else {
    zoom_to_selected();
  }
}

void App::mark_selection() {
  if (hl_.range) {
    hl_.mark = hl_.range;
  } else if (details_) {
    const analysis::Item& it = profile_->items[details_->item];
    const auto span = std::make_pair(static_cast<double>(it.start), static_cast<double>(it.stop()));
    // Marking what is marked already takes the mark away.
    hl_.mark = hl_.mark == span ? std::nullopt : std::optional(span);
  } else {
    hl_.mark.reset();
  }
}

void App::zoom_to_selected() {
  if (!profile_ || !details_) return;
  const analysis::Item& it = profile_->items[details_->item];
  const double d = std::max<double>(static_cast<double>(it.duration()), 100);
  camera_.set(static_cast<double>(it.start) - d / 2, static_cast<double>(it.stop()) + d / 2);
  reveal(details_->item);
}

std::optional<ImVec4> App::control(const std::string& name) const {
  const auto it = controls_.find(name);
  if (it == controls_.end()) return std::nullopt;
  return it->second;
}

void App::remember_control(const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  controls_[name] = ImVec4(a.x, a.y, b.x, b.y);
}

void App::frame() {
  take_loaded();
  take_findings();
  controls_.clear();
  tooltip_.clear();
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("legate_prof view", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar(2);
  menu_bar();
  if (loading()) {
    ImGui::SetCursorPos(ImVec2(20, 40));
    ImGui::Text("Loading %zu file(s)... %.1f s", files_.size(), now_s() - load_started_);
    for (const auto& f : files_) {
      ImGui::SetCursorPosX(20);
      ImGui::TextDisabled("%s", f.c_str());
    }
  } else if (!profile_) {
    open_panel();
  } else {
    header();
    banners();
    const float pane = findings_pane_height();
    timeline(pane);
    findings_pane(pane);
  }
  ImGui::End();
  if (profile_) {
    details_window();
    search_window();
    stats_window();
    error_window();
  }
  help_window();
  handle_keys();
}

void App::timeline(float below) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y -= below;
  const ImVec2 size(std::max(avail.x, kMaxLabelWidth + 50), std::max(avail.y, kAxisHeight + 50));
  ImGui::InvisibleButton("timeline", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  camera_.set_scroll(camera_.scroll(), layout_.height(), std::max(1.f, size.y - kAxisHeight));
  view_.draw(ImGui::GetWindowDrawList(), pos, size, *profile_, layout_, camera_, util_, hl_);
  if (pending_select_) {  // now that the lanes have a size to bring it into
    select(*pending_select_);
    if (!options_.window && !options_.range) zoom_to_selected();
    reveal(*pending_select_);
    pending_select_.reset();
  }
  const Pick pick = view_.pick(ImGui::GetIO().MousePos, *profile_, layout_, camera_, util_);
  handle_mouse(pick, hovered);
}

void App::handle_mouse(const Pick& pick, bool hovered) {
  const ImGuiIO& io = ImGui::GetIO();
  const analysis::Profile& p = *profile_;
  const float width = view_.lanes_width(), left = view_.lanes_origin().x;
  const auto fraction = [&](float x) { return std::clamp((x - left) / width, 0.f, 1.f); };
  if (hovered && io.MouseWheel != 0) {
    if (io.KeyShift || pick.type == Pick::Type::Label) {
      camera_.set_scroll(camera_.scroll() - io.MouseWheel * 3 * kRowHeight, layout_.height(),
                         view_.lanes_height());
    } else {
      camera_.zoom(std::pow(0.8, io.MouseWheel), fraction(io.MousePos.x));
    }
  }
  if (hovered && ImGui::IsMouseDoubleClicked(0) && pick.type == Pick::Type::Item) {
    select(pick.item);  // the first click selected it; the second zooms to it
    zoom_to_selected();
    return;
  }
  // A left drag selects a range of time (its length shows); a right drag
  // pans; Ctrl or Shift, or a drag on the ruler, zooms to the range dragged.
  for (int button : {0, 1}) {
    if (hovered && ImGui::IsMouseClicked(button)) {
      dragging_ = true;
      press_ = io.MousePos;
      press_t0_ = camera_.t0();
      press_t1_ = camera_.t1();
      press_scroll_ = camera_.scroll();
      drag_ = io.KeyCtrl || io.KeyShift || pick.type == Pick::Type::Axis ? Drag::Zoom
              : button == 1                                              ? Drag::Pan
                                                                         : Drag::Select;
    }
  }
  const bool down = io.MouseDown[0] || io.MouseDown[1];
  const float dx = io.MousePos.x - press_.x, dy = io.MousePos.y - press_.y;
  const bool moved = std::fabs(dx) > 3 || std::fabs(dy) > 3;
  if (dragging_ && down && moved) {
    if (drag_ != Drag::Pan) {
      hl_.selecting = std::make_pair(press_.x - left, io.MousePos.x - left);
    } else {
      const double dt = static_cast<double>(dx) / width * (press_t1_ - press_t0_);
      camera_.set(press_t0_ - dt, press_t1_ - dt, false);
      camera_.set_scroll(press_scroll_ - dy, layout_.height(), view_.lanes_height());
    }
  }
  if (dragging_ && !down) {
    dragging_ = false;
    hl_.selecting.reset();
    if (!moved) {
      const Pick at_press = view_.pick(press_, p, layout_, camera_, util_);
      if (at_press.type != Pick::Type::Label) hl_.range.reset();  // a click ends a selection
      if (at_press.type == Pick::Type::Item) {
        select(at_press.item);
        hl_.flash = kNone;
      } else if (at_press.type == Pick::Type::Merged) {
        camera_.set(static_cast<double>(at_press.start), static_cast<double>(at_press.stop));
      } else if (at_press.type == Pick::Type::Label) {
        layout_.toggle(p, layout_.rows()[static_cast<size_t>(at_press.row)].key);
      } else if (at_press.type == Pick::Type::Error) {
        show_error_ = at_press.error;
      }
    } else if (drag_ != Drag::Pan) {
      const double a = camera_.time_at(press_.x - left, width);
      const double b = camera_.time_at(io.MousePos.x - left, width);
      if (drag_ == Drag::Zoom) {
        camera_.set(std::min(a, b), std::max(a, b));
      } else if (std::fabs(io.MousePos.x - press_.x) > 3) {
        hl_.range = std::make_pair(std::min(a, b), std::max(a, b));
      }
    } else {
      camera_.remember(press_t0_, press_t1_);
    }
  }
  if (hovered && !dragging_) tooltip(pick);
}

// Letters are GLFW key codes (keys.hpp); characters come from the text queue.
void App::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || !profile_) return;
  const auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
  const float page = view_.lanes_height();
  if (pressed(ImGuiKey_LeftArrow)) camera_.pan(-0.1);
  if (pressed(ImGuiKey_RightArrow)) camera_.pan(0.1);
  if (pressed(ImGuiKey_UpArrow))
    camera_.set_scroll(camera_.scroll() - 3 * kRowHeight, layout_.height(), page);
  if (pressed(ImGuiKey_DownArrow))
    camera_.set_scroll(camera_.scroll() + 3 * kRowHeight, layout_.height(), page);
  if (pressed(ImGuiKey_PageUp)) camera_.set_scroll(camera_.scroll() - page, layout_.height(), page);
  if (pressed(ImGuiKey_PageDown))
    camera_.set_scroll(camera_.scroll() + page, layout_.height(), page);
  if (pressed(ImGuiKey_Home)) camera_.reset();
  if (pressed(ImGuiKey_Backspace)) camera_.undo();
  if (io.KeyCtrl && pressed(ImGuiKey_Z)) {
    if (io.KeyShift) {
      camera_.redo();
    } else {
      camera_.undo();
    }
  }
  if (io.KeyCtrl && pressed(ImGuiKey_Y)) camera_.redo();
  if (io.KeyCtrl && ImGui::IsKeyPressed('F')) show_search_ = search_focus_ = true;
  if (io.KeyCtrl && ImGui::IsKeyPressed('Q')) quit_ = true;
  if (pressed(ImGuiKey_Escape)) {
    if (hl_.range) {
      hl_.range.reset();
    } else if (!hl_.chain.empty()) {
      hl_.chain.clear();
      hl_.chain_sorted.clear();
    } else if (focused_ >= 0) {
      focus_finding(-1);
    } else {
      details_.reset();
      hl_.selected = hl_.flash = kNone;
    }
  }
  if (io.KeyCtrl) return;
  // W/S zoom around the mouse when it is over the lanes, else the middle.
  const float left = view_.lanes_origin().x, width = view_.lanes_width();
  const float mx = io.MousePos.x;
  const double at = mx >= left && mx <= left + width ? (mx - left) / width : 0.5;
  for (const ImWchar c : io.InputQueueCharacters) {
    switch (c) {
      case 'w':
        camera_.zoom(0.8, at);
        break;
      case 's':
        camera_.zoom(1.25, at);
        break;
      case 'a':
        camera_.pan(-0.1);
        break;
      case 'd':
        camera_.pan(0.1);
        break;
      case 'f':
        focus_selection();
        break;
      case 'm':
        mark_selection();
        break;
      case '+':
      case '=':
        camera_.zoom(0.8);
        break;
      case '-':
      case '_':
        camera_.zoom(1.25);
        break;
      case '0':
        camera_.reset();
        break;
      case 'z':
        zoom_to_selected();
        break;
      case 'u':
        camera_.undo();
        break;
      case 'r':
        camera_.redo();
        break;
      case 'h':
        toggle_chain();
        break;
      case '/':
        show_search_ = search_focus_ = true;
        break;
      case 'S':
        show_stats_ = !show_stats_;
        break;
      case 'F':
        show_findings_ = !show_findings_ && !findings_.findings.empty();
        break;
      case '?':
        show_help_ = !show_help_;
        break;
      case 'e':
        layout_.expand_all(*profile_);
        break;
      case 'c':
        layout_.collapse_kinds(*profile_);
        break;
      default:
        break;
    }
  }
}

nlohmann::json App::state() const {
  nlohmann::json j;
  j["files"] = files_;
  j["loading"] = loading();
  j["error"] = load_error_;
  if (!profile_) return j;
  const analysis::Profile& p = *profile_;
  const double start = camera_.run_start();
  const auto span_json = [start](const std::pair<double, double>& r) {
    return nlohmann::json{
        {"from", r.first - start}, {"to", r.second - start}, {"length", r.second - r.first}};
  };
  if (hl_.range) j["range"] = span_json(*hl_.range);
  if (hl_.mark) j["mark"] = span_json(*hl_.mark);
  j["warnings"] = p.warnings;
  j["ranks"] = p.ranks.size();
  j["ranks_left_out"] = p.ranks_left_out;
  if (p.window) {
    j["loaded"] = {{"from", p.window->from - p.window->origin},
                   {"to", p.window->to - p.window->origin},
                   {"items_left_out", p.window->items_left_out}};
  }
  j["window"] = {{"t0", camera_.t0() - start}, {"t1", camera_.t1() - start}};
  j["can_undo"] = camera_.can_undo();
  j["scroll"] = camera_.scroll();
  const ImVec2 lanes = view_.lanes_origin();
  j["lanes_area"] = {lanes.x, lanes.y, view_.lanes_width(), view_.lanes_height()};
  nlohmann::json rows = nlohmann::json::array();
  for (const LayoutRow& r : layout_.rows()) {
    const char* type = r.type == RowType::Node ? "node" : r.type == RowType::Avg ? "avg" : "lane";
    rows.push_back({{"type", type},
                    {"text", r.text},
                    {"key", r.key},
                    {"collapsed", r.collapsed},
                    {"top", lanes.y - camera_.scroll() + r.y},
                    {"height", r.h},
                    {"lane", r.lane == kNone ? -1 : static_cast<int64_t>(r.lane)}});
  }
  j["rows"] = rows;
  j["boxes_drawn"] = view_.boxes_drawn();
  j["theme"] = theme() == Theme::Dark ? "dark" : "light";
  j["link"] = view_link();
  j["command"] = view_command();
  j["hits"] = hl_.hits.size();
  j["hits_capped"] = hits_capped_;
  j["hit_at"] = hit_at_;
  j["chain"] = hl_.chain;
  j["flash"] = hl_.flash == kNone ? -1 : static_cast<int64_t>(hl_.flash);
  j["tooltip"] = tooltip_;
  if (details_) {
    const analysis::ItemDetails& d = *details_;
    nlohmann::json pre = nlohmann::json::array();
    for (const auto& x : d.preconditions)
      pre.push_back({{"item", uint32_t{x.item}},
                     {"kind", analysis::precondition_name(x.kind)},
                     {"text", analysis::describe(p, x.item)}});
    j["selected"] = {{"item", d.item},
                     {"name", d.name},
                     {"signature", d.signature},
                     {"lane", d.lane},
                     {"operation", d.operation},
                     {"op_id", d.op_id},
                     {"bandwidth", d.bandwidth},
                     {"operation_runtime", d.operation_runtime},
                     {"runtime_overhead", d.runtime_overhead},
                     {"provenance", d.provenance},
                     {"start", d.start - start},
                     {"stop", d.stop - start},
                     {"preconditions", pre},
                     {"wait_notes",
                      [&] {
                        nlohmann::json notes = nlohmann::json::array();
                        for (const auto& w : d.noted_waits) notes.push_back(w.note);
                        return notes;
                      }()},
                     {"critical", d.critical == kNone ? -1 : static_cast<int64_t>(d.critical)},
                     {"findings", item_findings_}};
  }
  findings_state(j);
  j["windows"] = {{"search", show_search_},
                  {"findings", show_findings_},
                  {"stats", show_stats_},
                  {"help", show_help_},
                  {"error", show_error_ != SIZE_MAX}};
  return j;
}

}  // namespace legato::viewer
