// The id lookups the loader builds: tables for ids handed out in sequence
// (one per sequence, also when a high bit keeps two apart), a hash table for
// stray ids, the first of two adds of one id winning (and counted).
#include <catch2/catch.hpp>

#include "analysis/uid_index.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::detail::IdMap;
using analysis::detail::UidIndex;

TEST_CASE("IdMap finds dense and stray ids alike", "[analysis][ids]") {
  for (const uint64_t stride : {uint64_t{1}, uint64_t{1} << 40}) {  // a table, then hashed
    INFO("stride " << stride);
    IdMap m;
    for (uint32_t k = 1; k <= 100; ++k) m.add(k * stride, 1000 + k);
    m.add(7 * stride, 5);  // a second add of one id: the first wins
    m.build();
    CHECK(m.find(1 * stride) == 1001);
    CHECK(m.find(7 * stride) == 1007);
    CHECK(m.find(100 * stride) == 1100);
    CHECK(m.find(0) == kNone);
    CHECK(m.find(101 * stride) == kNone);
    CHECK(m.find(1000 * stride, 0) == 0);  // the caller's missing value
    CHECK(m.duplicates() == 1);
    CHECK(m.duplicate_example().id == 7 * stride);
    CHECK(m.duplicate_example().first == 1007);
    CHECK(m.duplicate_example().second == 5);
    CHECK(m.dense_tables() == (stride == 1 ? 1 : 0));
  }
  IdMap empty;
  empty.build();
  CHECK(empty.find(1) == kNone);
}

TEST_CASE("IdMap: two sequences kept apart by a high bit, and strays among them",
          "[analysis][ids]") {
  // As the Legion importer's uids: event sequences, and its own sequence
  // with bit 47 set for calls; plus ids scattered over the whole range.
  const uint64_t high = uint64_t{1} << 47;
  IdMap m;
  for (uint32_t k = 0; k < 5000; ++k) {
    m.add(16 + 3 * k, k);         // one sequence (a stride of 3: still a table)
    m.add(high + k, 100000 + k);  // the other
    if (k % 500 == 0) m.add((uint64_t{k} + 1) * 0x9E3779B97F4A7C15ull >> 1, 200000 + k);
  }
  m.add(high + 42, 7);  // a repeat in the second table
  m.add(0x4E3779B97F4A7C15ull, 8);
  m.add(0x4E3779B97F4A7C15ull, 9);  // and among the strays
  m.build();
  CHECK(m.dense_tables() == 2);
  for (uint32_t k = 0; k < 5000; k += 7) {
    CHECK(m.find(16 + 3 * k) == k);
    CHECK(m.find(high + k) == 100000 + k);
  }
  CHECK(m.find(17) == kNone);  // inside the first table's span, never added
  CHECK(m.find(high + 5000) == kNone);
  for (uint32_t k = 0; k < 5000; k += 500)
    CHECK(m.find((uint64_t{k} + 1) * 0x9E3779B97F4A7C15ull >> 1) == 200000 + k);
  CHECK(m.find(0x4E3779B97F4A7C15ull) == 8);
  CHECK(m.find(0x4E3779B97F4A7C16ull) == kNone);
  CHECK(m.duplicates() == 2);
}

TEST_CASE("UidIndex keeps each rank's sequences apart", "[analysis][ids]") {
  UidIndex u;
  u.add(trace::make_uid(0, 5), 1);
  u.add(trace::make_uid(3, 5), 2);
  u.add(trace::make_uid(3, uint64_t{1} << 45), 3);  // far from rank 3's others
  u.build();
  CHECK(u.find(trace::make_uid(0, 5)) == 1);
  CHECK(u.find(trace::make_uid(3, 5)) == 2);
  CHECK(u.find(trace::make_uid(3, uint64_t{1} << 45)) == 3);
  CHECK(u.find(trace::make_uid(1, 5)) == kNone);
  CHECK(u.find(trace::make_uid(9, 5)) == kNone);
  CHECK(u.find(0) == kNone);
  CHECK(u.duplicates() == 0);
}

TEST_CASE("UidIndex counts uids added twice, never uid 0 (none)", "[analysis][ids]") {
  UidIndex u;
  u.add(0, 1);
  u.add(0, 2);
  u.add(trace::make_uid(2, 9), 3);
  u.add(trace::make_uid(2, 9), 4);
  u.build();
  CHECK(u.duplicates() == 1);
  CHECK(u.duplicate_example().id == trace::make_uid(2, 9));
  CHECK(u.duplicate_example().first == 3);
  CHECK(u.duplicate_example().second == 4);
}
