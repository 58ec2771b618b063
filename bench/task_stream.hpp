// A synthetic task stream shaped like a Legato run, for the format benchmark:
// a top-level program issuing operations, utility threads analysing and
// mapping them, CPU workers running point tasks back to back, edges to
// earlier operations, blocking waits, instances and copies. Records come out
// grouped per processor in bursts, as per-thread recorder buffers drain.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "trace_format/writer.hpp"

namespace legato::bench {

using namespace legato::trace;

struct TaskStream {
  std::vector<std::vector<TaskRecord>> tasks;     // per CPU
  std::vector<std::vector<MetaTaskRecord>> meta;  // per utility processor
  std::vector<OperationRecord> ops;
  std::vector<EdgeRecord> edges;
  std::vector<WaitRecord> waits;
  std::vector<InstanceRecord> instances;
  std::vector<CopyRecord> copies;
  std::vector<ProcessorRecord> processors;
  // How many edges, waits, instances and copies exist after each operation.
  struct Ends {
    size_t edges, waits, instances, copies;
  };
  std::vector<Ends> ends;
  uint64_t total() const;
  uint64_t task_count() const;
};

// What the program does: how long its tasks run and how its operations split.
struct StreamShape {
  const char* name;
  double task_median_us;  // point task durations: log-normal around this
  double task_sigma;      // ... with this spread (of the log)
  int task_kinds;         // distinct task kinds the operations cycle through
  double single_point;    // share of operations that run as one point task
};
// Whole-array operations of many kinds (a solver): varied, mostly split tasks.
inline constexpr StreamShape kMixedShape{"mixed", 20.0, 0.8, 12, 0.25};
// The seeds' chunked update: one small slice task per operation, all alike.
inline constexpr StreamShape kChunkedShape{"chunked", 3.0, 0.1, 1, 1.0};

// The string ids the stream uses (its writer defines them, see run_trace.hpp):
// meta-task names 1 (dependence analysis) and 2 (mapping), task kind k's name
// kKindNames + k, provenance kProvenances + 0..39, the instance name
// kInstanceName, and processor names kProcessorNames + its local index.
inline constexpr uint32_t kKindNames = 10, kProvenances = 100, kInstanceName = 200,
                          kProcessorNames = 300;
// The memory and channel the instances and copies name (local indexes).
inline constexpr uint32_t kStreamMemory = 20, kStreamChannel = 30;

// ops operations of one rank on `cpus` CPUs and `utils` utility processors.
TaskStream make_task_stream(const StreamShape& shape, int ops, int cpus, int utils, uint64_t seed,
                            uint32_t rank = 0);

// Writes the stream in bursts of `burst` operations, per processor.
void write_stream(TraceWriter& w, const TaskStream& s, int burst, bool tasks_only);

}  // namespace legato::bench
