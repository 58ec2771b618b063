// The HTML report in headless Chromium: a real workload's report loads, its
// lanes and avg lines are there (memories folded to theirs), clicking opens
// details whose critical-path link moves the view, search finds tasks by
// provenance; a seed workload's findings and every kind fit the first
// screen; trace strings full of markup stay text. Skipped with a message when
// Chromium cannot start.
#include <filesystem>

#include <catch2/catch.hpp>

#include "../analysis/crafted_traces.hpp"
#include "../analysis/synthetic_trace.hpp"
#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "analysis/palette.hpp"
#include "browser/chromium.hpp"
#include "browser/report_page.hpp"
#include "html_export/report.hpp"
#include "load/load.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using legato::testing::Chromium;
using trace::testing::TempDir;

namespace {

// Centre of item i on the screen after revealing it, as [x, y].
nlohmann::json reveal(Chromium& c, int i) {
  c.eval("legatoReport.timeline.reveal(" + std::to_string(i) +
         ").then(() => legatoReport.settled()).then(() => { legatoReport.timeline.paint(); return "
         "0; })");
  return c.eval(
      "(() => { const t = legatoReport.timeline, r = t.canvas.getBoundingClientRect();"
      "const b = t.hitBoxes.find((h) => h.count === 1 && h.first === " +
      std::to_string(i) +
      ");"
      "return b ? [r.left + (Math.max(b.x0, 0) + Math.min(b.x1, t.w)) / 2, r.top + b.y + b.h / 2] "
      ": null; })()");
}

}  // namespace

TEST_CASE("a workload's report works in a browser", "[browser]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const auto run = testing::run_command(testing::bin("legate") + " --cpus 2 --profile --logdir " +
                                        dir.path().string() + " " + testing::bin("cg") +
                                        " -n 12 --operator stencil");
  REQUIRE(run.status == 0);
  // The run wrote its report at the end, as the seeds promise.
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  REQUIRE(std::filesystem::exists(dir.file("legate_prof/index.html")));
  REQUIRE(legato::testing::open_report(chrome, dir.file("legate_prof/index.html")));
  INFO([&] {
    std::string log;
    for (const auto& l : chrome.console()) log += l + "\n";
    return log;
  }());
  CHECK(chrome.eval("document.getElementById('status').textContent") == "");
  // Every kind has an avg line; memories open folded to it, every other
  // lane has a label. Unfolding the memories labels every lane.
  size_t kinds = 0, unfolded = 0;
  for (const auto& n : profile.nodes) kinds += n.kinds.size();
  for (const auto& l : profile.lanes) unfolded += analysis::is_memory(l.kind) ? 0 : 1;
  CHECK(chrome.eval("document.querySelectorAll('.avg-label').length") == kinds);
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == unfolded);
  chrome.eval(
      "document.querySelectorAll('.avg-label').forEach((a) => {"
      "if (a.textContent.startsWith('▸')) a.click(); }); 0");
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == profile.lanes.size());
  CHECK(chrome.eval("legatoReport.timeline.avgLines.length > 0") == true);
  CHECK(chrome.eval("legatoReport.profile.count") == profile.items.size());
  // Axis labels carry the step's precision, no more.
  CHECK(chrome.eval("[tickLabel(2e8, 1e8), tickLabel(1.5e6, 5e5), tickLabel(5000, 5000), "
                    "tickLabel(2.5e9, 5e8), tickLabel(250, 50)]") ==
        nlohmann::json({"200 ms", "1.5 ms", "5 us", "2.5 s", "250 ns"}));
  // The page's preconditions (the mapped-by edges the model derives
  // included) and critical steps are the model's.
  nlohmann::json expected = nlohmann::json::array();
  for (uint32_t i = 0; i < profile.items.size(); ++i) {
    size_t n = 0;
    profile.for_each_precondition(i, [&](const analysis::Precondition&) { ++n; });
    const uint32_t last = analysis::last_precondition(profile, i);
    expected.push_back({n, last == analysis::kNone ? -1 : static_cast<int64_t>(last)});
  }
  CHECK(chrome.eval("(async () => { const p = legatoReport.profile, e = " + expected.dump() +
                    "; for (let i = 0; i < p.count; ++i) await p.loadPreconditions(i);"
                    "return e.findIndex(([n, last], i) => p.preconditions(i).length !== n"
                    " || p.lastPrecondition(i) !== last); })()") == -1);
  // Every item's colours, running, ready and blocked, are the palette's
  // (analysis/palette.hpp), as the viewer draws them.
  nlohmann::json colors = nlohmann::json::array();
  for (uint32_t i = 0; i < profile.items.size(); ++i) {
    nlohmann::json three = nlohmann::json::array();
    for (const auto s :
         {analysis::State::Running, analysis::State::Ready, analysis::State::Blocked}) {
      const analysis::Rgb c =
          analysis::item_rgb(profile.str(profile.items[i].name), profile.items[i].kind, s);
      char css[8];
      std::snprintf(css, sizeof css, "#%02x%02x%02x", c.r, c.g, c.b);
      three.push_back(css);
    }
    colors.push_back(three);
  }
  CHECK(
      chrome.eval("(() => { const p = legatoReport.profile, e = " + colors.dump() +
                  "; return e.findIndex((c, i) => [0, 1, 2].some((s) => fillOf(p, i, s) !== c[s]));"
                  " })()") == -1);
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_report.png");

  // Hovering an avg line shows its percentage.
  const auto avg = chrome.eval(
      "(() => { const a = legatoReport.timeline.avgLines[0], r = legatoReport.timeline.canvas"
      ".getBoundingClientRect(); return [r.left + 40, r.top + a.top + a.h / 2]; })()");
  chrome.mouse_move(avg[0].get<double>(), avg[1].get<double>());
  CHECK_THAT(chrome.eval("document.getElementById('tooltip').textContent").get<std::string>(),
             Catch::Contains("%"));

  // A task whose last precondition is another task: click it, follow the link.
  const int item = chrome.eval(
      "(() => { const p = legatoReport.profile; for (let i = 0; i < p.count; ++i) {"
      "const l = p.lastPrecondition(i); if (p.kind(i) === 0 && l >= 0 && p.kind(l) === 0 &&"
      "p.laneOf(l) !== p.laneOf(i)) return i; } return -1; })()");
  REQUIRE(item >= 0);
  const auto at = reveal(chrome, item);
  REQUIRE(at.is_array());
  chrome.click(at[0].get<double>(), at[1].get<double>());
  REQUIRE(chrome.wait_for("!document.getElementById('popup').hidden", 3000));
  CHECK(chrome.eval("document.getElementById('popup').dataset.item") == std::to_string(item));
  // The runtime work for its operation, as the model's details give it.
  const analysis::ItemDetails d = analysis::details(profile, static_cast<uint32_t>(item));
  REQUIRE(d.operation_runtime > 0);
  const auto runtime = chrome.eval("legatoReport.profile.operation(legatoReport.profile.op(" +
                                   std::to_string(item) + "))");
  CHECK(runtime["runtime"].get<double>() == static_cast<double>(d.operation_runtime));
  CHECK(runtime["runtime"].get<double>() / runtime["items"].get<double>() ==
        Approx(static_cast<double>(d.runtime_overhead)).margin(1));
  CHECK_THAT(chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
             Catch::Contains("runtime work for its operation"));
  const int pre =
      chrome.eval("legatoReport.profile.lastPrecondition(" + std::to_string(item) + ")");
  CHECK(chrome.eval("document.querySelector('#popup .why a').dataset.item") == std::to_string(pre));
  CHECK(chrome.eval("document.querySelectorAll('#popup ol.path li').length > 0") == true);
  // Following the link moves the view onto the precondition and opens it.
  chrome.eval(
      "legatoReport.timeline.setWindow(legatoReport.profile.run.stop - 1e6, "
      "legatoReport.profile.run.stop); 0");
  const auto link = chrome.eval(
      "(() => { const r = document.querySelector('#popup .why a').getBoundingClientRect();"
      "return [r.left + 3, r.top + r.height / 2]; })()");
  chrome.click(link[0].get<double>(), link[1].get<double>());
  CHECK(chrome.wait_for(
      "document.getElementById('popup').dataset.item === '" + std::to_string(pre) + "'", 3000));
  chrome.eval("legatoReport.settled()");
  CHECK(chrome.eval("(() => { const t = legatoReport.timeline, p = legatoReport.profile;"
                    "return t.t0 <= p.start(" +
                    std::to_string(pre) + ") && p.stop(" + std::to_string(pre) +
                    ") <= t.t1; })()") == true);
  // The chain highlights on the timeline.
  chrome.eval("document.querySelector('#popup button.chain').click(); 0");
  CHECK(chrome.eval("legatoReport.timeline.chain.size > 0") == true);

  // Search by provenance finds tasks; Enter jumps to the first.
  chrome.eval(
      "(() => { const s = document.getElementById('search'); s.value = 'cg.cpp:';"
      "s.dispatchEvent(new Event('input')); })()");
  REQUIRE(chrome.wait_for("legatoReport.timeline.search && legatoReport.timeline.search.total > 0",
                          3000));
  chrome.eval("document.getElementById('search').focus(); 0");
  chrome.key("Enter");
  REQUIRE(chrome.wait_for("document.getElementById('hits').textContent.startsWith('1 of ')", 3000));
  // Keyboard zoom, then undo.
  chrome.eval("document.getElementById('search').blur(); 0");
  const double before = chrome.eval("legatoReport.timeline.t1 - legatoReport.timeline.t0");
  chrome.key("+");
  const double zoomed = chrome.eval("legatoReport.timeline.t1 - legatoReport.timeline.t0");
  CHECK(zoomed < before);
  chrome.key("Backspace");
  CHECK(chrome.eval("legatoReport.timeline.t1 - legatoReport.timeline.t0") == Approx(before));
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("a seed workload's report tells its story on the first screen", "[browser][findings]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const auto run = testing::run_command(testing::bin("legate") + " --cpus 4 --profile --logdir " +
                                        dir.path().string() + " " + testing::bin("chunked_update") +
                                        " --n 1000000");
  REQUIRE(run.status == 0);
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  const auto found = analysis::find(profile);
  REQUIRE(!found.findings.empty());
  REQUIRE(legato::testing::open_report(chrome, dir.file("legate_prof/index.html")));
  INFO([&] {
    std::string log;
    for (const auto& l : chrome.console()) log += l + "\n";
    return log;
  }());
  // The findings open the report, in the analysis' order.
  CHECK(chrome.eval("document.querySelectorAll('#findings .finding-row').length") ==
        found.findings.size());
  CHECK(chrome.eval("legatoReport.findings.list[0].title") == found.findings[0].title);
  // Every kind's avg line and every lane but the memories' (folded to their
  // avg line) fit on the first screen, channels and partitioning included.
  size_t unfolded = 0;
  for (const auto& l : profile.lanes) unfolded += analysis::is_memory(l.kind) ? 0 : 1;
  CHECK(chrome.eval("document.querySelectorAll('.lane-label').length") == unfolded);
  CHECK(chrome.eval("(() => { const t = legatoReport.timeline; return t.scroll === 0 &&"
                    "t.rows.every((r) => AXIS_H + r.y + r.h <= t.h); })()") == true);
  for (const char* kind : {"Channel", "Dependent Partitioning", "System Memory"}) {
    CHECK(chrome.eval(std::string("[...document.querySelectorAll('.avg-label')].some((a) => "
                                  "a.textContent.includes('") +
                      kind + " avg'))") == true);
  }
  // The header's length of the run carries no false precision.
  CHECK(chrome.eval("/\\d\\.\\d{3} [mu]?s/.test(document.getElementById('run').textContent)") ==
        false);
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_chunked_update.png");
  chrome.eval("document.querySelector('#findings .finding-row').click(); 0");
  chrome.eval("legatoReport.timeline.paint(); 0");
  CHECK(chrome.eval("legatoReport.timeline.outlined.length > 0") == true);
  chrome.screenshot(std::string(LEGATO_BIN_DIR) + "/../browser_chunked_update_finding.png");
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("a run that ran out of memory opens on its error", "[browser][oom]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const auto run = testing::run_command("LEGATE_CONFIG='--cpus 1 --sysmem 40 --profile --logdir " +
                                        dir.path().string() + "' " + testing::bin("oom"));
  INFO(run.err);
  REQUIRE(run.status == 1);
  REQUIRE(std::filesystem::exists(dir.file("legate_prof/index.html")));
  REQUIRE(legato::testing::open_report(chrome, dir.file("legate_prof/index.html")));
  // The banner names the error; its link opens the whole seed-style message.
  CHECK_THAT(
      chrome.eval("document.querySelector('#warnings .error').textContent").get<std::string>(),
      Catch::StartsWith("✖ The run ended with out of memory on node 0 at ") &&
          Catch::Contains("Failed to allocate 8388608 bytes"));
  chrome.eval("document.querySelector('#warnings .error a').click(); 0");
  CHECK_THAT(
      chrome.eval("document.querySelector('#popup pre.message').textContent").get<std::string>(),
      Catch::Contains("Raise --sysmem"));
  // Hovering the red line over the lanes says what happened there.
  const auto at = chrome.eval(
      "(() => { const t = legatoReport.timeline, r = t.canvas.getBoundingClientRect();"
      "return [r.left + t.x(legatoReport.profile.errors[0].time), r.top + t.h - 20]; })()");
  chrome.mouse_move(at[0].get<double>(), at[1].get<double>());
  CHECK_THAT(chrome.eval("document.getElementById('tooltip').textContent").get<std::string>(),
             Catch::StartsWith("out of memory on node 0") &&
                 Catch::Contains("click for the whole message"));
  for (const auto& line : chrome.console()) CHECK_THAT(line, !Catch::StartsWith("exception"));
}

TEST_CASE("markup in trace strings is shown as text and never runs", "[browser][security]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string evil = "</script><img src=x onerror=\"window.pwned=1\"><b>bold</b>";
  const std::string evil_prov = "<script>window.pwned=2</script>:7 & \"quotes\" 'too'";
  {
    // A synthetic trace written through the writer API (nothing ran).
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, evil);
    const auto op = t.operation(evil, evil_prov);
    t.task(c0, t.task_kind(evil), 0, 1000000, op);
    t.writer().add(trace::ErrorRecord{900000, trace::ErrorKind::Fatal, op, c0,
                                      t.writer().intern(evil + "\n" + evil_prov)});
    t.finish();
  }
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  const auto report = html::write_report(profile, dir.file("out"));
  REQUIRE(legato::testing::open_report(chrome, report.path));
  CHECK(chrome.eval("document.querySelectorAll('img').length") == 0);
  CHECK(chrome.eval("[...document.querySelectorAll('b')].some((b) => b.textContent === 'bold')") ==
        false);
  CHECK(chrome.eval("document.querySelector('.lane-label').textContent") == evil);
  chrome.eval("legatoReport.panels.openItem(0).then(() => 0)");
  CHECK(chrome.eval("document.querySelector('#popup h3').textContent") == evil);
  CHECK_THAT(chrome.eval("document.getElementById('popup').textContent").get<std::string>(),
             Catch::Contains(evil_prov));
  CHECK_THAT(
      chrome.eval("document.querySelector('#warnings .error').textContent").get<std::string>(),
      Catch::EndsWith(": " + evil));
  chrome.eval("document.querySelector('#warnings .error a').click(); 0");
  CHECK(chrome.eval("document.querySelector('#popup pre.message').textContent") ==
        evil + "\n" + evil_prov);
  CHECK(chrome.eval("document.querySelectorAll('img').length") == 0);
  CHECK(chrome.eval("typeof window.pwned") == "undefined");
}

TEST_CASE("a truncated trace gives a report of what it holds, with a visible warning",
          "[browser][damage]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  // Synthetic (written through the writer API; nothing ran), cut short.
  analysis::testing::write_truncated_trace(path);
  const auto r = testing::run_command(testing::bin("legate_prof") + " archive " + path + " -o " +
                                      dir.file("report"));
  INFO(r.err);
  REQUIRE(r.status == 1);  // cut inside a frame: written, but data was lost
  CHECK_THAT(r.err, Catch::Contains("was not finished"));
  REQUIRE(legato::testing::open_report(chrome, dir.file("report/index.html")));
  CHECK(chrome.eval("document.getElementById('warnings').hidden") == false);
  CHECK_THAT(chrome.eval("document.getElementById('warnings').textContent").get<std::string>(),
             Catch::Contains("the file was not finished"));
  const int count = chrome.eval("legatoReport.profile.count");
  CHECK(count >= 100);
  CHECK(count < 300);
}

namespace {

// The report of a one-file trace opened in Chromium, hovered over its System
// Memory avg line: whether that line's utilization is known, and the tooltip.
struct MemoryHover {
  bool known = false;
  std::string tooltip;
};
MemoryHover hover_memory_avg(Chromium& chrome, const TempDir& dir) {
  const auto r = testing::run_command(testing::bin("legate_prof") + " archive " +
                                      dir.file("legate_0.prof") + " -o " + dir.file("report"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  REQUIRE(legato::testing::open_report(chrome, dir.file("report/index.html")));
  const std::string find =
      "legatoReport.timeline.avgLines.find((a) => a.row.text.includes('System Memory'))";
  REQUIRE(chrome.eval(find + " !== undefined") == true);
  MemoryHover h;
  h.known = chrome.eval("legatoReport.timeline.utilization(" + find + ".row).known") == true;
  const auto at = chrome.eval("(() => { const a = " + find +
                              ", r = legatoReport.timeline.canvas.getBoundingClientRect();"
                              "return [r.left + 40, r.top + a.top + a.h / 2]; })()");
  chrome.mouse_move(at[0].get<double>(), at[1].get<double>());
  h.tooltip = chrome.eval("document.getElementById('tooltip').textContent").get<std::string>();
  return h;
}

}  // namespace

TEST_CASE("a memory whose size the trace does not give shows its utilization as unknown",
          "[browser][fault]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  analysis::testing::write_undeclared_memory_trace(dir.file("legate_0.prof"));
  const MemoryHover h = hover_memory_avg(chrome, dir);
  CHECK_FALSE(h.known);
  CHECK_THAT(h.tooltip, Catch::Contains("unknown (the trace gives no size for these memories)"));
}

TEST_CASE(
    "a memory whose capacity the trace gives as none is drawn against its instances, saying so",
    "[browser][fault]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  analysis::testing::write_unsized_memory_trace(dir.file("legate_0.prof"));
  const MemoryHover h = hover_memory_avg(chrome, dir);
  CHECK(h.known);
  CHECK_THAT(h.tooltip, Catch::Contains("%") && Catch::Contains("(of the bytes of all their "
                                                                "instances: the trace gives no "
                                                                "capacity)"));
}

TEST_CASE("a GPU kernel is shown by its short name, its signature in its details",
          "[browser][kernels]") {
  Chromium chrome;
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  const std::string signature =
      "void legato::rt::kernels::(anonymous namespace)::dot_kernel<double, double>("
      "legato::rt::kernels::cuda::Shape, double const*, double const*, double*)";
  {
    // A synthetic trace written through the writer API (nothing ran).
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const auto host = t.processor(trace::ProcKind::GpuHost, 0, "g0h");
    const auto device = t.processor(trace::ProcKind::GpuDevice, 0, "g0d");
    const auto task = t.task(host, t.task_kind("DotTask"), 0, 1000000);
    t.writer().add(
        trace::GpuKernelRecord{task, device, t.writer().intern(signature), 0, 200000, 800000});
    t.finish();
  }
  const auto profile = load::load_profile({dir.file("legate_0.prof")});
  uint32_t kernel = analysis::kNone;
  for (uint32_t i = 0; i < profile.items.size(); ++i)
    if (profile.items[i].kind == analysis::ItemKind::GpuKernel) kernel = i;
  REQUIRE(kernel != analysis::kNone);
  const auto report = html::write_report(profile, dir.file("out"));
  REQUIRE(legato::testing::open_report(chrome, report.path));
  chrome.eval("legatoReport.panels.openItem(" + std::to_string(kernel) + ").then(() => 0)");
  CHECK(chrome.eval("document.querySelector('#popup h3').textContent") ==
        "dot_kernel<double, double>");
  CHECK(chrome.eval("[...document.querySelectorAll('#popup tr')].filter((r) => "
                    "r.cells[0].textContent === 'signature').map((r) => "
                    "r.cells[1].textContent)") == nlohmann::json::array({signature}));
}
