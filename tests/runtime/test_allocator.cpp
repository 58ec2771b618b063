#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "runtime/core/interval_map.hpp"
#include "runtime/memory/allocator.hpp"

using namespace legato::rt;

TEST_CASE("the allocator aligns, reuses freed space and coalesces", "[allocator]") {
  Allocator a(1 << 20);
  const auto x = a.allocate(100, 64);
  const auto y = a.allocate(100, 64);
  REQUIRE(x);
  REQUIRE(y);
  CHECK(*x % 64 == 0);
  CHECK(*y % 64 == 0);
  CHECK(*y >= *x + 100);
  CHECK(a.used() == 200);
  a.free(*x);
  const auto z = a.allocate(60, 64);  // best fit: the hole x left
  REQUIRE(z);
  CHECK(*z == *x);
  a.free(*z);
  a.free(*y);
  CHECK(a.used() == 0);
  CHECK(a.free_blocks() == 1);  // everything coalesced back
  CHECK(a.largest_free() == (1u << 20));
}

TEST_CASE("the allocator fails when no single block is large enough (fragmentation)",
          "[allocator]") {
  Allocator a(1000);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 10; ++i) blocks.push_back(*a.allocate(100, 1));
  CHECK_FALSE(a.allocate(1, 1));
  for (int i = 0; i < 10; i += 2) a.free(blocks[static_cast<size_t>(i)]);
  CHECK(a.used() == 500);
  CHECK(a.largest_free() == 100);
  CHECK_FALSE(a.allocate(150, 1));  // 500 bytes free, none of it contiguous
  CHECK(a.allocate(100, 1));
}

TEST_CASE("random allocations never overlap and the used bytes add up", "[allocator]") {
  Allocator a(1 << 16);
  std::mt19937 rng(3);
  std::vector<std::pair<uint64_t, uint64_t>> live;  // offset, size
  for (int step = 0; step < 5000; ++step) {
    if (!live.empty() && rng() % 2 == 0) {
      const size_t i = rng() % live.size();
      a.free(live[i].first);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      const uint64_t size = 1 + rng() % 700, align = uint64_t{1} << (rng() % 7);
      if (auto at = a.allocate(size, align)) {
        CHECK(*at % align == 0);
        CHECK(*at + size <= a.capacity());
        live.push_back({*at, size});
      }
    }
    std::sort(live.begin(), live.end());
    uint64_t used = 0;
    for (size_t i = 0; i < live.size(); ++i) {
      used += live[i].second;
      if (i + 1 < live.size()) REQUIRE(live[i].first + live[i].second <= live[i + 1].first);
    }
    REQUIRE(a.used() == used);
  }
}

TEST_CASE("interval maps split, assign and find gaps", "[interval_map]") {
  IntervalMap<int> m;
  m.assign({10, 20}, 1);
  m.assign({15, 30}, 2);
  std::vector<std::pair<Range, int>> seen;
  m.for_each({0, 40}, [&](Range r, int& v) { seen.push_back({r, v}); });
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == std::pair<Range, int>{{10, 15}, 1});
  CHECK(seen[1] == std::pair<Range, int>{{15, 30}, 2});
  std::vector<Range> gaps;
  m.for_each_gap({0, 40}, [&](Range g) { gaps.push_back(g); });
  CHECK(gaps == std::vector<Range>{{0, 10}, {30, 40}});
  seen.clear();
  m.for_each({12, 18}, [&](Range r, int& v) { seen.push_back({r, v}); });
  CHECK(seen == std::vector<std::pair<Range, int>>{{{12, 15}, 1}, {{15, 18}, 2}});
  m.erase({0, 100});
  CHECK(m.size() == 0);
}
