// The importer's id filter and its search for repeated ids: every id added
// passes the filter, and the repeats found are exactly those an ordinary
// set finds, in a sequence shaped like a log's events (millions of
// distinct ids, a few repeats, zeros).
#include <random>
#include <unordered_set>
#include <vector>

#include <catch2/catch.hpp>

#include "legion_import/id_map.hpp"

using legato::legion::IdFilter;
using legato::legion::repeated_ids;

TEST_CASE("an id filter passes every id added and few others", "[legion][ids]") {
  std::mt19937_64 rng(7);
  IdFilter f(32 * 10'000);
  std::vector<uint64_t> added(10'000);
  for (uint64_t& id : added) {
    id = rng() | 1;
    f.add(id);
  }
  for (const uint64_t id : added) REQUIRE(f.maybe(id));
  CHECK_FALSE(f.maybe(0));
  f.add(0);  // never added: 0 is no id
  CHECK_FALSE(f.maybe(0));
  size_t passed = 0;
  for (int k = 0; k < 100'000; ++k) passed += f.maybe(rng() | 1);
  CHECK(passed < 6'000);  // about 3% of the bits are set
  CHECK(f.bits() >= 320'000);
  CHECK(f.bits_set() <= added.size());
}

TEST_CASE("repeated ids are those an exact set finds, in order", "[legion][ids]") {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> ids(1'000'000);
  for (uint64_t& id : ids) id = rng();
  // Repeats near and far, a repeat of a repeat, and zeros (no id).
  ids[10] = ids[9];
  ids[500'000] = ids[3];
  ids[999'999] = ids[3];
  ids[700'000] = ids[123'456];
  ids[20] = ids[21] = ids[22] = 0;
  std::vector<size_t> expected;
  std::unordered_set<uint64_t> seen;
  for (size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] != 0 && !seen.insert(ids[k]).second) expected.push_back(k);
  }
  REQUIRE(expected == std::vector<size_t>{10, 500'000, 700'000, 999'999});
  CHECK(repeated_ids(ids.size(), [&](size_t k) { return ids[k]; }) == expected);
  CHECK(repeated_ids(0, [&](size_t k) { return ids[k]; }).empty());
  // Every id the same.
  const auto same = repeated_ids(5, [](size_t) { return uint64_t{42}; });
  CHECK(same == std::vector<size_t>{1, 2, 3, 4});
}
