// The viewer's plain parts: the camera's zoom, pan and undo; the layout's
// rows, folding and item positions; option and script parsing.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/palette.hpp"
#include "findings_trace.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"
#include "viewer/app.hpp"
#include "viewer/camera.hpp"
#include "viewer/finding_focus.hpp"
#include "viewer/layout.hpp"
#include "viewer/palette.hpp"
#include "viewer/script.hpp"
#include "viewer/timeline_view.hpp"

using namespace legato;
using namespace legato::viewer;
using trace::testing::TempDir;

TEST_CASE("the camera zooms around a point, pans, and undoes and redoes", "[viewer]") {
  Camera c;
  c.fit(1000, 11000);
  CHECK(c.t0() == 1000);
  CHECK(c.t1() == 11000);
  c.zoom(0.5, 0.25);  // the point a quarter in stays put
  CHECK(c.t0() == Approx(2250));
  CHECK(c.t1() == Approx(7250));
  c.pan(0.1);
  CHECK(c.t0() == Approx(2750));
  CHECK(c.can_undo());
  CHECK(c.undo());  // pans are not remembered: back to the full run
  CHECK(c.t0() == 1000);
  CHECK(c.redo());  // back to where it was before the undo
  CHECK(c.t0() == Approx(2750));
  c.set(5000, 5001);  // at least 10 ns wide
  CHECK(c.span() == Approx(10));
  c.set(-1e9, 1e9);  // at most 1.2x the run
  CHECK(c.span() == Approx(12000));
  c.set(1e9, 1e9 + 100);  // some of the run stays on screen
  CHECK(c.t0() < 11000);
  c.reset();
  CHECK(c.t0() == 1000);
  CHECK(c.t1() == 11000);
  c.set_scroll(500, 300, 100);
  CHECK(c.scroll() == 200);
  c.set_scroll(-5, 300, 100);
  CHECK(c.scroll() == 0);
}

TEST_CASE("the layout lists nodes, avg rows and lanes, and folds them", "[viewer]") {
  TempDir dir;
  for (uint32_t rank = 0; rank < 2; ++rank) {
    analysis::testing::SyntheticTrace t(dir.file("legate_" + std::to_string(rank) + ".prof"), rank,
                                        2);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto k = t.task_kind("work");
    t.task(c0, k, 0, 100);
    t.task(c0, k, 50, 150);  // overlaps: a second row
    t.task(c1, k, 0, 10);
    t.meta(u0, "Mapping", 0, 5);
    if (rank == 1) {  // as a multi-rank run records it
      t.writer().write_metadata(
          {{"clock_alignment", {{"offset_ns", 40}, {"uncertainty_ns", 2500}}}});
    }
    t.finish();
  }
  const analysis::Profile p =
      load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  Layout l;
  l.build(p);
  // All nodes (2 kinds), then per node: header, CPU avg, c0, c1, Utility avg, u0.
  REQUIRE(l.rows().size() == 3 + 2 * 6);
  CHECK(l.rows()[0].text == "All nodes (2)");
  CHECK(l.rows()[1].text == "CPU avg (4)");
  CHECK(l.rows()[3].type == RowType::Node);
  CHECK(l.rows()[3].text == "Node 0 (host0)");
  CHECK(l.rows()[9].text == "Node 1 (host1, clock ±2.500 us)");
  CHECK(l.rows()[5].text == "c0");
  CHECK(l.rows()[5].h == 2 * kRowHeight + 2);  // two rows of items
  CHECK(l.row_at(l.rows()[5].y + 1) == 5);
  CHECK(l.row_at(-1) == -1);
  CHECK(l.row_at(l.height()) == -1);
  const uint32_t c0_lane = l.rows()[5].lane;
  const uint32_t second = p.lanes[c0_lane].rows[1].begin;
  float h = 0;
  CHECK(l.item_y(p, second, &h) == l.rows()[5].y + 1 + kRowHeight);
  // Folding node 0 hides its lanes; its items sit on the node's header.
  CHECK(l.toggle(p, "n0"));
  CHECK(l.rows().size() == 3 + 1 + 6);
  CHECK(l.row_of_lane(c0_lane) == -1);
  CHECK(l.item_y(p, second, &h) == l.rows()[3].y);
  CHECK(l.reveal(p, c0_lane));
  CHECK(l.row_of_lane(c0_lane) == 5);
  CHECK_FALSE(l.reveal(p, c0_lane));
  l.collapse_kinds(p);  // avg rows only
  CHECK(l.rows().size() == 3 + 2 * 3);
  l.expand_only(p, {analysis::LaneKind::Utility});
  CHECK(l.rows().size() == 3 + 2 * 4);
  l.collapse_all(p);
  CHECK(l.rows().size() == 3 + 2);
  l.expand_all(p);
  CHECK(l.rows().size() == 15);
  CHECK_FALSE(l.toggle(p, ""));  // lanes do not fold
}

TEST_CASE("ranges, expand values and tick labels are parsed and written", "[viewer]") {
  std::string error;
  auto r = parse_range("1.5ms:3ms", &error);
  REQUIRE(r);
  CHECK(r->first == 1.5e6);
  CHECK(r->second == 3e6);
  r = parse_range("200us:", &error);
  REQUIRE(r);
  CHECK(r->second == HUGE_VAL);
  CHECK_FALSE(parse_range("3ms", &error));
  CHECK_THAT(error, Catch::Contains("START:END"));
  CHECK_FALSE(parse_range("1parsec:2ms", &error));
  CHECK_THAT(error, Catch::Contains("'1parsec' is not a time"));
  CHECK_FALSE(parse_range("2ms:1ms", &error));
  CHECK_THAT(error, Catch::Contains("after the start"));
  CHECK(check_expand("all").empty());
  CHECK(check_expand("auto").empty());
  CHECK(check_expand("cpu,Utility,gpu-device").empty());
  CHECK_THAT(check_expand("cpus"), Catch::Contains("'cpus' is not a kind of lane"));
  CHECK(tick_label(1.5e6, 5e5) == "1.5 ms");
  CHECK(tick_label(2e9, 1e9) == "2 s");
  CHECK(tick_label(88422000, 1000) == "88422 us");
  CHECK(tick_label(300, 100) == "300 ns");
  CHECK(tick_label(400'000, 200'000) == "400 us");
}

TEST_CASE("scripts with mistakes are refused with the line and what is wrong", "[viewer]") {
  const auto error_of = [](const std::string& text) {
    try {
      Script::parse(text, "s.txt");
    } catch (const ScriptError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(error_of("# a comment\n\nzoom 0.5\nkey ctrl+z\nselect add 2\nquit\n") == "(accepted)");
  CHECK_THAT(error_of("zoom 0.5\nzom 2\n"), Catch::StartsWith("s.txt:2: unknown step 'zom'"));
  CHECK_THAT(error_of("click 10\n"),
             Catch::Contains("s.txt:1: 'click' takes 2 to 3 argument(s), got 1"));
  CHECK_THAT(error_of("hover ten 20\n"), Catch::Contains("'ten' is not a number"));
  CHECK_THAT(error_of("key f13\n"), Catch::Contains("unknown key 'f13'"));
  CHECK_THAT(error_of("range 1ms 2lightyears\n"), Catch::Contains("'2lightyears' is not a time"));
  CHECK_THAT(error_of("expand gpus\n"), Catch::Contains("'gpus' is not a kind of lane"));
  CHECK_THAT(error_of("finding\n"), Catch::Contains("'finding' takes 1 argument(s), got 0"));
  CHECK_THAT(error_of("finding first\n"), Catch::Contains("'first' is not a number"));
  CHECK_THROWS_WITH(Script::load("/nonexistent/script.txt"),
                    Catch::Contains("cannot read the script file"));
}

TEST_CASE("a finding's focus: its window with a margin, its lanes, its items, the scroll",
          "[viewer]") {
  TempDir dir;
  viewer::testing::write_findings_trace(dir.file("legate_0.prof"));
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  const analysis::Findings all = analysis::find(p);
  const auto it = std::find_if(all.findings.begin(), all.findings.end(),
                               [](const analysis::Finding& f) { return f.rule == "tiny_tasks"; });
  REQUIRE(it != all.findings.end());
  const analysis::Finding& f = *it;
  const FindingFocus focus = focus_of(p, f);
  const double span = static_cast<double>(f.t1 - f.t0);
  CHECK(focus.t0 == Approx(static_cast<double>(f.t0) - span / 20));
  CHECK(focus.t1 == Approx(static_cast<double>(f.t1) + span / 20));
  CHECK(std::is_sorted(focus.outline.begin(), focus.outline.end()));
  CHECK(focus.outline.size() == f.items.size());
  CHECK(focus.own == std::vector<uint32_t>(f.lanes.begin(), f.lanes.end()));
  for (uint32_t i : f.items)
    CHECK(std::binary_search(focus.lanes.begin(), focus.lanes.end(), p.lane_of(i)));
  // A window at the run's end is clamped to it; a point gets at least 1 us.
  analysis::Finding point = f;
  point.t0 = point.t1 = p.stop;
  const FindingFocus end = focus_of(p, point);
  CHECK(end.t0 == Approx(static_cast<double>(p.stop) - 1000));
  CHECK(end.t1 == Approx(static_cast<double>(p.stop)));
  // Folded lanes have no row and do not scroll; unfolded ones scroll so the
  // kind's avg row comes first, unless they are on screen already.
  Layout l;
  l.build(p);
  l.collapse_all(p);
  CHECK(scroll_to_lanes(l, focus.lanes, 7, 100) == 7);
  for (uint32_t lane : focus.lanes) l.reveal(p, lane);
  const int first = l.row_of_lane(focus.lanes.front());
  REQUIRE(first > 0);
  CHECK(l.rows()[static_cast<size_t>(first) - 1].type == RowType::Avg);
  CHECK(scroll_to_lanes(l, focus.lanes, 0, 1000) == 0);
  CHECK(scroll_to_lanes(l, focus.lanes, 500, 30) == l.rows()[static_cast<size_t>(first) - 1].y);
  // The tiny tasks belong to the finding; the top-level task does not.
  const auto of_task = findings_of(p, all, f.items.front());
  CHECK(std::count(of_task.begin(), of_task.end(), static_cast<int>(it - all.findings.begin())) ==
        1);
}

TEST_CASE("a kind has its colour in every run whatever order its trace named things in",
          "[viewer][palette]") {
  // Two runs of one program: the second names an extra kind first, so the
  // two share no string ids for their kinds.
  TempDir dir;
  const auto write = [&](const std::string& file, std::vector<std::string> kinds) {
    analysis::testing::SyntheticTrace t(dir.file(file));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    trace::Time at = 0;
    for (const auto& name : kinds) {
      t.task(c0, t.task_kind(name), at, at + 10);
      at += 20;
    }
    t.finish();
  };
  write("a.prof", {"RandTask", "BinaryOpTask"});
  write("b.prof", {"ConvertTask", "BinaryOpTask", "RandTask"});
  const analysis::Profile a = load::load_profile({dir.file("a.prof")});
  const analysis::Profile b = load::load_profile({dir.file("b.prof")});
  const auto color = [](const analysis::Profile& p, const std::string& name,
                        analysis::State state) {
    for (uint32_t i = 0; i < p.items.size(); ++i)
      if (p.str(p.items[i].name) == name) return item_color(p, i, state);
    FAIL("no item named " << name);
    return ImU32{0};
  };
  for (const char* name : {"RandTask", "BinaryOpTask"}) {
    INFO(name);
    for (const auto s :
         {analysis::State::Running, analysis::State::Ready, analysis::State::Blocked})
      CHECK(color(a, name, s) == color(b, name, s));
  }
  // ... and the ids really differ, and the kinds' colours too.
  uint32_t rand_a = 0, rand_b = 0;
  for (const auto& it : a.items)
    if (a.str(it.name) == "RandTask") rand_a = it.name;
  for (const auto& it : b.items)
    if (b.str(it.name) == "RandTask") rand_b = it.name;
  CHECK(rand_a != rand_b);
  CHECK(color(b, "RandTask", analysis::State::Running) !=
        color(b, "ConvertTask", analysis::State::Running));
}

TEST_CASE("names that differ in one letter get hues far apart", "[viewer][palette]") {
  // The hue of a running task of each name, in degrees.
  const auto hue = [](const std::string& name) {
    const analysis::Rgb c =
        analysis::item_rgb(name, analysis::ItemKind::Task, analysis::State::Running);
    const double r = c.r / 255.0, g = c.g / 255.0, b = c.b / 255.0;
    const double hi = std::max({r, g, b}), lo = std::min({r, g, b}), d = hi - lo;
    if (d == 0) return 0.0;
    double h = hi == r ? std::fmod((g - b) / d, 6.0) : hi == g ? (b - r) / d + 2 : (r - g) / d + 4;
    return std::fmod(h * 60 + 360, 360);
  };
  // Over many pairs, the median distance between neighbours' hues is far
  // from 0 (a hash whose last letter moved only low bits gave them all ~0).
  std::vector<double> apart;
  for (int i = 0; i < 200; ++i) {
    const double a = hue("task" + std::to_string(i)), b = hue("task" + std::to_string(i + 1));
    const double d = std::fabs(a - b);
    apart.push_back(std::min(d, 360 - d));
  }
  std::nth_element(apart.begin(), apart.begin() + 100, apart.end());
  CHECK(apart[100] > 40);
}
