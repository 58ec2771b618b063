// Human-readable numbers shared by the command-line tools and the viewer,
// and the parser for times users type ("1.5ms", "200us", "3s", "1200").
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace legato::analysis {

// 1234567 -> "1,234,567"
inline std::string grouped(uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Bytes with a binary unit: "812 B", "12.3 KiB", "4.0 GiB".
inline std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
  return buf;
}

// Nanoseconds with a unit that keeps 3-4 significant digits: "812 ns", "1.234 ms".
inline std::string human_ns(double ns) {
  const double a = ns < 0 ? -ns : ns;
  char buf[32];
  if (a < 1e3) {
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  } else if (a < 1e6) {
    std::snprintf(buf, sizeof buf, "%.3f us", ns / 1e3);
  } else if (a < 1e9) {
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  }
  return buf;
}

// Nanoseconds to three significant digits, no trailing zeros: "140 ms",
// "12.9 us", "1.5 s", "800 ns" (for prose and labels, not exact values).
inline std::string short_ns(double ns) {
  static const char* const units[] = {"ns", "us", "ms", "s"};
  int u = 0;
  double v = ns;
  // Rounded to three digits, 999.7 us reads "1 ms", not "1e+03 us".
  while (u < 3 && (v < 0 ? -v : v) >= 999.5) {
    v /= 1e3;
    ++u;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, (v < 0 ? -v : v) >= 999.5 ? "%.0f %s" : "%.3g %s", v, units[u]);
  return buf;
}

// A fraction as a percentage with the digits that matter: "37%", "4.2%", "0.3%".
inline std::string short_percent(double f) {
  const double pct = 100 * f;
  char buf[32];
  std::snprintf(buf, sizeof buf, pct >= 10 || pct == 0 ? "%.0f%%" : "%.1f%%", pct);
  return buf;
}

// A time as users type it: a number with an optional unit (ns, us, ms, s;
// none means ns), e.g. "1.5ms" or "250 us". nullopt when it is not one.
inline std::optional<double> parse_duration_ns(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !std::isfinite(v)) return std::nullopt;
  std::string_view unit(end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty() || unit == "ns") return v;
  if (unit == "us") return v * 1e3;
  if (unit == "ms") return v * 1e6;
  if (unit == "s") return v * 1e9;
  return std::nullopt;
}

// A time as parse_duration_ns reads it back to the same whole nanosecond,
// in the largest unit it reaches, trailing zeros dropped: "1.5ms", "250us",
// "2.000001s", "17ns" (the report's links write times so too).
inline std::string typed_time(double ns) {
  const auto n = static_cast<int64_t>(std::llround(ns));
  const uint64_t a = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  static constexpr struct {
    const char* unit;
    uint64_t size;
  } kUnits[] = {{"s", 1'000'000'000}, {"ms", 1'000'000}, {"us", 1'000}};
  for (const auto& u : kUnits) {
    if (a < u.size) continue;
    std::string frac = std::to_string(a % u.size);
    frac.insert(0, std::to_string(u.size).size() - 1 - frac.size(), '0');
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    return (n < 0 ? "-" : "") + std::to_string(a / u.size) + (frac.empty() ? "" : "." + frac) +
           u.unit;
  }
  return std::to_string(n) + "ns";
}

}  // namespace legato::analysis
