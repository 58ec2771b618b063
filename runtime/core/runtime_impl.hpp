// The running runtime on one rank: a hub over its parts, each with an
// interface of its own. The hub owns them and wires them together; work
// items reach the parts they need through runtime() (the one accessor).
//
//   tasks()     the registered task kinds            (task_registry.hpp)
//   stores()    live stores and their instances      (stores.hpp)
//   window()    the operation window, top-level waits (window.hpp)
//   pipeline()  utility threads: analysis, mapping   (pipeline.hpp)
//   network()   the network thread of several ranks  (ranks/network.hpp)
//   gpus()      GPU processors and pools             (gpus.hpp)
//   processors and channels: the workers items run on, the lanes copies are recorded on
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "recorder/clock.hpp"
#include "runtime/config.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

class Gpus;
class MemoryPool;
class Network;
class Operation;
class OperationWindow;
class Pipeline;
class StoreImpl;
class Stores;
class TaskRegistry;
class Worker;
struct StoreInstance;

class RuntimeImpl {
 public:
  explicit RuntimeImpl(Config config);
  ~RuntimeImpl();
  RuntimeImpl(const RuntimeImpl&) = delete;
  RuntimeImpl& operator=(const RuntimeImpl&) = delete;
  // Waits for all work, frees every instance, stops the threads and records
  // the top-level task.
  void shutdown();

  const Config& config() const { return config_; }
  bool profiling() const { return profiling_; }
  trace::Uid new_uid() const;
  uint32_t string(const std::string& s) const;  // interned id when profiling, else 0

  // The parts.
  TaskRegistry& tasks() { return *tasks_; }
  Stores& stores() { return *stores_; }
  OperationWindow& window() { return *window_; }
  Pipeline& pipeline() { return *pipeline_; }
  Network& network() { return *network_; }
  Gpus& gpus() { return *gpus_; }
  MemoryPool& sysmem() { return *sysmem_; }

  // Program side: records the operation and hands it to the pipeline
  // (blocking while the operation window is full).
  void submit(std::shared_ptr<Operation> op);
  // The program dropped its last handle: the store's instances go once
  // nothing uses them.
  void store_released(const std::shared_ptr<StoreImpl>& store);

  // Pipeline stages (dependence.cpp, mapper.cpp).
  void analyze(Operation& op);
  void map(Operation& op);
  // Out of memory while mapping argument `arg` of op: report and exit (oom_report.cpp).
  [[noreturn]] void out_of_memory(const Operation& op, size_t arg, const StoreInstance& wanted,
                                  MemoryPool& memory);

  // Processors.
  Worker& cpu(size_t i) { return *cpus_[i]; }
  size_t cpu_count() const { return cpus_.size(); }
  // Where the next operation's points start going round the processors.
  size_t take_cpu_start() { return next_cpu_++; }
  Worker& dep_part() { return *dp_; }
  // What runs a copy between two memories, or a fill of one: the copy
  // worker of the GPU whose framebuffer is involved, else the host's.
  Worker& copy_worker(const MemoryPool& src, const MemoryPool& dst);
  Worker& fill_worker(const MemoryPool& dst);
  // Whether the operation's points run on GPUs: the task has a GPU variant,
  // this rank has GPUs, and no argument needs the host (reductions, which
  // fold there). A dependent-partitioning task (nonzero) with a GPU variant
  // runs as its one point on a GPU, next to its input.
  bool on_gpus(const Operation& op) const;

  // The channel lane of copies from src to dst, and of fills of dst
  // (registered on first use; 0 when not profiling).
  uint32_t channel(const MemoryPool& src, const MemoryPool& dst);
  uint32_t fill_channel(const MemoryPool& dst);
  // The network channel of transfers from rank `from`, read there from its
  // memory `src` (resource id) named `src_name`, into dst here.
  uint32_t network_channel(int from, uint32_t src, const std::string& src_name,
                           const MemoryPool& dst);

  // Runs of several ranks: transfers and collectives are numbered in
  // program order, alike on every rank (the analysis takes them).
  uint64_t take_transfer_sequence() { return next_transfer_++; }
  uint64_t take_collective_sequence() { return next_collective_++; }

 private:
  void start_network(uint32_t sysmem_id);
  // A step of the runtime's own work at startup or shutdown, and when it ran.
  struct RuntimeStep {
    const char* name;
    rec::Tick start, stop;
  };
  template <class Work>
  static void timed_step(std::vector<RuntimeStep>& steps, const char* name, const Work& work) {
    const rec::Tick start = rec::now();
    work();
    steps.push_back({name, start, rec::now()});
  }
  // The runtime's work from start to stop on the IO lane: one meta-task
  // named `name`, and one inside it per step.
  void record_runtime_work(const char* name, rec::Tick start, rec::Tick stop,
                           const std::vector<RuntimeStep>& steps);

  const Config config_;
  const bool profiling_;
  uint32_t io_lane_ = 0;
  trace::Uid top_uid_ = 0;
  rec::Tick top_start_tick_;
  std::unique_ptr<TaskRegistry> tasks_;
  std::unique_ptr<Stores> stores_;
  std::unique_ptr<OperationWindow> window_;
  std::unique_ptr<MemoryPool> sysmem_;
  std::vector<std::unique_ptr<Worker>> cpus_;
  std::unique_ptr<Worker> dp_, copy_, fill_;
  std::unique_ptr<Pipeline> pipeline_;
  std::unique_ptr<Network> network_;
  std::unique_ptr<Gpus> gpus_;
  std::mutex channels_mu_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> channels_;  // (src, dst) memory -> lane
  std::map<uint32_t, uint32_t> fill_channels_;
  size_t next_cpu_ = 0;  // round-robin start for the next operation's points
  uint64_t next_transfer_ = 0, next_collective_ = 0;
};

// The running runtime, or nullptr.
extern RuntimeImpl* g_runtime;
inline RuntimeImpl& runtime() {
  return *g_runtime;
}

}  // namespace legato::rt
