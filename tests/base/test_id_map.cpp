// The importer's id filter and its search for repeated ids: every id added
// passes the filter, and the repeats found are exactly those an ordinary
// set finds, in a sequence shaped like a log's events (millions of
// distinct ids, a few repeats, zeros). The event id map: what a plain map
// holds, whichever of its tables an id lands in.
#include <random>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <catch2/catch.hpp>

#include "base/event_id_map.hpp"
#include "base/id_map.hpp"

using legato::base::EventIdMap;
using legato::base::IdFilter;
using legato::base::repeated_ids;

TEST_CASE("an id filter passes every id added and few others", "[legion][ids]") {
  std::mt19937_64 rng(7);
  legato::base::IdFilter f(32 * 10'000);
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
  CHECK(legato::base::repeated_ids(ids.size(), [&](size_t k) { return ids[k]; }) == expected);
  CHECK(legato::base::repeated_ids(0, [&](size_t k) { return ids[k]; }).empty());
  // Every id the same.
  const auto same = legato::base::repeated_ids(5, [](size_t) { return uint64_t{42}; });
  CHECK(same == std::vector<size_t>{1, 2, 3, 4});
}

TEST_CASE("an event id map holds what a plain map would, in tables by slot", "[legion][ids]") {
  // Realm event ids of two nodes (type bit 63, node in 62..47, slot in
  // 46..20, generation below): 2 x 500 slots reused 30 times, two of every
  // three generations given; a slot too sparse for a table (hashed) and a
  // small id among them; repeats, the first value staying.
  const auto event = [](uint64_t node, uint64_t slot, uint64_t gen) {
    return uint64_t{1} << 63 | node << 47 | slot << 20 | gen;
  };
  std::vector<uint64_t> ids;
  for (uint64_t gen = 1; gen <= 30; ++gen)
    for (uint64_t node : {0, 3})
      for (uint64_t slot = 0; slot < 500; ++slot)
        if (gen % 3 != 0) ids.push_back(event(node, slot, gen));
  ids.push_back(event(0, 900, 1));
  ids.push_back(event(0, 900, 700'000));  // slot 900: too sparse, hashed
  ids.push_back(42);
  ids.push_back(ids[17]);  // a repeat in a table
  ids.push_back(ids[17]);  // and another
  ids.push_back(42);       // a repeat hashed
  legato::base::EventIdMap<uint64_t, ~uint64_t{0}> m;
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> repeats;
  m.build(
      [&](auto&& f) {
        for (uint64_t k = 0; k < ids.size(); ++k) f(ids[k], k);  // 0 is a value like any other
      },
      ids.size(),
      [&](uint64_t id, uint64_t first, uint64_t later) { repeats.emplace_back(id, first, later); });
  CHECK(m.tables() == 1001);  // and slot 0, of id 42
  std::unordered_map<uint64_t, uint64_t> plain;
  for (uint64_t k = 0; k < ids.size(); ++k) plain.try_emplace(ids[k], k);
  size_t wrong = 0;
  for (const auto& [id, v] : plain) wrong += m.find(id) == nullptr || *m.find(id) != v;
  CHECK(wrong == 0);
  const uint64_t last = ids.size() - 1;
  CHECK(repeats == std::vector<std::tuple<uint64_t, uint64_t, uint64_t>>{
                       {ids[17], 17, last - 2}, {ids[17], 17, last - 1}, {42, last - 3, last}});
  CHECK(m.find(event(0, 7, 3)) == nullptr);   // in slot 7's span, never given
  CHECK(m.find(event(0, 7, 40)) == nullptr);  // past it
  CHECK(m.find(event(1, 7, 1)) == nullptr);   // another node's slot
  CHECK(m.find(0) == nullptr);
}

TEST_CASE("an event id map of ids of no known layout hashes them all", "[legion][ids]") {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> ids(50'000);
  for (uint64_t& id : ids) id = rng() | 1;
  legato::base::EventIdMap<uint32_t, ~uint32_t{0}> m;
  m.build(
      [&](auto&& f) {
        for (uint32_t k = 0; k < ids.size(); ++k) f(ids[k], k);
      },
      ids.size(), [](uint64_t, uint32_t, uint32_t) { FAIL("no id repeats"); });
  CHECK(m.tables() == 0);
  size_t wrong = 0;
  for (uint32_t k = 0; k < ids.size(); ++k)
    wrong += m.find(ids[k]) == nullptr || *m.find(ids[k]) != k;
  CHECK(wrong == 0);
  CHECK(m.find(2) == nullptr);
}
