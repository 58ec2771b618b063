#include "color_pins.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "analysis/palette.hpp"

namespace legato::tools {

namespace {

// The settings file's path, and whether the user named it ($LEGATO_COLORS:
// then it must exist).
std::pair<std::string, bool> pins_path() {
  if (const char* p = std::getenv("LEGATO_COLORS"); p && *p) return {p, true};
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return {std::string(x) + "/legato/colors.json", false};
  if (const char* h = std::getenv("HOME"); h && *h)
    return {std::string(h) + "/.config/legato/colors.json", false};
  return {"", false};
}

// "#rrggbb" as a colour.
bool parse_hex(const std::string& text, analysis::Rgb& out) {
  if (text.size() != 7 || text[0] != '#') return false;
  for (size_t i = 1; i < 7; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  const auto byte = [&](size_t at) {
    return static_cast<uint8_t>(std::stoi(text.substr(at, 2), nullptr, 16));
  };
  out = {byte(1), byte(3), byte(5)};
  return true;
}

}  // namespace

std::vector<std::string> load_color_pins() {
  const auto [path, named] = pins_path();
  std::vector<std::string> problems;
  if (path.empty()) return problems;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    if (named) problems.push_back("LEGATO_COLORS=" + path + ": no such file; no colour pinned");
    return problems;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    problems.push_back(path + ": not JSON (" + std::string(e.what()) +
                       "); no colour pinned. Write {\"BinaryOpTask\": \"#3cb44b\"}");
    return problems;
  }
  if (!j.is_object()) {
    problems.push_back(path + ": expected an object of names and colours, e.g. " +
                       "{\"BinaryOpTask\": \"#3cb44b\"}; no colour pinned");
    return problems;
  }
  std::unordered_map<std::string, analysis::Rgb> pins;
  for (const auto& [name, value] : j.items()) {
    analysis::Rgb c;
    if (!value.is_string() || !parse_hex(value.get<std::string>(), c)) {
      problems.push_back(path + ": \"" + name + "\": " + value.dump() +
                         " is not a colour written #rrggbb; left out");
      continue;
    }
    pins[name] = c;
  }
  analysis::pin_colors(std::move(pins));
  return problems;
}

}  // namespace legato::tools
