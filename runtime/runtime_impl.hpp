// The running runtime: its configuration, processors, memories, the
// operation pipeline and the top-level task.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <source_location>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "recorder/recorder.hpp"
#include "runtime/config.hpp"
#include "runtime/gpus.hpp"
#include "runtime/memory.hpp"
#include "runtime/network.hpp"
#include "runtime/operation.hpp"
#include "runtime/workers.hpp"

namespace legato::rt {

struct TaskKindInfo {
  std::string name;
  uint32_t name_string;
  TaskBody cpu;
  TaskBody gpu;  // empty: CPU only
};

// Utility threads: dependence analysis and mapping of operations in program
// order (one of each at a time, so the two stages overlap), and items that
// run on utility processors (instance collection).
class RuntimeImpl;

class Pipeline {
 public:
  void start(RuntimeImpl& rt, const std::vector<uint32_t>& lanes);
  void stop();
  void submit(std::shared_ptr<Operation> op);
  void push_ready(std::shared_ptr<Item> item);

 private:
  void loop(RuntimeImpl& rt, uint32_t lane);

  // Operations go through each stage one at a time, in program order.
  struct Stage {
    std::deque<std::shared_ptr<Operation>> queue;
    bool busy = false;
    uint64_t last_tick = 0;  // when the stage last finished an operation
  };
  // Runs the stage on its next operation with the lock released, records
  // the meta-task and returns the operation.
  std::shared_ptr<Operation> run_stage(std::unique_lock<std::mutex>& lock, Stage& stage,
                                       bool mapping, RuntimeImpl& rt, uint32_t lane);

  // Operations waiting before a second utility thread is woken to share them.
  static constexpr size_t kShareBacklog = 8;
  std::mutex mu_;
  std::condition_variable cv_;
  Stage analysis_, mapping_;
  std::deque<std::shared_ptr<Item>> ready_;
  bool stopping_ = false;
  int waiting_ = 0;
  std::vector<std::thread> threads_;
};

class RuntimeImpl {
 public:
  explicit RuntimeImpl(Config config);
  ~RuntimeImpl();
  void shutdown();

  trace::Uid new_uid() { return rec::new_uid(); }
  uint32_t string(const std::string& s) const;  // interned id when profiling, else 0

  // Program side.
  void submit(std::shared_ptr<Operation> op);
  // Blocks the top-level task until done() holds, recording the wait on
  // `event` (the item whose completion ends it).
  // event() returns the item whose completion ended the wait and when that
  // happened (the task could resume then).
  void wait(const std::function<bool()>& done, std::condition_variable& cv, std::mutex& mu,
            const std::function<std::pair<trace::Uid, uint64_t>()>& event);
  // Waits until at most `at_most` operations are unfinished.
  void wait_for_outstanding(uint64_t at_most);
  void fence();
  void store_released(const std::shared_ptr<StoreImpl>& store);
  // Frees every instance of the store and forgets its data (collection, shutdown).
  void release_instances(StoreImpl& store);
  // Frees one instance of the store, unless its collection took it already.
  void release_instance(StoreImpl& store, Instance* inst);
  // Out of memory while mapping argument `arg` of op: report and exit.
  [[noreturn]] void out_of_memory(const Operation& op, size_t arg, const Instance& wanted,
                                  MemoryPool& memory);

  // Pipeline stages (dependence.cpp, mapper.cpp).
  void analyze(Operation& op);
  void map(Operation& op);

  // Operation bookkeeping: called as each of its items finishes.
  void item_finished(Operation& op);

  Worker& cpu(size_t i) { return *cpus_[i]; }
  // Where the next operation's points start going round the CPUs.
  size_t take_cpu_start() { return next_cpu_++; }
  size_t cpu_count() const { return cpus_.size(); }
  Worker& dep_part() { return *dp_; }
  // What runs a copy between two memories, or a fill of one: the copy
  // worker of the GPU whose framebuffer is involved, else the host's.
  Worker& copy_worker(const MemoryPool& src, const MemoryPool& dst);
  Worker& fill_worker(const MemoryPool& dst);
  // The channel lane of copies from src to dst, and of fills of dst
  // (registered on first use; 0 when not profiling).
  uint32_t channel(const MemoryPool& src, const MemoryPool& dst);
  uint32_t fill_channel(const MemoryPool& dst);
  Pipeline& pipeline() { return pipeline_; }
  Network& network() { return network_; }
  MemoryPool& sysmem() { return *sysmem_; }
  Gpus& gpus() { return gpus_; }
  // Whether the operation's points run on GPUs: the task has a GPU variant,
  // this rank has GPUs, and no argument needs the host (reductions, which
  // fold there). A dependent-partitioning task (nonzero) with a GPU variant
  // runs as its one point on a GPU, next to its input.
  bool on_gpus(const Operation& op) const;

  const Config config;
  const bool profiling;
  uint32_t io_lane = 0, dp_lane = 0;
  std::vector<uint32_t> utility_lanes;
  trace::Uid top_uid = 0;

  std::mutex tasks_mu;
  std::deque<TaskKindInfo> tasks;  // index = TaskId - kFirstTaskId (stable addresses)
  static constexpr TaskId kTopLevelTask = 1, kFirstTaskId = 2;

  std::atomic<uint64_t> next_store_id{1};
  // Runs of several ranks: transfers and collectives are numbered in program
  // order, alike on every rank (analysis only).
  uint64_t next_transfer = 0, next_collective = 0;
  std::atomic<uint64_t> reduction_bytes{0};  // in live private reduction buffers
  std::mutex instances_mu;                   // guards every store's `instances` across threads
  std::mutex stores_mu;
  std::unordered_set<StoreImpl*> live_stores;  // for shutdown

 private:
  void record_top_level_task();
  void start_network(uint32_t sysmem_id);
  void record_live_instances();

  uint64_t top_start_tick_ = 0;
  std::unique_ptr<MemoryPool> sysmem_;
  std::vector<std::unique_ptr<Worker>> cpus_;
  std::unique_ptr<Worker> dp_, copy_, fill_;
  Pipeline pipeline_;
  Network network_;
  Gpus gpus_;
  std::mutex channels_mu_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> channels_;  // (src, dst) memory -> lane
  std::map<uint32_t, uint32_t> fill_channels_;
  size_t next_cpu_ = 0;  // round-robin start for the next operation's points

  // The operation window: how far the top level runs ahead.
  std::mutex window_mu_;
  std::condition_variable window_cv_;
  uint64_t submitted_ = 0, completed_ = 0;
  trace::Uid last_completed_item_ = 0;
  bool top_waiting_ = false;
  uint64_t resume_at_ = 0;       // the top level resumes at this many unfinished
  uint64_t resumable_tick_ = 0;  // when it could resume
  friend class PointTask;
};

// The running runtime, or nullptr.
extern RuntimeImpl* g_runtime;
inline RuntimeImpl& runtime() {
  return *g_runtime;
}

// "file:line"
std::string where_text(const std::source_location& where);
// A fill, copy or collection operation, named after its kind.
std::shared_ptr<Operation> runtime_op(RuntimeImpl& rt, trace::OpKind kind, const Provenance& where);
// Records a copy-like item (copies, fills, folds, transfers) on a channel.
void record_copy(const Item& item, trace::Uid op, uint32_t channel, trace::CopyKind kind,
                 uint64_t bytes, trace::Uid src, trace::Uid dst);
// Records an instance's whole life (at its destruction).
void record_instance(const Instance& inst, uint64_t destroy_tick, uint8_t flags);
// Ends the program after an error the caller has printed: records the error
// marker with `text`, finishes the trace, writes the report, exits with 1.
[[noreturn]] void fatal_exit(trace::ErrorKind kind, const std::string& text, trace::Uid op,
                             uint32_t resource = trace::kNoResource);

}  // namespace legato::rt
