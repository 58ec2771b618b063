// The utility threads: analysis and mapping of operations in program order,
// each recorded as a named meta-task, plus items that run on utility
// processors (instance collection).
#include <pthread.h>

#include <algorithm>

#include "recorder/recorder.hpp"
#include "runtime/core/item.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/pipeline.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/gpu/nvtx.hpp"

namespace legato::rt {
namespace {

void record_meta(trace::Uid uid, uint32_t lane, uint32_t kind, trace::Uid op, rec::Tick create,
                 rec::Tick ready, rec::Tick start, rec::Tick stop) {
  ready = std::max(ready, create);
  start = std::max(start, ready);
  stop = std::max(stop, start);
  rec::record(trace::MetaTaskRecord{uid, lane, kind, op, rec::stamp(start), rec::stamp(stop),
                                    rec::stamp(ready), rec::stamp(create)});
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
    analysis_.queue.push_back(std::move(op));
    // A busy utility thread comes back for it; wake one only if none is busy
    // or the backlog is worth a second thread.
    const bool busy = analysis_.busy || mapping_.busy;
    wake =
        waiting_ > 0 && (!busy || analysis_.queue.size() + mapping_.queue.size() > kShareBacklog);
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

std::shared_ptr<Operation> Pipeline::run_stage(std::unique_lock<std::mutex>& lock, Stage& stage,
                                               bool mapping, RuntimeImpl& rt, uint32_t lane) {
  static const uint32_t kAnalysis = rec::intern("Dependence Analysis");
  static const uint32_t kMapping = rec::intern("Mapping");
  std::shared_ptr<Operation> op = std::move(stage.queue.front());
  stage.queue.pop_front();
  stage.busy = true;
  // Created when the previous stage handed it over; ready once this stage
  // finished the operation before it (program order).
  const rec::Tick create = mapping ? op->analyzed_tick : op->submit_tick;
  const rec::Tick ready = std::max(create, stage.last_tick);
  lock.unlock();
  const rec::Tick start = rec::now();
  rec::Tick stop;
  const gpu::NvtxRange range(rt.config().nsys, mapping ? "Mapping" : "Dependence Analysis");
  if (mapping) {
    rt.map(*op);
    stop = op->mapped_tick;
  } else {
    rt.analyze(*op);
    stop = op->analyzed_tick = rec::now();
  }
  if (rec::active()) {
    record_meta(mapping ? op->mapping_uid : rt.new_uid(), lane, mapping ? kMapping : kAnalysis,
                op->uid, create, ready, start, stop);
  }
  lock.lock();
  stage.busy = false;
  stage.last_tick = stop;
  return op;
}

void Pipeline::loop(RuntimeImpl& rt, uint32_t lane) {
  if (lane != 0) rec::bind_thread(lane);
  std::unique_lock lock(mu_);
  for (;;) {
    const size_t backlog = analysis_.queue.size() + mapping_.queue.size();
    if (!ready_.empty()) {
      std::shared_ptr<Item> item = std::move(ready_.front());
      ready_.pop_front();
      lock.unlock();
      item->execute();
      lock.lock();
    } else if (!mapping_.busy && !mapping_.queue.empty()) {
      run_stage(lock, mapping_, true, rt, lane);
      if (waiting_ > 0 && backlog > kShareBacklog) cv_.notify_one();
    } else if (!analysis_.busy && !analysis_.queue.empty()) {
      mapping_.queue.push_back(run_stage(lock, analysis_, false, rt, lane));
      // This thread maps it next unless another one is mapping (which then
      // takes it when done); wake a sleeping thread only for a backlog, so
      // the stages overlap when there is enough work to share.
      if (waiting_ > 0 && (mapping_.busy || backlog > kShareBacklog)) cv_.notify_one();
    } else if (stopping_) {
      return;
    } else {
      ++waiting_;
      cv_.wait(lock);
      --waiting_;
    }
  }
}

}  // namespace legato::rt
