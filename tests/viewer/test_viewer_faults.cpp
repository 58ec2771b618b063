// The viewer on crafted traces and unwritable screenshot paths: a memory of
// unknown size says so instead of a percentage, and a screenshot that cannot
// be written gives the system's reason (headless: no window, no GPU).
#include <sys/stat.h>

#include <filesystem>

#include <catch2/catch.hpp>

#include "analysis/crafted_traces.hpp"
#include "viewer/headless.hpp"
#include "viewer/screenshot_file.hpp"

using namespace legato;
using namespace legato::viewer;
using trace::testing::TempDir;

namespace {

// The tooltip of the System Memory avg line of a trace, hovered near its left end.
std::string memory_avg_tooltip(const std::string& trace) {
  HeadlessContext ctx{1200, 700};
  ViewOptions o;
  o.files = {trace};
  App app(o);
  app.wait_settled();
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
  return app.state()["tooltip"].get<std::string>();
}

}  // namespace

TEST_CASE("an avg line of memories of unknown size says so when hovered", "[viewer][fault]") {
  TempDir dir;
  analysis::testing::write_undeclared_memory_trace(dir.file("t.prof"));
  CHECK_THAT(memory_avg_tooltip(dir.file("t.prof")),
             Catch::StartsWith("System Memory avg (1): unknown at ") &&
                 Catch::EndsWith(" (no size given for these memories)"));
}

TEST_CASE("an avg line of memories the trace gives no capacity for says what it is drawn against",
          "[viewer][fault]") {
  TempDir dir;
  analysis::testing::write_unsized_memory_trace(dir.file("t.prof"));
  CHECK_THAT(memory_avg_tooltip(dir.file("t.prof")),
             Catch::StartsWith("System Memory avg (1): ") && Catch::Contains("% at ") &&
                 Catch::EndsWith("(of the bytes of all their instances: the trace gives no "
                                 "capacity)"));
}

TEST_CASE("screenshot paths: checked with the system's reason, written without following links",
          "[viewer][fault]") {
  TempDir dir;
  trace::testing::write_bytes(dir.file("plain"), {'x'});
  std::filesystem::create_directories(dir.file("folder.png"));
  CHECK(check_writable(dir.file("view.png")).empty());
  CHECK(check_writable(dir.file("plain/view.png")) == "Not a directory");
  CHECK(check_writable(dir.file("none/view.png")) == "No such file or directory");
  CHECK(check_writable(dir.file("folder.png")) == "Is a directory");
  // The check leaves nothing behind: plain and folder.png only.
  using It = std::filesystem::directory_iterator;
  CHECK(std::distance(It(dir.path()), It()) == 2);
  CHECK(screenshot_error("a/b.png", "Permission denied") ==
        "cannot write the screenshot a/b.png: Permission denied; give a path in a directory you "
        "can write to");

  const std::vector<unsigned char> pixels(4 * 4 * 4, 200);
  CHECK(write_png_file(dir.file("plain/view.png"), 4, 4, pixels.data()) == "Not a directory");
  // A link planted at the path is replaced, its target left alone.
  trace::testing::write_bytes(dir.file("victim"), {'k', 'e', 'e', 'p'});
  std::filesystem::create_symlink(dir.file("victim"), dir.file("view.png"));
  CHECK(write_png_file(dir.file("view.png"), 4, 4, pixels.data()).empty());
  CHECK(trace::testing::read_bytes(dir.file("victim")) == std::vector<uint8_t>{'k', 'e', 'e', 'p'});
  const std::vector<uint8_t> png = trace::testing::read_bytes(dir.file("view.png"));
  REQUIRE(png.size() > 8);
  CHECK(std::string(png.begin() + 1, png.begin() + 4) == "PNG");
}
