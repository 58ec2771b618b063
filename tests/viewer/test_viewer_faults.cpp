// The viewer on crafted traces and unwritable screenshot paths: a memory of
// unknown size says so instead of a percentage, and a screenshot that cannot
// be written gives the system's reason (headless: no window, no GPU).
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "analysis/crafted_traces.hpp"
#include "trace_format/reader.hpp"
#include "trace_format/trace_test_util.hpp"
#include "viewer/headless.hpp"
#include "viewer/screenshot_file.hpp"

using namespace legato;
using namespace legato::viewer;
using trace::testing::TempDir;

namespace {

// The tooltip after the mouse rests at window pixel (x, y).
std::string tooltip_at(HeadlessContext& ctx, App& app, float x, float y) {
  Script s =
      Script::parse("hover " + std::to_string(x) + " " + std::to_string(y) + "\nwait 1\n", "test");
  REQUIRE(ctx.run(app, s, 1000));
  ctx.frame(app);
  return app.state()["tooltip"].get<std::string>();
}

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
  return tooltip_at(ctx, app, x, y);
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

TEST_CASE("records lost to a corrupt frame are marked as lost, not drawn as idle time",
          "[viewer][fault]") {
  TempDir dir;
  const std::string path = dir.file("legate_0.prof");
  trace::testing::write_sample_trace(path, 4, 200);
  // The third events frame: where it is and the time range its header gives.
  uint64_t offset = 0;
  trace::Time t_min = 0, t_max = 0;
  uint32_t records = 0;
  {
    auto reader = trace::TraceReader::open(path);
    trace::Frame f;
    int events = 0;
    while (reader->next(f)) {
      if (f.header.type != trace::FrameType::Events || ++events != 3) continue;
      offset = f.offset;
      t_min = f.header.t_min;
      t_max = f.header.t_max;
      records = f.header.record_count;
    }
  }
  REQUIRE(t_max > t_min);
  {  // one payload byte flipped: its checksum fails
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(static_cast<std::streamoff>(offset + trace::kFrameHeaderSize + 7));
    char c = 0;
    file.get(c);
    file.seekp(static_cast<std::streamoff>(offset + trace::kFrameHeaderSize + 7));
    file.put(static_cast<char>(c ^ 0x5a));
  }
  HeadlessContext ctx{1200, 700};
  ViewOptions o;
  o.files = {path};
  App app(o);
  app.wait_settled();
  ctx.frame(app);
  const analysis::Profile& p = *app.profile();
  REQUIRE(p.lost.size() == 1);
  CHECK(p.lost[0].from == t_min);
  CHECK(p.lost[0].to == t_max);
  CHECK(p.lost[0].records == records);
  CHECK(p.lost[0].why == "payload checksum mismatch");
  // Hovering a lane there says what happened; beside it, it does not.
  const nlohmann::json st = app.state();
  const double t0 = st["window"]["t0"], t1 = st["window"]["t1"];
  const float left = st["lanes_area"][0], width = st["lanes_area"][2];
  float y = -1;
  for (const auto& r : st["rows"])
    if (r["type"] == "lane" && y < 0) y = r["top"].get<float>() + 6;
  REQUIRE(y >= 0);
  const auto hover = [&](double t) {
    return tooltip_at(ctx, app, left + static_cast<float>((t - t0) / (t1 - t0)) * width, y);
  };
  const double mid = static_cast<double>(t_min + t_max) / 2 - static_cast<double>(p.start);
  CHECK_THAT(hover(mid), Catch::StartsWith("records lost here") &&
                             Catch::Contains("payload checksum mismatch") &&
                             Catch::Contains("not idle time"));
  CHECK_THAT(hover(static_cast<double>(t_max - p.start) + (t1 - t0) / 50),
             !Catch::StartsWith("records lost here"));
}
