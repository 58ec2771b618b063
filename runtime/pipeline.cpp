// The utility threads: analysis and mapping of operations in program order,
// each recorded as a named meta-task, plus items that run on utility
// processors (instance collection).
#include <pthread.h>

#include <algorithm>

#include "recorder/recorder.hpp"
#include "runtime/runtime_impl.hpp"

namespace legato::rt {
namespace {

void record_meta(trace::Uid uid, uint32_t lane, uint32_t kind, trace::Uid op, uint64_t create,
                 uint64_t ready, uint64_t start, uint64_t stop) {
  const auto t = [](uint64_t v) { return static_cast<trace::Time>(v); };
  ready = std::max(ready, create);
  start = std::max(start, ready);
  stop = std::max(stop, start);
  rec::record(trace::MetaTaskRecord{uid, lane, kind, op, t(start), t(stop), t(ready), t(create)});
}

}  // namespace

void Pipeline::start(RuntimeImpl& rt, const std::vector<uint32_t>& lanes) {
  for (size_t i = 0; i < lanes.size(); ++i) {
    threads_.emplace_back([this, &rt, lane = lanes[i], i] {
      pthread_setname_np(pthread_self(), ("legato-u" + std::to_string(i)).c_str());
      loop(rt, lane);
    });
  }
}

void Pipeline::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void Pipeline::submit(std::shared_ptr<Operation> op) {
  bool wake;
  {
    std::lock_guard lock(mu_);
    to_analyze_.push_back(std::move(op));
    // A busy utility thread comes back for it; wake one only if none is busy
    // or the backlog is worth a second thread.
    const bool busy = analyzing_ || mapping_;
    wake = waiting_ > 0 && (!busy || to_analyze_.size() + to_map_.size() > kShareBacklog);
  }
  if (wake) cv_.notify_one();
}

void Pipeline::push_ready(std::shared_ptr<Item> item) {
  bool wake;
  {
    std::lock_guard lock(mu_);
    ready_.push_back(std::move(item));
    wake = waiting_ > 0;
  }
  if (wake) cv_.notify_one();
}

void Pipeline::loop(RuntimeImpl& rt, uint32_t lane) {
  if (lane != 0) rec::bind_thread(lane);
  static const uint32_t kAnalysis = rec::intern("Dependence Analysis");
  static const uint32_t kMapping = rec::intern("Mapping");
  std::unique_lock lock(mu_);
  for (;;) {
    if (!ready_.empty()) {
      std::shared_ptr<Item> item = std::move(ready_.front());
      ready_.pop_front();
      lock.unlock();
      item->execute();
      lock.lock();
      continue;
    }
    if (!mapping_ && !to_map_.empty()) {
      std::shared_ptr<Operation> op = std::move(to_map_.front());
      to_map_.pop_front();
      mapping_ = true;
      const uint64_t ready = std::max(op->analyzed_tick, last_mapping_tick_);
      lock.unlock();
      const uint64_t start = rec::now();
      rt.map(*op);
      const uint64_t stop = op->mapped_tick;
      if (rec::active())
        record_meta(op->mapping_uid, lane, kMapping, op->uid, op->analyzed_tick, ready, start,
                    stop);
      lock.lock();
      mapping_ = false;
      last_mapping_tick_ = stop;
      if (waiting_ > 0 && to_map_.size() + to_analyze_.size() > kShareBacklog) cv_.notify_one();
      continue;
    }
    if (!analyzing_ && !to_analyze_.empty()) {
      std::shared_ptr<Operation> op = std::move(to_analyze_.front());
      to_analyze_.pop_front();
      analyzing_ = true;
      const uint64_t ready = std::max(op->submit_tick, last_analysis_tick_);
      lock.unlock();
      const uint64_t start = rec::now();
      rt.analyze(*op);
      const uint64_t stop = rec::now();
      op->analyzed_tick = stop;
      if (rec::active())
        record_meta(rt.new_uid(), lane, kAnalysis, op->uid, op->submit_tick, ready, start, stop);
      lock.lock();
      analyzing_ = false;
      last_analysis_tick_ = stop;
      to_map_.push_back(std::move(op));
      // This thread maps it next unless another one is mapping (which then
      // takes it when done); wake a sleeping thread only for a backlog, so
      // the stages overlap when there is enough work to share.
      if (waiting_ > 0 && (mapping_ || to_map_.size() + to_analyze_.size() > kShareBacklog))
        cv_.notify_one();
      continue;
    }
    if (stopping_) return;
    ++waiting_;
    cv_.wait(lock);
    --waiting_;
  }
}

}  // namespace legato::rt
