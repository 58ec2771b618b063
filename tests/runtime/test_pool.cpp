// Memory pools: where an instance's payload starts. Host pools align to a
// cache line; pools a GPU works on align every payload to 256 bytes, the
// alignment its full-speed memory accesses need.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

#include "runtime/memory/pool.hpp"

using namespace legato::rt;

namespace {

// Places instances of awkward sizes; returns their payloads' offsets from base.
std::vector<uint64_t> payload_offsets(MemoryPool& pool, const std::byte* base) {
  std::vector<uint64_t> offsets;
  for (uint64_t bytes : {1, 8, 100, 4096 + 8, 777}) {
    Instance inst;
    inst.uid = offsets.size() + 1;
    inst.bytes = bytes;
    inst.covered = {0, static_cast<int64_t>(bytes)};
    REQUIRE(pool.place(inst));
    offsets.push_back(static_cast<uint64_t>(inst.data - base));
  }
  return offsets;
}

}  // namespace

TEST_CASE("a GPU pool starts every payload on a 256-byte boundary", "[pool]") {
  const size_t capacity = 1 << 20;
  std::byte* base =
      static_cast<std::byte*>(std::aligned_alloc(MemoryPool::kGpuAlignment, capacity));
  REQUIRE(base != nullptr);
  MemoryPool pool(
      1, legato::trace::MemKind::Framebuffer, capacity, "fbmem0", base,
      [](std::byte* p) { std::free(p); }, false);
  CHECK(pool.alignment() == 256);
  for (uint64_t at : payload_offsets(pool, base)) CHECK(at % 256 == 0);
  // Each instance takes its payload rounded up, and one unit of bookkeeping.
  CHECK(pool.footprint(1) == 512);
  CHECK(pool.footprint(256) == 512);
  CHECK(pool.footprint(257) == 768);
  CHECK(pool.used() == pool.footprint(1) + pool.footprint(8) + pool.footprint(100) +
                           pool.footprint(4096 + 8) + pool.footprint(777));
}

TEST_CASE("a host pool aligns payloads to a cache line", "[pool]") {
  MemoryPool pool(0, legato::trace::MemKind::System, 1 << 20, "sysmem");
  CHECK(pool.alignment() == 64);
  Instance first;
  first.uid = 1;
  first.bytes = 8;
  first.covered = {0, 1};
  REQUIRE(pool.place(first));
  const std::byte* base = first.data - pool.header_bytes();
  const std::vector<uint64_t> offsets = payload_offsets(pool, base);
  for (uint64_t at : offsets) CHECK(at % 64 == 0);
  CHECK(pool.footprint(1) == 128);
}

TEST_CASE("a GPU pool refuses memory that is not aligned for it", "[pool]") {
  std::vector<std::byte> buffer(4096 + 512);
  std::byte* misaligned = buffer.data();
  while (reinterpret_cast<uintptr_t>(misaligned) % 256 != 64) ++misaligned;
  CHECK_THROWS_AS(MemoryPool(1, legato::trace::MemKind::Framebuffer, 4096, "fbmem0", misaligned,
                             nullptr, false),
                  std::logic_error);
}
