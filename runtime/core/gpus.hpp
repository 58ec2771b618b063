// GPU processors (--gpus). Each GPU has a host worker that runs GPU task
// bodies (the GPU Host lane) on its compute stream, a copy worker for the
// copies and fills that touch its framebuffer (on a copy stream of its
// own), its framebuffer pool (--fbmem, one device allocation the runtime's
// allocator divides), and the GPU Device lane its kernels are recorded on.
// The rank also has a zero-copy pool (--zcmem: pinned host memory every GPU
// can reach). When profiling, CUPTI's activity records give the kernels'
// and copies' device times, put on the recorder's clock at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/config.hpp"
#include "runtime/core/workers.hpp"
#include "runtime/gpu/collector.hpp"
#include "runtime/gpu/device.hpp"
#include "runtime/legato.hpp"
#include "runtime/memory/pool.hpp"
#include "trace_format/records.hpp"

namespace legato::rt {

struct GpuProcessor {
  size_t index = 0;  // among this rank's GPUs
  int device = 0;    // CUDA's device number
  uint32_t host_lane = 0, device_lane = 0;
  std::unique_ptr<MemoryPool> fbmem;
  GpuResources resources;  // compute stream and result scratch
  gpu::Stream copy_stream = nullptr;
  // 8 bytes each, for the index check of the gathers and scatters the copy
  // worker runs (device, pinned host).
  std::byte* copy_scratch = nullptr;
  std::byte* copy_host_scratch = nullptr;
  std::unique_ptr<Worker> host, copier;
  uint64_t tasks_run = 0;  // by the host worker, for clock samples
};

class Gpus {
 public:
  // A GPU's host worker takes a GPU clock sample every this many tasks.
  static constexpr uint64_t kSampleEvery = 64;

  // Lane and memory ids come from `lane` / `memory` (the recorder's when
  // profiling). Opens the configured GPUs; throws std::runtime_error saying
  // what failed and what to do.
  using LaneFn = std::function<uint32_t(trace::ProcKind, uint32_t, const std::string&, uint32_t)>;
  using MemoryFn = std::function<uint32_t(trace::MemKind, uint64_t, const std::string&)>;
  void start(const Config& config, bool profiling, const LaneFn& lane, const MemoryFn& memory);
  // Waits for the workers, records what CUPTI saw (kernels, device copy
  // times) and frees the GPUs' memory. The pools must hold no instance.
  // The same as its three steps in order, which shutdown times one by one.
  void stop();
  void stop_workers();      // waits for the host and copy workers
  void collect_activity();  // records what CUPTI saw
  void release();           // frees streams, scratch and the pools; count() is then 0
  ~Gpus();

  size_t count() const { return gpus_.size(); }
  GpuProcessor& at(size_t i) { return *gpus_[i]; }
  MemoryPool* zcmem() { return zcmem_.get(); }
  // The GPU whose copy worker moves data between these memories (the one
  // whose framebuffer is involved), or null for host-only copies.
  GpuProcessor* owner(const MemoryPool& a, const MemoryPool& b);

  // Around the CUDA calls one item makes on this thread: CUPTI tags its
  // device work with the item (no-ops when not profiling).
  void push(trace::Uid item);
  void pop();
  void sample_clock();
  // A device copy or fill's record, written at stop() with its device
  // times when CUPTI reported them (right away when CUPTI is not running).
  void record_device_copy(const trace::CopyRecord& r);

 private:
  std::vector<std::unique_ptr<GpuProcessor>> gpus_;
  std::unique_ptr<MemoryPool> zcmem_;
  std::unique_ptr<gpu::Collector> collector_;
  std::mutex copies_mu_;
  std::vector<trace::CopyRecord> copies_;
};

}  // namespace legato::rt
