#include "runtime/core/task_registry.hpp"

#include "recorder/recorder.hpp"

namespace legato::rt {

TaskId TaskRegistry::add(std::string name, TaskBody cpu, TaskBody gpu) {
  std::lock_guard lock(mu_);
  const TaskId id = kFirstTaskId + static_cast<TaskId>(kinds_.size());
  if (profiling_) {
    rec::add_task_kind(id, name);
    rec::add_variant(id, 1, trace::ProcKind::Cpu, name + " (CPU)");
    if (gpu) rec::add_variant(id, 2, trace::ProcKind::GpuHost, name + " (GPU)");
  }
  const uint32_t name_string = rec::intern(name);
  kinds_.push_back({std::move(name), name_string, std::move(cpu), std::move(gpu)});
  return id;
}

const TaskKindInfo* TaskRegistry::find(TaskId id) const {
  std::lock_guard lock(mu_);
  if (id < kFirstTaskId || id - kFirstTaskId >= kinds_.size()) return nullptr;
  return &kinds_[id - kFirstTaskId];
}

}  // namespace legato::rt
