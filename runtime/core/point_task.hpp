// One point of a task launch, on a CPU, GPU or the dependent-partitioning processor.
#pragma once

#include <memory>
#include <vector>

#include "runtime/core/work_item.hpp"

namespace legato::rt {

class Worker;
struct GpuProcessor;

class PointTask final : public WorkItem {
 public:
  PointTask(trace::Uid uid, std::shared_ptr<Operation> op, int64_t point, Range chunk);
  const int64_t point;
  const Range chunk;
  Worker* worker = nullptr;
  uint32_t lane = 0;
  GpuProcessor* gpu = nullptr;                    // a GPU point: its GPU
  std::vector<StoreInstance*> instances;          // per argument, chosen by mapping
  std::vector<StoreInstance*> reduction_buffers;  // per argument; null unless a reduction

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  // The body on a GPU processor: launches on its stream, then waits for them.
  void run_on_gpu(TaskContext& ctx);
};

}  // namespace legato::rt
