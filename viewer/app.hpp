// The viewer application without its window: what is open, what is shown,
// and one frame of UI built with Dear ImGui. The GLFW window (window.cpp)
// and the headless runner (headless.cpp) both drive it, so scripted tests
// and the benchmark exercise the same code a user's clicks do.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "analysis/profile.hpp"
#include "load/rank_filter.hpp"
#include "viewer/camera.hpp"
#include "viewer/findings_job.hpp"
#include "viewer/layout.hpp"
#include "viewer/timeline_view.hpp"
#include "viewer/utilization_cache.hpp"

namespace legato::viewer {

struct ViewOptions {
  std::vector<std::string> files;
  // The part of the run to load and the first window, in ns from the start
  // of the run (--range START:END; load::LoadOptions::range).
  std::optional<std::pair<double, double>> range;
  // The nodes to load (--nodes 0-3,7); none: all.
  std::optional<load::RankFilter> nodes;
  // What is expanded at first (--expand): "auto" (every kind's lanes but the
  // memories', which show their avg lines), "all", "none" (nodes folded),
  // "kinds" (avg lines only) or a comma-separated list of kinds to expand.
  std::string expand = "auto";
  // The first window, everything loaded (--window START:END), unlike range.
  std::optional<std::pair<double, double>> window;
  // The item to open at (--select N): its number in the model these files,
  // nodes and range load (a report's #item=N for the whole run), selected
  // and in view.
  std::optional<uint64_t> select;
  bool dark = false;       // --theme dark
  std::string screenshot;  // --screenshot PNG
  std::string script;      // --script FILE
  int width = 1600, height = 900;
};

// Parses "START:END" (each a time like 1.5ms; END may be empty for the end
// of the run); nullopt and *error set when it is not one.
std::optional<std::pair<double, double>> parse_range(const std::string& text, std::string* error);
// Checks an --expand value; empty when valid, else what is wrong.
std::string check_expand(const std::string& value);

class App {
 public:
  explicit App(ViewOptions options);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  // Starts loading the files in the background (replacing what is open).
  void open(std::vector<std::string> files);
  // Closes what is open (back to the open box).
  void close();
  // Blocks until a started load has finished and been taken in.
  void wait_loaded();
  bool loading() const { return loader_.joinable(); }
  // Loaded (or failed) and every avg line computed: nothing changes by itself.
  bool settled() const;
  // Blocks until settled(): the load, the avg lines and the findings.
  void wait_settled();

  // One frame of UI, between ImGui::NewFrame() and ImGui::Render().
  void frame();

  // What is shown, for scripts and tests.
  nlohmann::json state() const;
  const analysis::Profile* profile() const { return profile_.get(); }
  // The run's findings (default thresholds), computed in the background
  // after the load; empty until findings_ready().
  const analysis::Findings& findings() const { return findings_; }
  bool findings_ready() const { return findings_ready_; }
  const TimelineView& view() const { return view_; }
  // Screen rectangle of a named control of the last frame ("critical",
  // "chain", "zoom-item", "back", "open", "paths", "error-message", "search").
  std::optional<ImVec4> control(const std::string& name) const;
  // The label of the row reading text, on screen.
  std::optional<ImVec4> label_rect(const std::string& text) const;
  Camera& camera() { return camera_; }
  bool quit_requested() const { return quit_; }
  void request_quit() { quit_ = true; }

  // Actions the UI and scripts share.
  void select(uint32_t item, bool remember = true);
  void reveal(uint32_t item);
  void set_range(double a, double b);  // ns from the run's start
  void set_expand(const std::string& value);
  void set_search(const std::string& query);
  // This view as a link into the report beside the traces
  // (DIR/legate_prof/index.html#range=...&item=...&q=...; empty when there
  // is none) and as the command line that opens it.
  std::string view_link() const;
  std::string view_command() const;
  // Enter / shift+Enter in the search box: the next or previous hit in
  // time, selected and brought into view.
  void step_hit(int direction);
  void show_search(const std::string& query);
  void toggle_chain();
  void zoom_to_selected();
  // f: the selected range fills the view, else the selected item.
  void focus_selection();
  // m: marks the selected range, else the selected item's span (again:
  // unmarks it); with neither, clears the mark.
  void mark_selection();
  // Zooms to a finding's window, unfolds and scrolls to its lanes and
  // outlines its items until another finding is focused or -1 clears it.
  void focus_finding(int index);
  // Opens the Findings pane with a finding's row in view on the next frame.
  void scroll_to_finding(int index);

 private:
  void take_loaded();
  void take_findings();
  void apply_start_view();
  void menu_bar();
  void header();
  void banners();
  void open_panel();
  void timeline(float below);  // leaves `below` pixels under it
  void handle_mouse(const Pick& pick, bool hovered);
  void handle_keys();
  void tooltip(const Pick& pick);
  void details_window();
  void search_window();
  void stats_window();
  void help_window();
  void error_window();
  // The Findings pane below the timeline: its height (0 when hidden) and its contents.
  float findings_pane_height() const;
  void findings_pane(float height);
  void finding_row(int index, const float* columns);  // x of severity, title, cost, where
  void finding_body(const analysis::Finding& f);
  void finding_links();  // the findings the selected item belongs to, as links
  void findings_state(nlohmann::json& j) const;
  void remember_control(const std::string& name);
  void precondition_row(const analysis::Precondition& pre, bool critical, int index);

  ViewOptions options_;
  std::vector<std::string> files_;
  std::unique_ptr<analysis::Profile> profile_;
  std::string load_error_;

  // The background load.
  std::thread loader_;
  std::atomic<bool> loaded_{false};
  std::unique_ptr<analysis::Profile> incoming_;
  std::string incoming_error_;
  double load_started_ = 0;

  Layout layout_;
  Camera camera_;
  UtilizationCache util_;
  TimelineView view_;
  Highlights hl_;
  std::optional<analysis::ItemDetails> details_;
  std::vector<uint32_t> back_;  // previously selected items
  FindingsJob finder_;          // reads profile_
  bool findings_ready_ = false;
  analysis::Findings findings_;
  int focused_ = -1;                // the clicked finding
  int scroll_finding_ = -1;         // a row to scroll to on the next frame
  std::vector<int> item_findings_;  // the findings the selected item belongs to

  // Mouse interaction.
  bool dragging_ = false;
  enum class Drag { Select, Pan, Zoom } drag_ = Drag::Select;
  ImVec2 press_{0, 0};
  double press_t0_ = 0, press_t1_ = 0;
  float press_scroll_ = 0;

  std::string search_query_, paths_input_;
  // The search's hits by start time (hl_.hits has them in item order), the
  // one stepped to (-1: none yet), and whether there were more than kMaxHits.
  static constexpr size_t kMaxHits = 4'000'000;
  std::vector<uint32_t> hits_by_time_;
  int64_t hit_at_ = -1;
  bool hits_capped_ = false;
  bool search_focus_ = false;
  bool search_set_ = false;
  // --select's item, selected once the first frame has laid the view out.
  std::optional<uint32_t> pending_select_;  // show_search() replaced the query: the box takes it
  bool show_search_ = false, show_stats_ = false, show_help_ = false, show_warnings_ = false;
  bool show_findings_ = false;
  float findings_height_ = 0;     // dragged by the user; 0: a share of the window
  size_t show_error_ = SIZE_MAX;  // index into profile errors whose message is open
  std::string tooltip_;           // the last tooltip's text
  std::map<std::string, ImVec4> controls_;
  bool quit_ = false;
};

}  // namespace legato::viewer
