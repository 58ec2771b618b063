// A whole viewer App, headless, driven by scripted mouse and key input on a
// synthetic trace (written through the writer API; nothing ran) with known
// answers: selection and details (a GPU kernel's short name and signature),
// the critical-path link and chain, back, zoom keys and undo, wheel, drags
// to select, pan and zoom to a range, folding by label, tooltips, folded
// boxes, search, the error banner, and opening files from the open box
// after a failed load.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/units.hpp"
#include "trace_format/trace_test_util.hpp"
#include "viewer/headless.hpp"
#include "viewer_session.hpp"

using namespace legato;
using namespace legato::viewer;
using nlohmann::json;
using trace::testing::TempDir;

namespace {

// c0: first (0..100 us); c1: second (200..300 us) after first; c0: third
// (400..500 us) after second; c1: 200 tiny tasks from 600 us; io0: a
// top-level task blocked from 100 to 450 us; a fatal error at 900 us.
void write_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const auto io = t.processor(trace::ProcKind::Io, 0, "io0");
  const auto k = t.task_kind("work");
  const auto tiny = t.task_kind("tiny");
  const auto top = t.task(io, t.task_kind("TopLevelTask"), 0, 1'000'000);
  t.wait(top, 100'000, 440'000, 450'000);
  const auto a = t.task(c0, k, 0, 100'000, t.operation("first", "prog.cc:10"));
  const auto b = t.task(c1, k, 200'000, 300'000, t.operation("second", "prog.cc:11"));
  const auto c = t.task(c0, k, 400'000, 500'000, t.operation("third", "prog.cc:12"));
  t.edge(b, a);
  t.edge(c, b);
  for (int i = 0; i < 200; ++i) t.task(c1, tiny, 600'000 + i * 1000, 600'000 + i * 1000 + 500);
  t.writer().add(trace::ErrorRecord{900'000, trace::ErrorKind::Fatal, 0, trace::kNoResource,
                                    t.writer().intern("task third failed\nwith a long story")});
  t.finish();
}

// The shared session, with where things are on the screen.
struct Session : testing::Session {
  using testing::Session::Session;
  double width() {
    return app.state()["window"]["t1"].get<double>() - app.state()["window"]["t0"].get<double>();
  }
  // Window pixel of time t (ns from the start) on the row labelled text.
  std::pair<float, float> at(double t, const std::string& text) {
    const json s = app.state();
    const auto& area = s["lanes_area"];
    const double t0 = s["window"]["t0"], t1 = s["window"]["t1"];
    for (const auto& r : s["rows"]) {
      if (r["text"] == text)
        return {
            area[0].get<float>() + static_cast<float>((t - t0) / (t1 - t0)) * area[2].get<float>(),
            r["top"].get<float>() + 6};
    }
    FAIL("no row " << text);
    return {0, 0};
  }
  std::string xy(double t, const std::string& text) {
    const auto [x, y] = at(t, text);
    return std::to_string(x) + " " + std::to_string(y);
  }
};

}  // namespace

TEST_CASE("an item's details give the runtime work done for its operation", "[viewer]") {
  TempDir dir;
  {
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
    const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
    const auto op = t.operation("scale", "prog.py:4");
    t.meta(u0, "Dependence Analysis", 1'000, 1'400, op);
    t.meta(u0, "Mapping", 1'400, 2'000, op);
    t.task(c0, t.task_kind("scale"), 3'000, 9'000, op);
    t.task(c1, t.task_kind("scale"), 3'000, 9'000, op);
    t.finish();
  }
  Session s(dir.file("legate_0.prof"));
  const json st = s.run("select scale\nwait 1\n");
  REQUIRE(st.contains("selected"));
  CHECK(st["selected"]["operation_runtime"] == 1000);
  CHECK(st["selected"]["runtime_overhead"] == 500);  // two point tasks share it
}

TEST_CASE("a GPU kernel shows its short name, and its signature in the details", "[viewer]") {
  TempDir dir;
  const std::string signature =
      "void legato::rt::kernels::(anonymous namespace)::binary_kernel<double, double, "
      "legato::rt::kernels::(anonymous namespace)::AddOp>(legato::rt::kernels::cuda::Shape, "
      "double*, long)";
  {
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto host = t.processor(trace::ProcKind::GpuHost, 0, "g0h");
    const auto device = t.processor(trace::ProcKind::GpuDevice, 0, "g0d");
    const auto task = t.task(host, t.task_kind("BinaryOpTask"), 0, 100'000);
    t.writer().add(
        trace::GpuKernelRecord{task, device, t.writer().intern(signature), 0, 20'000, 80'000});
    t.finish();
  }
  Session s(dir.file("legate_0.prof"));
  // Its box names it by its short name.
  const json hovered = s.run("hover " + s.xy(50'000, "g0d") + "\nwait 1\n");
  CHECK_THAT(hovered["tooltip"].get<std::string>(),
             Catch::StartsWith("binary_kernel<double, double, AddOp> (GPU kernel) on g0d"));
  // Its details give the whole signature too.
  const json st = s.run("select binary_kernel\nwait 1\n");
  REQUIRE(st.contains("selected"));
  CHECK(st["selected"]["name"] == "binary_kernel<double, double, AddOp>");
  CHECK(st["selected"]["signature"] == signature);
}

TEST_CASE("selecting a task shows its details and following the critical path moves the view",
          "[viewer]") {
  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  json st = s.run("select third\nwait 1\n");
  REQUIRE(st.contains("selected"));
  CHECK(st["selected"]["name"] == "work");
  CHECK(st["selected"]["operation"] == "third");
  CHECK(st["selected"]["provenance"] == "prog.cc:12");
  REQUIRE(st["selected"]["preconditions"].size() == 1);
  CHECK(st["selected"]["preconditions"][0]["kind"] == "data");
  const int second = st["selected"]["critical"];
  REQUIRE(second >= 0);
  const double before = st["window"]["t0"];
  st = s.run("range 700us 800us\nwait 1\nclick-ui critical\nwait 1\n");
  CHECK(st["selected"]["operation"] == "second");
  CHECK(st["flash"] == second);
  CHECK(st["window"]["t0"].get<double>() <= 200'000);
  CHECK(st["window"]["t1"].get<double>() >= 300'000);
  CHECK(st["window"]["t0"] != before);
  // The chain of the second task: itself, then the first.
  st = s.run("click-ui chain\nwait 1\n");
  REQUIRE(st["chain"].size() == 2);
  CHECK(st["chain"][0] == second);
  // Back to the third task.
  st = s.run("click-ui back\nwait 1\n");
  CHECK(st["selected"]["operation"] == "third");
  // A double click zooms to the item.
  s.run("key 0\nwait 1\n");
  const std::string first = s.xy(50'000, "c0");
  st = s.run("click " + first + "\nclick " + first + "\nwait 1\n");
  CHECK(st["selected"]["operation"] == "first");
  CHECK(st["window"]["t0"].get<double>() == Approx(-50'000).margin(1000));
  CHECK(st["window"]["t1"].get<double>() == Approx(150'000).margin(1000));
  // Escape clears the chain, then the selection.
  st = s.run("key escape\nwait 1\nkey escape\nwait 1\n");
  CHECK(st["chain"].empty());
  CHECK_FALSE(st.contains("selected"));
}

TEST_CASE("keys, wheel and drags zoom, pan and undo", "[viewer]") {
  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  const double full = s.width();
  s.run("key +\nwait 1\n");
  CHECK(s.width() == Approx(full * 0.8));
  s.run("key backspace\nwait 1\n");
  CHECK(s.width() == Approx(full));
  s.run("key ctrl+y\nwait 1\n");  // redo
  CHECK(s.width() == Approx(full * 0.8));
  s.run("key 0\nwait 1\n");
  CHECK(s.width() == Approx(full));
  // The wheel zooms around the mouse: the time under it stays put.
  const auto [x, y] = s.at(250'000, "c1");
  s.run("wheel " + std::to_string(x) + " " + std::to_string(y) + " 2\nwait 1\n");
  CHECK(s.width() == Approx(full * 0.64));
  CHECK(s.at(250'000, "c1").first == Approx(x).margin(1));
  // A right drag of 100 px to the right shows earlier times.
  json st = s.app.state();
  const double t0 = st["window"]["t0"], per_px = s.width() / st["lanes_area"][2].get<double>();
  s.run("drag " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(x + 100) +
        " " + std::to_string(y) + " right\nwait 1\n");
  CHECK(s.app.state()["window"]["t0"].get<double>() == Approx(t0 - 100 * per_px).epsilon(0.01));
  // A shift drag zooms into the range it covers.
  s.run("key 0\nwait 1\n");
  const auto a = s.at(200'000, "c0"), b = s.at(400'000, "c0");
  const std::string a_to_b = std::to_string(a.first) + " " + std::to_string(a.second) + " " +
                             std::to_string(b.first) + " " + std::to_string(b.second);
  st = s.run("drag " + a_to_b + " shift\nwait 1\n");
  CHECK(st["window"]["t0"].get<double>() == Approx(200'000).epsilon(0.01));
  CHECK(st["window"]["t1"].get<double>() == Approx(400'000).epsilon(0.01));
  // A plain drag selects the range and says how long it is; the view stays.
  s.run("key 0\nwait 1\n");
  st = s.run("drag " + a_to_b + "\nwait 1\n");
  CHECK(s.width() == Approx(full));
  REQUIRE(st.contains("range"));
  CHECK(st["range"]["from"].get<double>() == Approx(200'000).epsilon(0.01));
  CHECK(st["range"]["length"].get<double>() == Approx(200'000).epsilon(0.01));
  // m marks it, f fills the view with it, escape ends the selection; the
  // mark stays.
  st = s.run("key m\nwait 1\nkey f\nwait 1\n");
  CHECK(st["window"]["t0"].get<double>() == Approx(200'000).epsilon(0.01));
  CHECK(st["window"]["t1"].get<double>() == Approx(400'000).epsilon(0.01));
  st = s.run("key escape\nwait 1\n");
  CHECK_FALSE(st.contains("range"));
  CHECK(st["mark"]["length"].get<double>() == Approx(200'000).epsilon(0.01));
  // W and S zoom around the mouse, A and D pan by a tenth of the view.
  s.run("key 0\nwait 1\n");
  const float under_mouse = s.at(250'000, "c1").first;
  s.run("hover " + s.xy(250'000, "c1") + "\nwait 1\nkey w\nwait 1\n");
  CHECK(s.width() == Approx(full * 0.8));
  CHECK(s.at(250'000, "c1").first == Approx(under_mouse).margin(1));
  s.run("key s\nwait 1\n");
  CHECK(s.width() == Approx(full));
  st = s.app.state();
  const double before = st["window"]["t0"];
  st = s.run("key d\nwait 1\n");
  CHECK(st["window"]["t0"].get<double>() == Approx(before + full * 0.1).epsilon(0.01));
  st = s.run("key a\nwait 1\n");
  CHECK(st["window"]["t0"].get<double>() == Approx(before).margin(full * 0.001));
  // Statistics and Findings moved to shift+S and shift+F.
  CHECK(st["windows"]["stats"] == false);
  st = s.run("key S\nwait 1\n");
  CHECK(st["windows"]["stats"] == true);
}

TEST_CASE("labels fold lanes, tooltips describe, folded boxes zoom in, search finds", "[viewer]") {
  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  const size_t rows = s.app.state()["rows"].size();
  json st = s.run("click-label CPU avg (2)\nwait 1\n");
  CHECK(st["rows"].size() == rows - 2);
  st = s.run("click-label CPU avg (2)\nwait 1\n");
  CHECK(st["rows"].size() == rows);
  // Hovering the first task names it.
  st = s.run("hover " + s.xy(50'000, "c0") + "\nwait 1\n");
  CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("work (task) on c0, node 0"));
  CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("prog.cc:10"));
  // The 200 tiny tasks fold into one box when the whole run shows, which
  // says what ran in it; a click zooms into it.
  st = s.run("hover " + s.xy(700'000, "c1") + "\nwait 1\n");
  CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("200 items folded"));
  CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("\n100%  tiny (task)\n"));
  st = s.run("click " + s.xy(700'000, "c1") + "\nwait 1\n");
  CHECK(st["window"]["t0"].get<double>() == Approx(600'000).margin(1000));
  CHECK(st["window"]["t1"].get<double>() == Approx(799'500).margin(1000));
  // The avg line says how busy the CPUs were.
  s.run("key 0\nwait 1\n");
  st = s.run("hover " + s.xy(50'000, "CPU avg (2)") + "\nwait 1\n");
  CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("CPU avg (2): 50.0% at"));
  // Search highlights and lists; a result selects its item.
  st = s.run("search tiny\nwait 2\nclick-ui first-result\nwait 1\n");
  CHECK(st["hits"] == 200);
  CHECK(st["selected"]["name"] == "tiny");
  CHECK(st["selected"]["start"] == 600'000);
}

TEST_CASE("a failed run opens on its error, and a missing file on the open box", "[viewer]") {
  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  {
    Session s(dir.file("legate_0.prof"));
    json st = s.run("click-ui error-message\nwait 1\n");
    CHECK(st["windows"]["error"] == true);
    st = s.run("hover " + s.xy(900'000, "c0") + "\nwait 1\n");
    CHECK_THAT(st["tooltip"].get<std::string>(), Catch::Contains("task third failed"));
  }
  Session s(dir.file("missing.prof"));
  json st = s.app.state();
  CHECK_THAT(st["error"].get<std::string>(), Catch::Contains("missing.prof"));
  CHECK(s.app.profile() == nullptr);
  st = s.run("click-ui paths\nwait 1\ntype " + dir.file("legate_*.prof") +
             "\nwait 1\nkey enter\nwait 2\n");
  s.app.wait_loaded();
  s.ctx.frame(s.app);
  st = s.app.state();
  REQUIRE(s.app.profile() != nullptr);
  CHECK(st["error"] == "");
  CHECK(st["files"][0] == dir.file("legate_0.prof"));
  // File > Open... closes it (while its avg lines may still be computing).
  s.app.close();
  s.ctx.frame(s.app);
  CHECK(s.app.profile() == nullptr);
  CHECK(s.app.control("paths").has_value());
}

TEST_CASE("a click on a narrow task beside a box of folded items selects the task", "[viewer]") {
  TempDir dir;
  {
    // c0: two 1 ns tasks that fold into a box widened to 3 px, then a task
    // of about 4 px starting 2 ns after them, half of which that box covers.
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto tiny = t.task_kind("tiny"), narrow = t.task_kind("narrow");
    t.task(c0, tiny, 0, 10);  // the run's start
    t.task(c0, tiny, 9'900, 9'901);
    t.task(c0, tiny, 9'902, 9'903);
    t.task(c0, narrow, 9'905, 9'965);
    t.task(c0, tiny, 15'990, 16'000);
    t.finish();
  }
  Session s(dir.file("legate_0.prof"));
  json st = s.run("range 0ns 16000ns\nwait 1\n");
  const double ns_per_px = 16'000 / st["lanes_area"][2].get<double>();
  REQUIRE(9'900 + 3 * ns_per_px > 9'936);  // the folded box reaches past the task's middle
  REQUIRE(3 * ns_per_px <= 60);            // the narrow task is drawn on its own
  st = s.run("click " + s.xy(9'935, "c0") + "\nwait 1\n");
  REQUIRE(st.contains("selected"));
  CHECK(st["selected"]["name"] == "narrow");
  CHECK(st["window"]["t1"].get<double>() - st["window"]["t0"].get<double>() ==
        Approx(16'000).epsilon(0.01));  // not zoomed into the box
}

TEST_CASE("a run opened for a range of its time shows it, says what it left out, judges nothing",
          "[viewer]") {
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  {
    // 2000 tasks 1 us apart, in frames of 100 us.
    analysis::testing::SyntheticTrace t(path);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto k = t.task_kind("work");
    for (int i = 0; i < 2000; ++i) {
      t.task(c0, k, i * 1000, i * 1000 + 700);
      if (i % 100 == 99) t.writer().flush();
    }
    t.finish();
  }
  viewer::ViewOptions o = testing::Session::options(path);
  o.range = {{500'000, 700'000}};
  HeadlessContext ctx(1200, 700);
  App app(o);
  app.wait_settled();
  ctx.frame(app);
  const json s = app.state();
  REQUIRE(s.contains("loaded"));
  CHECK(s["loaded"]["from"] == 500'000);
  CHECK(s["loaded"]["to"] == 700'000);
  // The frames reaching into 500..700 us (their neighbours' edges touch it).
  const uint64_t left_out = s["loaded"]["items_left_out"];
  CHECK(left_out >= 1600);
  CHECK(left_out < 1800);
  CHECK(s["window"]["t0"] == 500'000.0);
  CHECK(s["window"]["t1"] == 700'000.0);
  CHECK(s["findings"].empty());
  CHECK_THAT(s["findings_note"].get<std::string>(), Catch::Contains("--range"));
}

TEST_CASE("search steps through every hit by start time with Enter and shift+Enter",
          "[viewer][search]") {
  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  // "work" names a (c0, at 0), b (c1, at 200 us) and c (c0, at 400 us):
  // in lane order a, c, b; stepped in time order a, b, c.
  json st = s.run("search work\nwait 2\nclick-ui search\nwait 1\n");
  CHECK(st["hits"] == 3);
  CHECK(st["hit_at"] == -1);
  std::vector<std::string> seen;
  for (int k = 0; k < 3; ++k) {
    st = s.run("key enter\nwait 1\n");
    seen.push_back(st["selected"]["operation"]);
  }
  CHECK(seen == std::vector<std::string>{"first", "second", "third"});
  CHECK(st["hit_at"] == 2);
  st = s.run("key shift+enter\nwait 1\n");
  CHECK(st["selected"]["operation"] == "second");
  st = s.run("key enter\nwait 1\nkey enter\nwait 1\n");  // past the last: back to the first
  CHECK(st["selected"]["operation"] == "first");
  // Every hit is counted, not the first thousand: the 200 tiny tasks and
  // the others named by "t" (the top-level task, third, ...).
  st = s.run("search tiny\nwait 2\n");
  CHECK(st["hits"] == 200);
  CHECK(st["hits_capped"] == false);
  // The search window stands right of the lane labels.
  const auto search = s.app.control("search");
  REQUIRE(search);
  CHECK(search->x >= st["lanes_area"][0].get<float>());
}

TEST_CASE("the view as a link into the report and as a command line that opens it again",
          "[viewer][link]") {
  // Times as the links write them read back to the same nanosecond.
  CHECK(analysis::typed_time(1'500'000) == "1.5ms");
  CHECK(analysis::typed_time(250'000) == "250us");
  CHECK(analysis::typed_time(2'000'000'001) == "2.000000001s");
  CHECK(analysis::typed_time(17) == "17ns");
  CHECK(analysis::typed_time(-3'000) == "-3us");
  for (const double ns : {0.0, 1.0, 999.0, 1000.0, 123'456'789.0, 98'765'432'101.0})
    CHECK(*analysis::parse_duration_ns(analysis::typed_time(ns)) == ns);

  TempDir dir;
  write_trace(dir.file("legate_0.prof"));
  uint32_t second = 0;  // the item selected, "second" at 200 us to 300 us
  {
    Session s(dir.file("legate_0.prof"));
    // No report beside the trace: no link; the command line always.
    json st = s.run("range 200us 400us\nwait 1\nclick " + s.xy(250'000, "c1") + "\nwait 1\n");
    CHECK(st["link"] == "");
    CHECK(st["selected"]["operation"] == "second");
    second = st["selected"]["item"];
    const std::string command = st["command"];
    CHECK_THAT(command, Catch::StartsWith("legate_prof view " + dir.file("legate_0.prof") +
                                          " --window 200us:400us --select "));
    // The report once there: the link carries the window, the item and the
    // search, as the report reads them.
    std::filesystem::create_directories(dir.file("legate_prof"));
    std::ofstream(dir.file("legate_prof/index.html")) << "<!doctype html>";
    st = s.run("search prog.cc:1\nwait 2\n");
    const std::string item = std::to_string(st["selected"]["item"].get<uint32_t>());
    CHECK(st["link"] == "file://" + dir.file("legate_prof/index.html") +
                            "#range=200us:400us&item=" + item + "&q=prog.cc%3A1");
  }
  // The command's --window and --select open the same view.
  viewer::ViewOptions o = Session::options(dir.file("legate_0.prof"));
  std::string error;
  o.window = viewer::parse_range("200us:400us", &error);
  o.select = second;
  viewer::HeadlessContext ctx{1200, 700};
  viewer::App app(o);
  app.wait_settled();
  ctx.frame(app);
  json st = app.state();
  CHECK(st["window"]["t0"].get<double>() == Approx(200'000));
  CHECK(st["window"]["t1"].get<double>() == Approx(400'000));
  CHECK(st["selected"]["item"] == second);
  // Opened for a part (--range), its command keeps that part, whose item
  // numbers it counts in.
  o.range = viewer::parse_range("150us:450us", &error);
  viewer::App part(o);
  part.wait_settled();
  ctx.frame(part);
  CHECK_THAT(part.state()["command"].get<std::string>(),
             Catch::Contains(" --range 150us:450us --window 200us:400us"));
  // An item the run does not have is said, and nothing is selected.
  o.select = 1'000'000;
  viewer::App far(o);
  far.wait_settled();
  ctx.frame(far);
  st = far.state();
  CHECK_FALSE(st.contains("selected"));
  CHECK_THAT(st["warnings"].dump(), Catch::Contains("--select 1000000: the run has"));
}
