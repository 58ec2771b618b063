#include "load/rank_filter.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace legato::load {

namespace {

// A rank: digits only, at most 2^31 - 1 (rank ids are 32-bit in traces).
std::optional<int64_t> rank_of(const std::string& s) {
  if (s.empty() || s.size() > 10 ||
      !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
    return std::nullopt;
  const long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (v > 0x7fffffff) return std::nullopt;
  return v;
}

}  // namespace

std::optional<RankFilter> RankFilter::parse(const std::string& text, std::string* error) {
  RankFilter f;
  size_t from = 0;
  while (true) {
    const size_t comma = text.find(',', from);
    std::string part =
        text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    const size_t dash = part.find('-');
    const auto lo = rank_of(part.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : rank_of(part.substr(dash + 1));
    if (!lo || !hi) {
      *error = part.empty() ? "an empty entry (write ranks and ranges such as 0-3,7)"
                            : "'" + part + "' is not a rank or a range of ranks (such as 0-3,7)";
      return std::nullopt;
    }
    if (*hi < *lo) {
      *error = "'" + part + "' ends before it starts (write the smaller rank first)";
      return std::nullopt;
    }
    f.ranges_.emplace_back(*lo, *hi);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  // Sorted, and overlapping or touching ranges joined.
  std::sort(f.ranges_.begin(), f.ranges_.end());
  std::vector<std::pair<int64_t, int64_t>> joined;
  for (const auto& r : f.ranges_) {
    if (!joined.empty() && r.first <= joined.back().second + 1) {
      joined.back().second = std::max(joined.back().second, r.second);
    } else {
      joined.push_back(r);
    }
  }
  f.ranges_ = std::move(joined);
  return f;
}

bool RankFilter::contains(int64_t rank) const {
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [&](const auto& r) { return rank >= r.first && rank <= r.second; });
}

std::string RankFilter::text() const {
  std::string out;
  for (const auto& [lo, hi] : ranges_) {
    if (!out.empty()) out += ", ";
    out += std::to_string(lo);
    if (hi > lo) out += "-" + std::to_string(hi);
  }
  return out;
}

}  // namespace legato::load
