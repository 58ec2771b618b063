// The viewer's findings, headless on synthetic traces with known findings:
// the Findings pane opens when a run has findings and stays shut when it
// has none; clicking a finding (the script's `finding N`) zooms to its
// window, unfolds and scrolls to its lanes and outlines its items until it
// is cleared; an item's details list the findings it belongs to.
#include <algorithm>

#include <catch2/catch.hpp>

#include "findings_trace.hpp"
#include "trace_format/trace_test_util.hpp"
#include "viewer/headless.hpp"
#include "viewer_session.hpp"

using namespace legato;
using namespace legato::viewer;
using nlohmann::json;
using testing::Session;
using trace::testing::TempDir;

namespace {

int index_of(const json& st, const std::string& rule) {
  for (const auto& f : st["findings"])
    if (f["rule"] == rule) return f["index"];
  return -1;
}

bool contains(const json& list, const json& v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

}  // namespace

TEST_CASE("clicking a finding zooms to it, unfolds its lanes and outlines its items", "[viewer]") {
  TempDir dir;
  testing::write_findings_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  json st = s.app.state();
  CHECK(st["windows"]["findings"] == true);  // opened by itself
  const int k = index_of(st, "tiny_tasks");
  REQUIRE(k >= 0);
  const json f = st["findings"][k];
  CHECK(f["cost"].get<std::string>().find("of the program's time") != std::string::npos);
  CHECK(st["finding"] == -1);
  CHECK(st["outlined"].empty());
  // Memories start folded to their avg line; everything else is unfolded.
  for (const auto& r : st["rows"]) {
    if (r["type"] == "avg")
      CHECK(r["collapsed"] == (r["text"].get<std::string>().find("Memory") != std::string::npos));
  }
  const double full = st["window"]["t1"].get<double>() - st["window"]["t0"].get<double>();
  // Fold everything, then click the finding's row.
  st = s.run("expand none\nwait 1\nfinding " + std::to_string(k) + "\nwait 2\n");
  CHECK(st["finding"] == k);
  const double t0 = f["t0"], t1 = f["t1"];
  CHECK(t0 >= 3'900'000);
  CHECK(t1 <= 5'100'000);
  CHECK(st["window"]["t0"].get<double>() <= t0);
  CHECK(st["window"]["t1"].get<double>() >= t1);
  CHECK(st["window"]["t1"].get<double>() - st["window"]["t0"].get<double>() < full / 5);
  REQUIRE_FALSE(f["lanes"].empty());
  for (const auto& lane : f["lanes"]) {
    CHECK(contains(st["lanes_shown"], lane));
    CHECK(contains(st["lanes_on_screen"], lane));
  }
  json items = f["items"];
  REQUIRE_FALSE(items.empty());
  std::vector<uint32_t> sorted = items.get<std::vector<uint32_t>>();
  std::sort(sorted.begin(), sorted.end());
  CHECK(st["outlined"] == json(sorted));
  CHECK(st["outlined_drawn"].get<int>() >= 1);
  // An outlined item's details name the finding; its link focuses it again.
  const uint32_t item = sorted.front();
  CHECK(s.app.view().item_rect(item).has_value());
  s.app.select(item);
  st = s.run("key escape\nwait 1\n");  // clears the finding, keeps the selection
  CHECK(st["finding"] == -1);
  CHECK(st["outlined"].empty());
  REQUIRE(st.contains("selected"));
  CHECK(contains(st["selected"]["findings"], k));
  st = s.run("wait 1\nclick-ui item-finding-" + std::to_string(k) + "\nwait 1\n");
  CHECK(st["finding"] == k);
  st = s.run("click-ui clear-finding\nwait 1\n");
  CHECK(st["finding"] == -1);
  // A finding that is not there is a script error.
  s.run("finding 99\n", 1);
}

TEST_CASE("a run without findings opens no Findings pane", "[viewer]") {
  TempDir dir;
  testing::write_quiet_trace(dir.file("legate_0.prof"));
  Session s(dir.file("legate_0.prof"));
  const json st = s.run("key F\nwait 1\n");
  CHECK(st["findings"].empty());
  CHECK(st["windows"]["findings"] == false);
  CHECK(st["finding"] == -1);
}
