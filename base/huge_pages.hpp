// Large tables in transparent huge pages. Loading a big trace fills
// gigabytes of fresh memory, and on Linux each fresh 4 KiB page costs a
// fault; a table advised as huge faults once per 2 MiB instead. Where the
// system leaves huge pages to the program (transparent_hugepage=madvise,
// the common default) this doubles the speed of decoding a Legion log
// (bench/HISTORY.md, 2026-11-24); where they are always on or off the advice changes
// nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace legato::base {

inline constexpr size_t kHugePage = size_t{2} << 20;

// Advises [p, p + bytes) to use huge pages (the 2 MiB-aligned part of it).
inline void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < 2 * kHugePage) return;
  const auto begin = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// The most address space a loader reserves ahead for its tables: a quarter
// of the machine's memory (address space only, but where the system counts
// it against a commit limit, more could starve later tables); 0 where
// unknown.
inline double reservation_budget() {
#if defined(__linux__)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<double>(pages) * static_cast<double>(page) / 4;
#endif
  return 0;
}

// Reserves room for n elements of v, advised as huge pages before any of
// it is touched (a reservation of fresh memory is not yet backed).
template <class T, class A>
void reserve_huge(std::vector<T, A>& v, size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// Reserves (reserve_huge) every table that each(f) gives to f(table) for
// want(table) elements, want called once per table in each's order; none
// where together they would take more than `budget` bytes (then false).
// Where the system will not reserve them, the tables are left to grow.
template <class Each, class Want>
bool reserve_tables(Each&& each, Want&& want, double budget) {
  std::vector<size_t> n;
  double total = 0;
  each([&](auto& table) {
    n.push_back(want(table));
    total += static_cast<double>(n.back()) * sizeof(table[0]);
  });
  if (total > budget) return false;
  try {
    size_t k = 0;
    each([&](auto& table) { reserve_huge(table, n[k++]); });
  } catch (const std::exception&) {  // bad_alloc, length_error: they grow as records come
  }
  return true;
}

// The allocator of tables that grow by doubling to unknown sizes: each
// block of 4 MiB or more is advised as huge pages when it is allocated.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  // Blocks of 4 MiB or more start on a 2 MiB boundary, so that every 2 MiB
  // of them can be one huge page (a block placed anywhere keeps up to 2 MiB
  // at each end in small pages).
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (bytes < 2 * kHugePage) return std::allocator<T>{}.allocate(n);
    T* p = static_cast<T*>(::operator new (bytes, std::align_val_t{kHugePage}));
    advise_huge_pages(p, bytes);
    return p;
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < 2 * kHugePage) return std::allocator<T>{}.deallocate(p, n);
    ::operator delete (p, std::align_val_t{kHugePage});
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

// A HugePageAllocator whose vectors leave the elements resize() adds
// uninitialized, for tables every slot of which is written before it is
// read (a loader's, filled out of order by several threads): resizing one
// then writes nothing, and each page is first touched where the table is
// filled. Elements made from values are constructed as usual.
template <class T>
struct UninitializedAllocator : HugePageAllocator<T> {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace legato::base
