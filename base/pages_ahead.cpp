#include "base/pages_ahead.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <system_error>

#include "base/huge_pages.hpp"

namespace legato::base {

namespace {

// The system's page size (madvise takes ranges that start on a page).
uintptr_t page_size() {
  static const uintptr_t size = [] {
    const long s = sysconf(_SC_PAGESIZE);
    return s > 0 ? static_cast<uintptr_t>(s) : uintptr_t{4096};
  }();
  return size;
}

const char* page_down(const char* p) {
  return reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(p) & ~(page_size() - 1));
}

// Prefaults [from, to) for writing; false where the system cannot (a
// kernel before 5.14 says EINVAL). Other errors (a table that moved, its
// old range unmapped) cost nothing: the writer faults as usual.
bool prefault([[maybe_unused]] const char* from, [[maybe_unused]] const char* to) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (madvise(const_cast<char*>(from), static_cast<size_t>(to - from), MADV_POPULATE_WRITE) == 0)
    return true;
  return errno != EINVAL;
#else
  return false;
#endif
}

}  // namespace

PagesAhead::PagesAhead() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {  // no thread to be had: the writer faults its pages
  }
#endif
}

PagesAhead::~PagesAhead() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(m_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void PagesAhead::update(const std::vector<Table>& tables) {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(m_);
    tables_.resize(tables.size());
    for (size_t k = 0; k < tables.size(); ++k) {
      const Table& t = tables[k];
      Ahead& a = tables_[k];
      // Small tables are not worth a call; a table seen for the first time,
      // or moved (grown past its room), is prefaulted from its end on.
      if (static_cast<size_t>(t.limit - t.begin) < 2 * kHugePage) {
        a = Ahead{};
        continue;
      }
      if (a.begin != t.begin || t.end < a.last_end) {
        a = Ahead{t.begin, t.end, t.end, t.end};
        continue;
      }
      const auto grew = static_cast<size_t>(t.end - a.last_end);
      a.last_end = t.end;
      if (grew == 0) continue;
      const size_t ahead =
          std::min(std::max(4 * grew, kHugePage), static_cast<size_t>(t.limit - t.end));
      a.to = std::max(a.to, t.end + ahead);
      a.from = std::max(a.from, page_down(t.end));  // what it wrote, it faulted itself
    }
    changed_ = true;
  }
  wake_.notify_one();
}

void PagesAhead::run() {
  std::unique_lock lock(m_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || changed_; });
    if (stop_) return;
    changed_ = false;
    for (size_t k = 0; k < tables_.size(); ++k) {
      const char* const from = tables_[k].from;
      const char* const to = page_down(tables_[k].to);
      if (from >= to) continue;
      tables_[k].from = to;
      lock.unlock();  // update() may come meanwhile
      const bool supported = prefault(from, to);
      lock.lock();
      if (!supported || stop_) return;
    }
  }
}

}  // namespace legato::base
