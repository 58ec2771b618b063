// The id lookups the loader builds: tables for ids handed out in sequence
// (one per sequence, also when a high bit keeps two apart), tables by slot
// and generation for Realm event ids, a hash table for stray ids, the first
// of two adds of one id winning (and counted).
#include <catch2/catch.hpp>

#include <vector>

#include "analysis/uid_index.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::detail::IdIndex;
using analysis::detail::UidIndex;

TEST_CASE("IdIndex finds dense and stray ids alike", "[analysis][ids]") {
  for (const uint64_t stride : {uint64_t{1}, uint64_t{1} << 40}) {  // a table, then hashed
    INFO("stride " << stride);
    IdIndex m;
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
  IdIndex empty;
  empty.build();
  CHECK(empty.find(1) == kNone);
}

TEST_CASE("IdIndex keeps a table for a dense stretch of a sequence, strays far from it hashed",
          "[analysis][ids]") {
  // A part of a run loaded: the uids of a window of its time, and a few of
  // items far before and after it (its top-level task, long ones).
  IdIndex m;
  for (uint32_t k = 0; k < 5000; ++k) m.add(2'000'000 + k, k);
  for (uint32_t k = 0; k < 10; ++k) m.add(1 + k * 7'000'000ull, 100000 + k);
  m.build();
  CHECK(m.dense_tables() == 1);
  for (uint32_t k = 0; k < 5000; k += 7) CHECK(m.find(2'000'000 + k) == k);
  for (uint32_t k = 0; k < 10; ++k) CHECK(m.find(1 + k * 7'000'000ull) == 100000 + k);
  CHECK(m.find(2'005'000) == kNone);
  CHECK(m.find(1'999'999) == kNone);
  CHECK(m.find(50'000'000) == kNone);
}

TEST_CASE("IdIndex: two sequences kept apart by a high bit, and strays among them",
          "[analysis][ids]") {
  // As the Legion importer's uids: event sequences, and its own sequence
  // with bit 47 set for calls; plus ids scattered over the whole range.
  const uint64_t high = uint64_t{1} << 47;
  IdIndex m;
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

TEST_CASE("IdIndex indexes Realm event ids by slot and generation", "[analysis][ids]") {
  // Realm's layout: an event table's slot above bit 20, a generation of it
  // below. 300 slots reused 40 times each, every other generation an
  // item's; one slot whose two ids lie far apart (hashed); one repeat.
  const auto event = [](uint64_t slot, uint64_t generation) { return slot << 20 | generation; };
  IdIndex m;
  uint32_t value = 0;
  for (uint64_t g = 1; g <= 80; g += 2) {
    for (uint64_t slot = 0; slot < 300; ++slot) m.add(event(slot, g), value++);
  }
  m.add(event(999, 1), 1'000'000);
  m.add(event(999, 900'000), 1'000'001);
  m.add(event(5, 41), 7);  // added before as value 20 * 300 + 5
  m.build();
  CHECK(m.generation_tables() == 300);
  CHECK(m.dense_tables() == 0);
  value = 0;
  size_t wrong = 0;
  for (uint64_t g = 1; g <= 80; g += 2) {
    for (uint64_t slot = 0; slot < 300; ++slot) wrong += m.find(event(slot, g)) != value++;
  }
  CHECK(wrong == 0);
  CHECK(m.find(event(5, 41)) == 20 * 300 + 5);  // the first add wins
  CHECK(m.duplicates() == 1);
  CHECK(m.find(event(999, 1)) == 1'000'000);
  CHECK(m.find(event(999, 900'000)) == 1'000'001);
  CHECK(m.find(event(7, 2)) == kNone);   // inside slot 7's span, never added
  CHECK(m.find(event(7, 81)) == kNone);  // past it
  CHECK(m.find(event(300, 1)) == kNone);
  CHECK(m.find(0) == kNone);
}

TEST_CASE("IdIndex hashes many ids of no known layout", "[analysis][ids]") {
  // As many "slots" as ids: no generation tables, every id still found.
  IdIndex m;
  uint64_t x = 88172645463325252ull;
  std::vector<uint64_t> ids;
  for (uint32_t k = 0; k < 20000; ++k) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ids.push_back(x >> 16);
    m.add(ids.back(), k);
  }
  m.build();
  CHECK(m.generation_tables() == 0);
  size_t wrong = 0;
  for (uint32_t k = 0; k < ids.size(); ++k) wrong += m.find(ids[k]) != k;
  CHECK(wrong == 0);
  CHECK(m.find(ids[0] + 1) == kNone);
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

TEST_CASE("UidIndex built from tables finds what adds in table order would", "[analysis][ids]") {
  // Rank 1's uids lie mostly together, with rank 0's and 2's strays among
  // them, a few uids 0 (none), uids spread past kMaxRuns runs of top bits
  // on rank 2, and uids given twice: the first in table order wins, also
  // when it lies among another rank's.
  std::vector<Uid> uids;
  for (uint64_t k = 0; k < 5000; ++k) {
    const uint32_t rank = k % 97 == 0 ? 0 : k % 37 == 0 ? 2 : 1;
    const uint64_t seq = rank == 2 ? (k / 37) << 40 | k : 1000 + k;  // 132 runs of top bits
    uids.push_back(k % 331 == 0 ? 0 : trace::make_uid(rank, seq));
  }
  uids.push_back(uids[97]);    // rank 0's, first at 97
  uids.push_back(uids[1001]);  // rank 1's
  uids.push_back(uids[74]);    // rank 2's, hashed
  std::vector<uint32_t> values(uids.size());
  for (uint32_t k = 0; k < values.size(); ++k) values[k] = 7 * k + 3;
  for (const unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    UidIndex added, built;
    for (size_t k = 0; k < uids.size(); ++k) added.add(uids[k], values[k]);
    added.build();
    built.build_from(uids.data(), values.data(), uids.size(), threads);
    size_t differ = 0, missing = 0;
    for (size_t k = 0; k < uids.size(); ++k) {
      differ += built.find(uids[k]) != added.find(uids[k]);
      missing += uids[k] != 0 && built.find(uids[k]) == kNone;
    }
    CHECK(differ == 0);
    CHECK(missing == 0);
    CHECK(built.find(uids[97]) == values[97]);
    CHECK(built.find(uids[74]) == values[74]);
    CHECK(built.find(0) == kNone);
    CHECK(built.find(trace::make_uid(1, 999)) == kNone);
    CHECK(built.find(trace::make_uid(5, 1000)) == kNone);
    CHECK(built.duplicates() == 3);
    CHECK(added.duplicates() == 3);
    CHECK(built.duplicate_example().id == added.duplicate_example().id);
    CHECK(built.duplicate_example().second == values[uids.size() - 3]);
  }
}
