// Human-readable numbers for the command-line tools.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace legato::tools {

// 1234567 -> "1,234,567"
inline std::string grouped(uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
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

}  // namespace legato::tools
