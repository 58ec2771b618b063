// The viewer on crafted traces: a memory of unknown size says so instead of
// a percentage (headless: no window, no GPU).
#include <chrono>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>

#include "analysis/crafted_traces.hpp"
#include "viewer/headless.hpp"

using namespace legato;
using namespace legato::viewer;
using trace::testing::TempDir;

TEST_CASE("an avg line of memories of unknown size says so when hovered", "[viewer][fault]") {
  TempDir dir;
  analysis::testing::write_undeclared_memory_trace(dir.file("t.prof"));
  HeadlessContext ctx{1200, 700};
  ViewOptions o;
  o.files = {dir.file("t.prof")};
  App app(o);
  app.wait_loaded();
  while (!app.settled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ctx.frame(app);
  const nlohmann::json st = app.state();
  float x = 0, y = -1;
  for (const auto& r : st["rows"]) {
    if (r["text"] == "System Memory avg (1)") {
      x = st["lanes_area"][0].get<float>() + 20;
      y = r["top"].get<float>() + 6;
    }
  }
  REQUIRE(y >= 0);
  Script s =
      Script::parse("hover " + std::to_string(x) + " " + std::to_string(y) + "\nwait 1\n", "test");
  REQUIRE(ctx.run(app, s, 1000));
  ctx.frame(app);
  CHECK_THAT(app.state()["tooltip"].get<std::string>(),
             Catch::StartsWith("System Memory avg (1): unknown at ") &&
                 Catch::EndsWith(" (no size given for these memories)"));
}
