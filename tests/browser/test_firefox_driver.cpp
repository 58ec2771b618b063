// The Firefox driver (firefox.hpp) on a tiny page: it opens from file://
// under a strict Content-Security-Policy whose script-src allows 'self', and
// the script file beside it (data/part.js) runs; eval gives values, awaits
// promises and reports errors; clicks and keys reach the page; a screenshot
// is a PNG of the viewport. Chromium runs the same page's side script too.
// Skipped with a message when the browser cannot start.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "browser/chromium.hpp"
#include "browser/firefox.hpp"
#include "trace_format/trace_test_util.hpp"

using legato::testing::Chromium;
using legato::testing::Firefox;
using legato::trace::testing::TempDir;

namespace {

// index.html, defining ready(), and data/part.js beside it, calling it.
void write_page(const TempDir& dir) {
  std::filesystem::create_directories(dir.path() / "data");
  std::ofstream(dir.file("index.html"))
      << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\"\n"
         "      content=\"default-src 'none'; script-src 'unsafe-inline' 'self'\">\n"
         "<script>function ready() { document.body.dataset.state = 'ready'; }</script>\n"
         "</head><body>\n"
         "<button id=\"b\" onmouseover=\"window.over = true\" onclick=\"window.clicks = "
         "(window.clicks || 0) + 1\">b</button>\n"
         "<input id=\"t\">\n"
         "<script src=\"data/part.js\"></script>\n"
         "</body></html>\n";
  std::ofstream(dir.file("data/part.js")) << "ready();\n";
}

}  // namespace

TEST_CASE("firefox driver: a page's side script, script values, input and screenshots",
          "[browser]") {
  Firefox firefox(800, 600);
  if (!firefox.available()) {
    WARN("SKIPPED: headless firefox could not start (install firefox-esr)");
    return;
  }
  TempDir dir;
  write_page(dir);
  firefox.open_file(dir.file("index.html"));
  REQUIRE(firefox.wait_for("document.body.dataset.state === 'ready'", 5000));
  CHECK(firefox.eval("document.body.dataset.state") == "ready");

  // Values, statements, promises and errors.
  CHECK(firefox.eval("[window.innerWidth, window.innerHeight]") == nlohmann::json({800, 600}));
  CHECK(firefox.eval("({a: 1, b: [true, null, 'é']})") ==
        nlohmann::json({{"a", 1}, {"b", {true, nullptr, "é"}}}));
  CHECK(firefox.eval("const x = 20; x * 2 + 2") == 42);
  CHECK(firefox.eval("new Promise((r) => setTimeout(() => r('late'), 50))") == "late");
  CHECK(firefox.eval("undefined").is_null());
  CHECK_THROWS_AS(firefox.eval("noSuchName.field"), std::runtime_error);
  CHECK_THROWS_AS(firefox.eval("Promise.reject(new Error('no'))"), std::runtime_error);
  CHECK_FALSE(firefox.wait_for("false", 200));

  // Input.
  // (The policy holds back style attributes: the button is where the page put it.)
  const auto at = firefox.eval(
      "(() => { const r = document.getElementById('b').getBoundingClientRect();"
      "return [r.left + r.width / 2, r.top + r.height / 2]; })()");
  firefox.mouse_move(at[0].get<double>(), at[1].get<double>());
  CHECK(firefox.eval("window.over") == true);
  firefox.click(at[0].get<double>(), at[1].get<double>());
  CHECK(firefox.eval("window.clicks") == 1);
  firefox.eval("document.getElementById('t').focus(); 0");
  for (const char* k : {"a", "+", "b", "Backspace"}) firefox.key(k);
  CHECK(firefox.eval("document.getElementById('t').value") == "a+");

  const std::string png = dir.file("shot.png");
  firefox.screenshot(png);
  std::ifstream in(png, std::ios::binary);
  std::string head(24, '\0');
  in.read(head.data(), 24);
  REQUIRE(in.gcount() == 24);
  CHECK(head.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  // The IHDR's width and height: the viewport's.
  auto be32 = [&](size_t offset) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(head[offset + i]);
    return v;
  };
  CHECK(be32(16) == 800);
  CHECK(be32(20) == 600);

  // A second page in the same browser is a fresh document.
  firefox.eval("window.clicks = 5; 0");
  firefox.open_file(dir.file("index.html"));
  CHECK(firefox.wait_for("document.body.dataset.state === 'ready'", 5000));
  CHECK(firefox.eval("window.clicks === undefined") == true);
}

TEST_CASE("firefox driver: the same page's side script runs in chromium", "[browser]") {
  Chromium chrome(800, 600);
  if (!chrome.available()) {
    WARN("SKIPPED: headless chromium could not start (install chromium)");
    return;
  }
  TempDir dir;
  write_page(dir);
  chrome.open_file(dir.file("index.html"));
  CHECK(chrome.wait_for("document.body.dataset.state === 'ready'", 5000));
}

TEST_CASE("firefox driver: a missing firefox is unavailable, not an error", "[browser]") {
  const char* before = std::getenv("FIREFOX");
  const bool had = before != nullptr;
  const std::string saved = had ? before : "";
  setenv("FIREFOX", "/nonexistent/firefox-esr", 1);
  {
    Firefox firefox;
    CHECK_FALSE(firefox.available());
  }
  if (had) {
    setenv("FIREFOX", saved.c_str(), 1);
  } else {
    unsetenv("FIREFOX");
  }
}
