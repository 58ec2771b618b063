// A whole viewer App on one trace file, headless (no window), settled before
// the first frame (loaded, avg lines and findings computed), driven by
// script lines: the viewer's unit tests' session.
#pragma once

#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "viewer/headless.hpp"

namespace legato::viewer::testing {

struct Session {
  viewer::HeadlessContext ctx{1200, 700};
  viewer::App app;
  explicit Session(const std::string& file) : app(options(file)) {
    app.wait_settled();
    ctx.frame(app);
  }
  // Runs script lines, which must end with want_status; returns the state
  // after them.
  nlohmann::json run(const std::string& text, int want_status = 0) {
    viewer::Script s = viewer::Script::parse(text, "test");
    REQUIRE(ctx.run(app, s, 10000));
    REQUIRE(s.status() == want_status);
    ctx.frame(app);
    return app.state();
  }
  static viewer::ViewOptions options(const std::string& file) {
    viewer::ViewOptions o;
    o.files = {file};
    return o;
  }
};

}  // namespace legato::viewer::testing
