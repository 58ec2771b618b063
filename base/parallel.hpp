// Running independent pieces of a loading step on several threads
// (the model's steps, the loader's files).
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace legato::base {

// Calls work(worker, k) for every k in [0, n), on up to `threads` threads
// (the caller's among them), each taking the next k when it is done with
// one; worker is the thread's number, in [0, threads), for its own scratch
// space. The first exception thrown is rethrown here once all have stopped.
template <class F>
void parallel_for(size_t n, unsigned threads, F&& work) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto run = [&](unsigned worker) {
    try {
      for (size_t k; (k = next.fetch_add(1)) < n;) work(worker, k);
    } catch (...) {
      next = n;  // the others stop after their current piece
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  try {
    for (unsigned w = 1; w < threads && w < n; ++w) pool.emplace_back(run, w);
  } catch (const std::system_error&) {  // no more threads: fewer do the work
  }
  run(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace legato::base
