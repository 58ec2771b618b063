#include "runtime/core/workers.hpp"

#include <pthread.h>

#include "recorder/recorder.hpp"

namespace legato::rt {

Worker::Worker(std::string thread_name, uint32_t lane, std::function<void()> on_start)
    : lane_(lane) {
  thread_ = std::thread(
      [this, name = std::move(thread_name), start = std::move(on_start)] { loop(name, start); });
}

Worker::~Worker() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

void Worker::push(std::shared_ptr<Item> item) {
  bool wake;
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(item));
    wake = waiting_;
  }
  if (wake) cv_.notify_one();
}

void Worker::loop(const std::string& name, const std::function<void()>& on_start) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
  if (lane_ != 0) rec::bind_thread(lane_);
  if (on_start) on_start();
  std::deque<std::shared_ptr<Item>> batch;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      while (queue_.empty() && !stopping_) {
        waiting_ = true;
        cv_.wait(lock);
        waiting_ = false;
      }
      if (queue_.empty()) return;
      batch.swap(queue_);
    }
    for (auto& item : batch) item->execute();
    batch.clear();
  }
}

}  // namespace legato::rt
