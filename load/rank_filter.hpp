// Which nodes (ranks) of a run to load, as users write them: "0-3,7".
// Files of other ranks are left out as soon as their rank is known (a
// Legato trace's after its first frame), so a run too big for memory opens
// in parts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace legato::load {

class RankFilter {
 public:
  // "0-3,7", "5", "2-2,9-12": ranks and ranges, comma-separated; nullopt
  // and *error saying what is wrong where it is not one.
  static std::optional<RankFilter> parse(const std::string& text, std::string* error);
  bool contains(int64_t rank) const;
  // "0-3, 7"
  std::string text() const;

 private:
  std::vector<std::pair<int64_t, int64_t>> ranges_;  // sorted, apart, inclusive
};

}  // namespace legato::load
