// legate_prof view in a real window under Xvfb (OpenGL through Mesa): a cg
// run's trace drawn with its lanes and avg lines in the rows the viewer says
// they are in (checked on the screenshot's pixels), a scripted click whose
// details hold a critical-path link that moves the view when followed,
// a truncated trace's warning banner, an unreadable file's error, the
// --range / --expand options, and the Findings pane whose finding, clicked,
// zooms the timeline and outlines its items. Skipped with a message without
// xvfb-run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <stb_image.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "analysis/palette.hpp"
#include "analysis/stats.hpp"
#include "findings_trace.hpp"
#include "load/load.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"
#include "xvfb_view.hpp"

using namespace legato;
using nlohmann::json;
using trace::testing::TempDir;

namespace {

using testing::have_xvfb;
using testing::view_under_xvfb;

struct Rgb {
  int r, g, b;
  bool operator==(const Rgb&) const = default;
  bool operator<(const Rgb& o) const { return std::tie(r, g, b) < std::tie(o.r, o.g, o.b); }
};

class Png {
 public:
  explicit Png(const std::string& path) { data_ = stbi_load(path.c_str(), &w_, &h_, nullptr, 3); }
  ~Png() { stbi_image_free(data_); }
  bool ok() const { return data_ != nullptr; }
  int width() const { return w_; }
  Rgb at(int x, int y) const {
    const unsigned char* p =
        data_ + (static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x)) * 3;
    return {p[0], p[1], p[2]};
  }
  // Pixels of [x0, x1) x [y0, y1) that satisfy pred.
  template <class F>
  int count(int x0, int y0, int x1, int y1, F&& pred) const {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(y1, h_); ++y)
      for (int x = std::max(0, x0); x < std::min(x1, w_); ++x) n += pred(at(x, y)) ? 1 : 0;
    return n;
  }

 private:
  unsigned char* data_ = nullptr;
  int w_ = 0, h_ = 0;
};

bool saturated(const Rgb& c) {
  return std::max({c.r, c.g, c.b}) - std::min({c.r, c.g, c.b}) > 60;
}

// A real cg run's trace in dir (legate --cpus 2 --profile).
std::string cg_trace(const TempDir& dir, int n) {
  const auto run = testing::run_command(testing::bin("legate") + " --cpus 2 --profile --logdir " +
                                        dir.path().string() + " " + testing::bin("cg") + " -n " +
                                        std::to_string(n));
  REQUIRE(run.status == 0);
  return dir.file("legate_0.prof");
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

TEST_CASE("a workload's trace is drawn with its lanes and avg lines in their rows", "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const auto r = view_under_xvfb(
      cg_trace(dir, 24),
      "screenshot " + dir.file("shot.png") + "\ndump " + dir.file("state.json") + "\nfps 1\nquit\n",
      dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("fps "));
  const Png png(dir.file("shot.png"));
  REQUIRE(png.ok());
  CHECK(png.width() == 1400);
  const json st = read_json(dir.file("state.json"));
  const auto& area = st["lanes_area"];
  const int x0 = area[0].get<int>() + 1, x1 = x0 + area[2].get<int>() - 2;
  const int bottom = area[1].get<int>() + area[3].get<int>();
  // At a glance: every row fits above the Findings pane, memories folded to
  // their avg lines so they do not push the channels off screen.
  for (const auto& row : st["rows"]) {
    INFO(row["text"]);
    CHECK(row["top"].get<double>() + row["height"].get<double>() <= bottom + 0.5);
    if (row["type"] == "avg")
      CHECK(row["collapsed"] == (row["text"].get<std::string>().rfind("System Memory", 0) == 0));
  }
  int lanes_with_boxes = 0, lanes = 0, gray = 0;
  std::set<std::string> seen;
  for (const auto& row : st["rows"]) {
    const int top = row["top"], h = row["height"];
    if (top + h > bottom) continue;  // below the window
    const std::string type = row["type"], text = row["text"];
    INFO(type << " row '" << text << "' at y " << top);
    seen.insert(type);
    if (type == "node") {
      CHECK(png.at(x0 + 40, top + h / 2) == Rgb{233, 236, 241});
    } else if (type == "avg") {
      // The utilization line (blue, antialiased) along the row.
      CHECK(png.count(x0, top, x1, top + h, [](Rgb c) { return c.b > 150 && c.b - c.r > 40; }) >
            (x1 - x0) / 2);
    } else {
      ++lanes;
      const int colored = png.count(x0, top, x1, top + h, saturated);
      // Behind folded items' bars, their box's light backdrop.
      const int merged = png.count(x0, top, x1, top + h, [](Rgb c) {
        return c == Rgb{226, 229, 234};
      });
      gray += merged;
      if (colored + merged > 0) ++lanes_with_boxes;
      // The label column beside it.
      CHECK(png.at(area[0].get<int>() - 3, top + h / 2) == Rgb{248, 249, 251});
    }
  }
  CHECK(seen == std::set<std::string>{"node", "avg", "lane"});
  CHECK(lanes >= 4);
  CHECK(lanes_with_boxes >= lanes - 1);  // every lane but perhaps an idle one
  CHECK(gray > 0);                       // zoomed out, cg's small tasks fold into boxes
}

TEST_CASE("a scripted click opens details whose critical-path link moves the view", "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string trace = cg_trace(dir, 24);
  // The runtime records only the preconditions that had not finished when
  // an item was created, so which MatVecMulTask has a critical-path link
  // depends on the run's timing: the third one or the first after it that
  // does.
  const analysis::Profile p = load::load_profile({trace});
  const auto hits = analysis::search(p, "MatVecMulTask", 100);
  size_t pick = 2;
  while (pick < hits.size() && analysis::last_precondition(p, hits[pick]) == analysis::kNone)
    ++pick;
  REQUIRE(pick < hits.size());
  const auto r = view_under_xvfb(trace,
                                 "select MatVecMulTask " + std::to_string(pick) +
                                     "\nwait 2\npan 3\nwait 1\ndump " + dir.file("before.json") +
                                     "\nclick-ui critical\nwait 2\ndump " + dir.file("after.json") +
                                     "\nscreenshot " + dir.file("after.png") + "\nquit\n",
                                 dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json before = read_json(dir.file("before.json")), after = read_json(dir.file("after.json"));
  REQUIRE(before.contains("selected"));
  CHECK(before["selected"]["name"] == "MatVecMulTask");
  const int critical = before["selected"]["critical"];
  REQUIRE(critical >= 0);
  CHECK(after["selected"]["item"] == critical);
  CHECK(after["flash"] == critical);
  // It was off screen (the view moved away from it); now it is on screen.
  const double start = after["selected"]["start"], stop = after["selected"]["stop"];
  CHECK((before["window"]["t1"].get<double>() < start ||
         before["window"]["t0"].get<double>() > stop));
  CHECK(after["window"]["t0"].get<double>() <= start);
  CHECK(after["window"]["t1"].get<double>() >= stop);
  // The followed item is outlined in the flash color.
  const Png png(dir.file("after.png"));
  REQUIRE(png.ok());
  CHECK(png.count(0, 0, 1400, 800, [](Rgb c) { return c == Rgb{255, 45, 85}; }) > 10);
}

TEST_CASE("damaged and unreadable files open with a warning or an error, never a crash", "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  // Synthetic (written through the writer API; nothing ran), cut short.
  analysis::testing::write_truncated_trace(path);
  auto r = view_under_xvfb(
      path, "screenshot " + dir.file("cut.png") + "\ndump " + dir.file("cut.json") + "\nquit\n",
      dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 1);  // cut inside a frame: data was lost, as every subcommand says
  CHECK_THAT(r.err, Catch::Contains("was not finished"));
  const json st = read_json(dir.file("cut.json"));
  CHECK_THAT(st["warnings"].dump(), Catch::Contains("was not finished"));
  const Png png(dir.file("cut.png"));
  REQUIRE(png.ok());
  CHECK(png.count(0, 0, 1400, 120, [](Rgb c) { return c == Rgb{255, 243, 205}; }) > 1000);

  std::ofstream(dir.file("garbage.prof")) << "this is not a trace";
  r = view_under_xvfb(dir.file("garbage.prof"), "screenshot " + dir.file("bad.png") + "\nquit\n",
                      dir);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("garbage.prof"));
  CHECK(std::filesystem::exists(dir.file("bad.png")));  // the window showed the error
}

TEST_CASE(
    "a --screenshot path is taken as it is: a '#' or a newline is part of the name, not a "
    "step",
    "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string trace = dir.file("legate_0.prof");
  analysis::testing::write_truncated_trace(trace);
  const std::string shot = dir.file("a #b\nquit\nscreenshot c.png");
  const auto r = testing::run_command("xvfb-run -a -f " + dir.file("Xauthority") + " " +
                                      testing::bin("legate_prof") + " view " + trace +
                                      " --screenshot '" + shot + "' --size 400x300");
  INFO(r.out << r.err);
  CHECK(r.status == 1);  // the truncated trace lost data; the screenshot was written
  CHECK(std::filesystem::exists(shot));
  // Nothing else written: no "a " (the name cut at '#'), no c.png.
  using It = std::filesystem::directory_iterator;
  std::set<std::string> names;
  for (const auto& e : It(dir.path())) names.insert(e.path().filename().string());
  CHECK(names ==
        std::set<std::string>{"legate_0.prof", "Xauthority", "a #b\nquit\nscreenshot c.png"});
}

TEST_CASE("the range and expand options choose the first view and bad values are refused",
          "[gui]") {
  TempDir dir;
  const auto bad = testing::run_command(testing::bin("legate_prof") + " view x.prof --range 5ms");
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("--range 5ms: expected START:END"));
  const auto bad_expand =
      testing::run_command(testing::bin("legate_prof") + " view x.prof --expand gpus");
  CHECK(bad_expand.status == 2);
  CHECK_THAT(bad_expand.err, Catch::Contains("'gpus' is not a kind of lane"));
  const auto bad_size =
      testing::run_command(testing::bin("legate_prof") + " view x.prof --size 10x10");
  CHECK(bad_size.status == 2);
  const auto bad_script =
      testing::run_command(testing::bin("legate_prof") + " view x.prof --script /nonexistent");
  CHECK(bad_script.status == 2);
  CHECK_THAT(bad_script.err, Catch::Contains("cannot read the script file"));
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  const auto r = view_under_xvfb(cg_trace(dir, 12) + " --range 1ms:2ms --expand kinds",
                                 "dump " + dir.file("s.json") + "\nquit\n", dir);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json st = read_json(dir.file("s.json"));
  CHECK(st["window"]["t0"].get<double>() == Approx(1e6));
  CHECK(st["window"]["t1"].get<double>() == Approx(2e6));
  for (const auto& row : st["rows"]) CHECK(row["type"] != "lane");
}

TEST_CASE("clicking a finding zooms the timeline to it and outlines its items", "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  // Synthetic (written through the writer API; nothing ran): 300 tiny tasks.
  viewer::testing::write_findings_trace(path);
  const analysis::Findings all = analysis::find(load::load_profile({path}));
  int k = -1;
  for (size_t i = 0; i < all.findings.size(); ++i)
    if (all.findings[i].rule == "tiny_tasks") k = static_cast<int>(i);
  REQUIRE(k >= 0);
  // The view after the click is kept next to the binaries to look at.
  const std::string after_png = std::string(LEGATO_BIN_DIR) + "/../viewer_finding.png";
  std::filesystem::remove(after_png);
  const auto r =
      view_under_xvfb(path,
                      "screenshot " + dir.file("before.png") + "\ndump " + dir.file("before.json") +
                          "\nexpand none\nfinding " + std::to_string(k) + "\nwait 2\nscreenshot " +
                          after_png + "\ndump " + dir.file("after.json") + "\nquit\n",
                      dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json before = read_json(dir.file("before.json")), after = read_json(dir.file("after.json"));
  CHECK(before["windows"]["findings"] == true);  // it opened by itself
  REQUIRE(before["findings"].size() == all.findings.size());
  const json f = before["findings"][k];
  CHECK(f["rule"] == "tiny_tasks");
  CHECK(before["finding"] == -1);
  CHECK(before["outlined_drawn"] == 0);
  // Zoomed to the finding's window, a little wider.
  CHECK(after["finding"] == k);
  const double t0 = f["t0"], t1 = f["t1"], w0 = after["window"]["t0"], w1 = after["window"]["t1"];
  CHECK(w0 <= t0);
  CHECK(w1 >= t1);
  CHECK(w1 - w0 <= (t1 - t0) * 1.2);
  CHECK(w1 - w0 <
        (before["window"]["t1"].get<double>() - before["window"]["t0"].get<double>()) / 5);
  // Its lanes unfolded (the script folded every node first) and on screen.
  for (const auto& lane : f["lanes"]) {
    CHECK(std::count(after["lanes_shown"].begin(), after["lanes_shown"].end(), lane) == 1);
    CHECK(std::count(after["lanes_on_screen"].begin(), after["lanes_on_screen"].end(), lane) == 1);
  }
  // Its items outlined, in green on the screenshot and not before.
  std::vector<uint32_t> items = f["items"].get<std::vector<uint32_t>>();
  std::sort(items.begin(), items.end());
  REQUIRE_FALSE(items.empty());
  CHECK(after["outlined"] == json(items));
  CHECK(after["outlined_drawn"].get<int>() >= 1);
  const auto green = [](Rgb c) { return c == Rgb{0, 230, 118}; };
  const auto& area = after["lanes_area"];
  const int x0 = area[0], y0 = area[1], x1 = x0 + area[2].get<int>(), y1 = y0 + area[3].get<int>();
  const Png shot_before(dir.file("before.png")), shot_after(after_png);
  REQUIRE(shot_before.ok());
  REQUIRE(shot_after.ok());
  CHECK(shot_before.count(x0, y0, x1, y1, green) == 0);
  CHECK(shot_after.count(x0, y0, x1, y1, green) > 30);
}

TEST_CASE("the dark theme draws the frame dark and a blocked task faded toward it", "[gui]") {
  if (!have_xvfb()) {
    WARN("SKIPPED: xvfb-run is not installed (apt install xvfb xauth)");
    return;
  }
  TempDir dir;
  const std::string trace = cg_trace(dir, 24);
  const std::string script =
      "screenshot " + dir.file("shot.png") + "\ndump " + dir.file("state.json") + "\nquit\n";
  const auto r = view_under_xvfb(trace + " --theme dark", script, dir);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const json st = read_json(dir.file("state.json"));
  CHECK(st["theme"] == "dark");
  const Png png(dir.file("shot.png"));
  REQUIRE(png.ok());
  const auto& area = st["lanes_area"];
  const int x0 = area[0].get<int>(), y0 = area[1].get<int>();
  const int x1 = x0 + area[2].get<int>(), y1 = y0 + area[3].get<int>();
  const auto luma = [](const Rgb& c) { return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b; };
  // Most of the lanes area is dark; almost none of it near white.
  const int all = (x1 - x0) * (y1 - y0);
  CHECK(png.count(x0, y0, x1, y1, [&](const Rgb& c) { return luma(c) < 70; }) > all / 2);
  CHECK(png.count(x0, y0, x1, y1, [&](const Rgb& c) { return luma(c) > 235; }) < all / 100);
  // The same trace in light: the opposite.
  const auto light = view_under_xvfb(trace, script, dir);
  REQUIRE(light.status == 0);
  const Png lpng(dir.file("shot.png"));
  REQUIRE(lpng.ok());
  CHECK(lpng.count(x0, y0, x1, y1, [&](const Rgb& c) { return luma(c) > 200; }) > all / 2);
  // A blocked part fades toward the background in each theme.
  using analysis::ItemKind, analysis::State;
  const auto blocked_dark =
      analysis::item_rgb("TopLevelTask", ItemKind::Task, State::Blocked, true);
  const auto running = analysis::item_rgb("TopLevelTask", ItemKind::Task, State::Running, true);
  const auto blocked_light = analysis::item_rgb("TopLevelTask", ItemKind::Task, State::Blocked);
  const auto l = [](const analysis::Rgb& c) { return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b; };
  CHECK(l(blocked_dark) < l(running));
  CHECK(l(blocked_light) > l(running));
}
