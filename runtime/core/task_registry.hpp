// The task kinds a program registered, with their CPU and GPU variants.
// Ids start after the top-level task's; kinds keep their addresses for the
// life of the runtime, so operations point at them.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

#include "runtime/legato.hpp"

namespace legato::rt {

struct TaskKindInfo {
  std::string name;
  uint32_t name_string;
  TaskBody cpu;
  TaskBody gpu;  // empty: CPU only
};

class TaskRegistry {
 public:
  static constexpr TaskId kTopLevelTask = 1, kFirstTaskId = 2;

  explicit TaskRegistry(bool profiling) : profiling_(profiling) {}
  // Registers a kind (and its variants in the trace when profiling).
  TaskId add(std::string name, TaskBody cpu, TaskBody gpu);
  // The kind of a registered id, or nullptr.
  const TaskKindInfo* find(TaskId id) const;

 private:
  const bool profiling_;
  mutable std::mutex mu_;
  std::deque<TaskKindInfo> kinds_;  // index = TaskId - kFirstTaskId
};

}  // namespace legato::rt
