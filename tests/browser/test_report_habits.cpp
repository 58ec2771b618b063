// The habits Perfetto and Tracy users bring, in the report in headless
// Chromium (real key and mouse events, the page's state read back): W/S
// zoom, A/D pan, a drag selects a range and says how long it is, F focuses
// it, M marks it, a right drag pans, a shift drag zooms; the URL carries the
// view, the open item and the search, and a link opens at them. The trace is
// written through the writer API (nothing ran). Skipped with a message when
// Chromium cannot start.
#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "analysis/palette.hpp"
#include "browser/chromium.hpp"
#include "browser/report_page.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using trace::testing::TempDir;

namespace {

// Two CPUs of 1 ms tasks over 100 ms, named a and b in turn.
std::string write_report(TempDir& dir) {
  {
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const uint32_t cpus[] = {t.processor(trace::ProcKind::Cpu, 0, "c0"),
                             t.processor(trace::ProcKind::Cpu, 1, "c1")};
    const uint32_t kinds[] = {t.task_kind("a"), t.task_kind("b")};
    for (int i = 0; i < 100; ++i) {
      for (const uint32_t cpu : cpus)
        t.task(cpu, kinds[i % 2], i * 1'000'000, i * 1'000'000 + 900'000);
    }
    t.finish();
  }
  html::write_report(load::load_profile({dir.file("legate_0.prof")}), dir.file("report"));
  return dir.file("report/index.html");
}

// The view's window from the run's start, and its width, in ns.
double from_start(Chromium& c, const char* end) {
  return c.eval(std::string("legatoReport.timeline.") + end + " - legatoReport.profile.run.start")
      .get<double>();
}
double span(Chromium& c) {
  return c.eval("legatoReport.timeline.t1 - legatoReport.timeline.t0");
}

}  // namespace

TEST_CASE("the report answers W/A/S/D, a drag measures, F focuses and M marks",
          "[browser][habits]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  REQUIRE(testing::open_report(chrome, write_report(dir)));
  // Where the canvas is on the page, and a point on the first lane.
  const auto box = chrome.eval(
      "(() => { const r = legatoReport.timeline.canvas.getBoundingClientRect();"
      "return [r.left, r.top, r.width]; })()");
  const double left = box[0], top = box[1], width = box[2];
  const double y = top + 60;
  chrome.mouse_move(left + width / 2, y);
  const double full = span(chrome);
  chrome.key("w");
  CHECK(span(chrome) == Approx(full * 0.8));
  chrome.key("s");
  CHECK(span(chrome) == Approx(full));
  const double t0 = from_start(chrome, "t0");
  chrome.key("d");
  CHECK(from_start(chrome, "t0") == Approx(t0 + full / 10).margin(full * 0.002));
  chrome.key("a");
  CHECK(from_start(chrome, "t0") == Approx(t0).margin(full * 0.002));

  // A drag over a quarter of the view selects it and says how long it is;
  // the view stays.
  chrome.drag(left + width / 4, y, left + width / 2, y);
  CHECK(span(chrome) == Approx(full));
  REQUIRE(chrome.eval("Boolean(legatoReport.timeline.range)") == true);
  const double length =
      chrome.eval("legatoReport.timeline.range[1] - legatoReport.timeline.range[0]");
  CHECK(length == Approx(full / 4).epsilon(0.02));
  CHECK_THAT(chrome.eval("document.getElementById('selection').textContent").get<std::string>(),
             Catch::StartsWith("selected "));
  // M marks it, F fills the view with it, Escape ends the selection; the
  // mark stays.
  chrome.key("m");
  chrome.key("f");
  CHECK(span(chrome) == Approx(length).epsilon(0.001));
  chrome.key("Escape");
  CHECK(chrome.eval("legatoReport.timeline.range") == nullptr);
  CHECK(chrome.eval("legatoReport.timeline.mark[1] - legatoReport.timeline.mark[0]") ==
        Approx(length));
  CHECK(chrome.eval("document.getElementById('selection').textContent") == "");

  // A right drag pans; a shift drag zooms to its range.
  chrome.key("0");
  const double before = from_start(chrome, "t0");
  chrome.drag(left + width / 2, y, left + width / 2 + 100, y, "right");
  CHECK(from_start(chrome, "t0") == Approx(before - 100 * full / width).margin(full * 0.002));
  chrome.key("0");
  chrome.drag(left + width / 4, y, left + width / 2, y, "left", true);
  CHECK(span(chrome) == Approx(full / 4).epsilon(0.02));
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("the report's URL carries its view, item and search, and a link opens at them",
          "[browser][habits]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string page = write_report(dir);
  // A link to 10 ms..30 ms with item 7 open and a search.
  chrome.open_file(page, "range=10ms:30ms&item=7&q=b");
  REQUIRE(chrome.wait_for("document.body.dataset.state === 'ready'"));
  chrome.eval("legatoReport.settled()");
  CHECK(from_start(chrome, "t0") == Approx(10e6));
  CHECK(from_start(chrome, "t1") == Approx(30e6));
  REQUIRE(chrome.wait_for("!document.getElementById('popup').hidden"));
  CHECK(chrome.eval("document.getElementById('popup').dataset.item") == "7");
  CHECK(chrome.eval("document.getElementById('search').value") == "b");
  REQUIRE(chrome.wait_for("legatoReport.timeline.search && legatoReport.timeline.search.total > 0",
                          3000));
  // Moving writes the view back into the URL (as the link's own times).
  chrome.eval("document.getElementById('search').blur(); 0");
  chrome.key("d");
  REQUIRE(chrome.wait_for("location.hash.includes('range=12ms:32ms')", 3000));
  CHECK_THAT(chrome.eval("location.hash").get<std::string>(), Catch::Contains("item=7"));
  CHECK_THAT(chrome.eval("location.hash").get<std::string>(), Catch::Contains("q=b"));
  // A link the page cannot follow says why, and the page still opens.
  chrome.open_file(page, "range=soon:later");
  REQUIRE(chrome.wait_for("document.body.dataset.state === 'ready'"));
  CHECK_THAT(chrome.eval("document.getElementById('warnings').textContent").get<std::string>(),
             Catch::Contains("the link's range \"soon:later\" is not START:END"));
  CHECK(span(chrome) > 90e6);
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("the report's search steps through hits by start time, back with shift+Enter",
          "[browser][habits]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  REQUIRE(testing::open_report(chrome, write_report(dir)));
  // "b" names every other task on both CPUs: in item order all of c0's
  // first, by time c0 and c1 in turn.
  chrome.eval(
      "(() => { const s = document.getElementById('search'); s.value = 'b';"
      "s.dispatchEvent(new Event('input')); s.focus(); })()");
  REQUIRE(chrome.wait_for("legatoReport.timeline.search && legatoReport.timeline.search.total > 0",
                          3000));
  CHECK(chrome.eval("legatoReport.timeline.search.total") == 100);
  const auto opened = [&] {
    REQUIRE(
        chrome.wait_for("!document.getElementById('popup').hidden && "
                        "document.getElementById('popup').dataset.item !== undefined"));
    const int i =
        std::stoi(chrome.eval("document.getElementById('popup').dataset.item").get<std::string>());
    return std::make_pair(chrome
                              .eval("legatoReport.profile.start(" + std::to_string(i) +
                                    ") - legatoReport.profile.run.start")
                              .get<double>(),
                          chrome
                              .eval("legatoReport.profile.lanes[legatoReport.profile.laneOf(" +
                                    std::to_string(i) + ")].name")
                              .get<std::string>());
  };
  std::vector<std::pair<double, std::string>> seen;
  for (int k = 0; k < 4; ++k) {
    const std::string before = chrome.eval("document.getElementById('hits').textContent");
    chrome.key("Enter");
    REQUIRE(chrome.wait_for("document.getElementById('hits').textContent !== " +
                            nlohmann::json(before).dump()));
    seen.push_back(opened());
  }
  CHECK(seen[0] == std::make_pair(1e6, std::string("c0")));
  CHECK(seen[1] == std::make_pair(1e6, std::string("c1")));
  CHECK(seen[2] == std::make_pair(3e6, std::string("c0")));
  CHECK(seen[3] == std::make_pair(3e6, std::string("c1")));
  CHECK(chrome.eval("document.getElementById('hits').textContent") == "4 of 100");
  chrome.eval("document.getElementById('search').focus(); 0");
  chrome.key_with_shift("Enter");
  REQUIRE(chrome.wait_for("document.getElementById('hits').textContent === '3 of 100'"));
  CHECK(opened() == std::make_pair(3e6, std::string("c0")));
}

TEST_CASE("the report's dark theme: from its link or its button, canvas and page alike",
          "[browser][habits]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string page = write_report(dir);
  chrome.open_file(page, "theme=dark");
  REQUIRE(chrome.wait_for("document.body.dataset.state === 'ready'"));
  chrome.eval("legatoReport.settled()");
  // The brightness of the canvas's time ruler (the canvas is clear where
  // nothing is drawn), and the page's background.
  const auto canvas_luma = [&] {
    chrome.eval("legatoReport.timeline.paint(); 0");
    return chrome
        .eval(
            "(() => { const c = legatoReport.timeline.canvas, g = c.getContext('2d');"
            "const d = g.getImageData(5, 5, 1, 1).data;"
            "return 0.299 * d[0] + 0.587 * d[1] + 0.114 * d[2]; })()")
        .get<double>();
  };
  CHECK(chrome.eval("document.documentElement.classList.contains('dark')") == true);
  CHECK(chrome.eval("getComputedStyle(document.body).backgroundColor") == "rgb(30, 32, 36)");
  CHECK(canvas_luma() < 120);
  // The button switches to light, and the link says so only when it is
  // not the system's (headless Chromium's is light).
  chrome.eval("document.getElementById('theme-button').click(); 0");
  CHECK(chrome.eval("document.documentElement.classList.contains('dark')") == false);
  CHECK(canvas_luma() > 200);
  chrome.eval("document.getElementById('theme-button').click(); 0");
  REQUIRE(chrome.wait_for("location.hash.includes('theme=dark')", 3000));
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("the report draws a kind in the colour pinned to it", "[browser][habits]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  analysis::pin_colors({{"a", analysis::Rgb{0x3c, 0xb4, 0x4b}}});
  const std::string page = write_report(dir);
  analysis::pin_colors({});
  REQUIRE(testing::open_report(chrome, page));
  // "a" runs in the pinned colour; "b" keeps its hue.
  const auto running = [&](const char* name) {
    return chrome
        .eval(std::string("(() => { const p = legatoReport.profile;"
                          "const n = p.strings.indexOf('") +
              name + "'); return fillFor(p, n, p.kind(0), 0); })()")
        .get<std::string>();
  };
  CHECK(running("a") == "#3cb44b");
  CHECK(running("b") != "#3cb44b");
}
