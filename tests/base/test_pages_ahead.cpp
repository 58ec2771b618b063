// base::PagesAhead: a table's next pages made resident ahead of its writer, and
// nothing else touched.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "base/huge_pages.hpp"
#include "base/pages_ahead.hpp"

using namespace legato;

namespace {

// How many of [p, p + bytes)'s pages are resident.
size_t resident(const char* p, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in(bytes / page);
  if (mincore(const_cast<char*>(p), bytes, in.data()) != 0) return 0;
  size_t n = 0;
  for (const unsigned char c : in) n += c & 1;
  return n;
}

}  // namespace

TEST_CASE("pages ahead of a growing table become resident, its bytes unchanged", "[pages_ahead]") {
#if defined(MADV_POPULATE_WRITE)
  const size_t mib = size_t{1} << 20, page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  base::HugeVector<uint64_t> table;
  base::reserve_huge(table, 64 * mib / sizeof(uint64_t));
  const char* const begin = reinterpret_cast<const char*>(table.data());
  const char* const limit = begin + table.capacity() * sizeof(uint64_t);
  const auto fill_to = [&](size_t bytes) {
    while (table.size() * sizeof(uint64_t) < bytes) table.push_back(table.size() * 7 + 1);
  };
  const auto end = [&] { return begin + table.size() * sizeof(uint64_t); };
  base::PagesAhead ahead;
  fill_to(2 * mib);
  ahead.update({{begin, end(), limit}});  // first sight: nothing yet
  fill_to(3 * mib);
  // Grew 1 MiB: the next 4 MiB (four times that) are prefaulted.
  ahead.update({{begin, end(), limit}});
  // Waits (up to 20 s) for [p, p + 2 MiB) to be resident; true once it is.
  const auto becomes_resident = [&](const char* p) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (resident(p, 2 * mib) < 2 * mib / page && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return resident(p, 2 * mib) == 2 * mib / page;
  };
  CHECK(becomes_resident(begin + 4 * mib));          // past the huge page the writer is in
  CHECK(resident(begin + 16 * mib, 16 * mib) == 0);  // not far ahead
  // What was written is as it was, and the writer goes on as before.
  const auto intact = [&] {
    for (size_t k = 0; k < table.size(); ++k) {
      if (table[k] != k * 7 + 1) return false;
    }
    return true;
  };
  CHECK(intact());
  fill_to(8 * mib);
  CHECK(intact());
  // A table that moved (grew past its room) starts over, whether its new
  // room lies above the old or below: nothing at once, then ahead of its
  // new end as it grows there. Rooms of 32 MiB side by side: the middle
  // one first, then the one above, then the one below.
  const size_t room = 32 * mib;
  void* const area = mmap(nullptr, 3 * room, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  REQUIRE(area != MAP_FAILED);
  char* const rooms = static_cast<char*>(area);
  for (char* const o : {rooms + room, rooms + 2 * room, rooms}) {
    std::memset(o, 1, mib);
    ahead.update({{o, o + mib, o + room}});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(resident(o + 4 * mib, room - 4 * mib) == 0);  // past a huge page written into
    std::memset(o + mib, 1, mib);
    ahead.update({{o, o + 2 * mib, o + room}});
    CHECK(becomes_resident(o + 4 * mib));
    CHECK(resident(o + 8 * mib, room - 8 * mib) == 0);
  }
  munmap(area, 3 * room);
#else
  SUCCEED("this system cannot prefault with MADV_POPULATE_WRITE: base::PagesAhead does nothing");
#endif
}
