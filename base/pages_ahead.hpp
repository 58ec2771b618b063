// The pages that growing tables will be written into next, made ready on a
// core that would otherwise idle. A thread that fills gigabytes of fresh
// memory stops at a page fault for each huge page, in which the kernel
// clears it (and in a virtual machine the host may first have to back it):
// for one big Legion log that is more time than decoding it
// (bench/HISTORY.md, 2026-11-28). Told where each table ends, a thread of its own
// prefaults the next part of each (MADV_POPULATE_WRITE, which changes no
// byte), so that the writer finds its pages ready. Where the system cannot
// prefault that way, or no thread can be had, it does nothing.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace legato::base {

class PagesAhead {
 public:
  // A table's bytes: [begin, end) written, [end, limit) reserved.
  struct Table {
    const char* begin = nullptr;
    const char* end = nullptr;
    const char* limit = nullptr;
    // A vector's: its size written, its capacity reserved.
    template <class V>
    static Table of(const V& v) {
      const auto* first = reinterpret_cast<const char*>(v.data());
      const size_t element = sizeof(*v.data());
      return Table{first, first + v.size() * element, first + v.capacity() * element};
    }
  };
  PagesAhead();
  ~PagesAhead();  // stops the thread after the range it is prefaulting
  PagesAhead(const PagesAhead&) = delete;
  PagesAhead& operator=(const PagesAhead&) = delete;

  // The tables as they are now, in the same order at every call. Each is
  // prefaulted ahead of its end by four times what it grew since the last
  // call (at least a huge page once it grows), within its reserved room.
  void update(const std::vector<Table>& tables);

 private:
  struct Ahead {
    const char* begin = nullptr;     // the table's, at the last update
    const char* last_end = nullptr;  // its end then
    const char* from = nullptr;      // prefaulted (or written) up to here
    const char* to = nullptr;        // to be prefaulted up to here
  };
  void run();

  std::vector<Ahead> tables_;  // guarded by m_
  bool changed_ = false, stop_ = false;
  std::mutex m_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace legato::base
