#include "runtime/core/gpus.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "recorder/recorder.hpp"

namespace legato::rt {
namespace {

// Device memory for one GPU's results (reductions, dot products).
constexpr size_t kScratchBytes = 64 << 10;
// And for its copy worker's index checks.
constexpr size_t kCopyScratchBytes = 8;

// This rank's index among the ranks on its machine (the launcher says).
int64_t local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return std::atoll(v);
  }
  return 0;
}

void free_device(std::byte* p) {
  gpu::device_free(p);
}
void free_pinned(std::byte* p) {
  gpu::pinned_free(p);
}

}  // namespace

void Gpus::start(const Config& config, bool profiling, const LaneFn& lane, const MemoryFn& memory) {
  if (config.gpus == 0) return;
  gpu::prefer_eager_module_loading();
  if (profiling) {
    std::string problem;
    collector_ = gpu::Collector::start(&problem);
    if (!collector_) {
      std::fprintf(stderr, "legato: warning: GPU kernels will not be in the trace: %s\n",
                   problem.c_str());
    }
  }
  // Ranks of one machine take the GPUs in turn (several share one when
  // there are more ranks than GPUs).
  const int64_t first = local_rank() * config.gpus;
  for (int64_t g = 0; g < config.gpus; ++g) {
    auto p = std::make_unique<GpuProcessor>();
    p->index = static_cast<size_t>(g);
    p->device = static_cast<int>((first + g) % std::max<int64_t>(1, config.gpus_visible));
    gpus_.push_back(std::move(p));
  }
  for (auto& p : gpus_) {
    const std::string n = std::to_string(p->index);
    const uint32_t index = static_cast<uint32_t>(p->index);
    p->device_lane = lane(trace::ProcKind::GpuDevice, index, "g" + n + "d", trace::kNoResource);
    p->host_lane = lane(trace::ProcKind::GpuHost, index, "g" + n + "h", p->device_lane);
    try {
      gpu::set_device(p->device);
      const std::string name = "fbmem" + n;
      p->fbmem = std::make_unique<MemoryPool>(
          memory(trace::MemKind::Framebuffer, config.fbmem_bytes(), name),
          trace::MemKind::Framebuffer, config.fbmem_bytes(), name,
          gpu::device_alloc(config.fbmem_bytes(), p->device), free_device, false);
      p->fbmem->device = p->device;
      p->resources.device = p->device;
      p->resources.stream = gpu::create_stream();
      p->resources.scratch = gpu::device_alloc(kScratchBytes, p->device);
      p->resources.host_scratch = gpu::pinned_alloc(kScratchBytes);
      p->resources.scratch_bytes = kScratchBytes;
      p->copy_stream = gpu::create_stream();
      p->copy_scratch = gpu::device_alloc(kCopyScratchBytes, p->device);
      p->copy_host_scratch = gpu::pinned_alloc(kCopyScratchBytes);
    } catch (const gpu::DeviceError& e) {
      throw std::runtime_error("cannot set up GPU " + n + " (CUDA device " +
                               std::to_string(p->device) + ") with --fbmem " +
                               std::to_string(config.fbmem) + ": " + e.what() +
                               "; lower --fbmem, or check nvidia-smi for other processes on it");
    }
    const int device = p->device;
    const auto select = [device] { gpu::set_device(device); };
    p->host = std::make_unique<Worker>("legato-g" + n, p->host_lane, select);
    p->copier = std::make_unique<Worker>("legato-g" + n + "copy", 0, select);
  }
  if (config.zcmem > 0) {
    try {
      zcmem_ = std::make_unique<MemoryPool>(
          memory(trace::MemKind::ZeroCopy, config.zcmem_bytes(), "zcmem"), trace::MemKind::ZeroCopy,
          config.zcmem_bytes(), "zcmem", gpu::pinned_alloc(config.zcmem_bytes()), free_pinned,
          true);
    } catch (const gpu::DeviceError& e) {
      throw std::runtime_error("cannot set up --zcmem " + std::to_string(config.zcmem) +
                               " MiB of pinned host memory: " + e.what() + "; lower --zcmem");
    }
  }
  sample_clock();
}

Gpus::~Gpus() {
  stop();
}

GpuProcessor* Gpus::owner(const MemoryPool& a, const MemoryPool& b) {
  for (auto& p : gpus_) {
    if (p->fbmem.get() == &a || p->fbmem.get() == &b) return p.get();
  }
  return nullptr;
}

void Gpus::push(trace::Uid item) {
  if (collector_) collector_->push(item);
}

void Gpus::pop() {
  if (collector_) collector_->pop();
}

void Gpus::sample_clock() {
  if (collector_) collector_->sample_clock();
}

void Gpus::record_device_copy(const trace::CopyRecord& r) {
  if (!collector_) {
    rec::record(r);
    return;
  }
  std::lock_guard lock(copies_mu_);
  copies_.push_back(r);
}

void Gpus::stop() {
  stop_workers();
  collect_activity();
  release();
}

void Gpus::stop_workers() {
  for (auto& p : gpus_) {
    p->host.reset();
    p->copier.reset();
  }
}

void Gpus::collect_activity() {
  if (collector_ && !gpus_.empty()) {
    sample_clock();
    const gpu::Collector::Result got = collector_->finish([this](uint32_t device) {
      for (auto& p : gpus_) {
        if (p->device == static_cast<int>(device)) return p->device_lane;
      }
      return gpus_.front()->device_lane;
    });
    collector_.reset();
    for (const trace::GpuKernelRecord& k : got.kernels) rec::record(k);
    gpu::apply_device_times(copies_, got.copies, got.kernels);
    for (const trace::CopyRecord& r : copies_) rec::record(r);
    copies_.clear();
    const gpu::ClockFit& f = got.fit;
    rec::set_metadata(
        "gpu_activity",
        {{"matched", got.matched},  // kernels and device copies
         {"unmatched", got.unmatched},
         {"dropped", got.dropped},
         {"clock_fit",
          {{"samples", f.samples},
           {"ticks_per_ns", f.ticks_per_ns},
           {"max_error_ns", f.ticks_per_ns > 0 ? f.max_error_ticks / f.ticks_per_ns : 0.0}}}});
    if (got.unmatched + got.dropped > 0) {
      std::fprintf(stderr,
                   "legato: warning: %llu GPU activity record(s) could not be tied to a task or "
                   "copy and %llu were dropped by CUPTI; they are not in the trace\n",
                   static_cast<unsigned long long>(got.unmatched),
                   static_cast<unsigned long long>(got.dropped));
    }
  }
}

void Gpus::release() {
  for (auto& p : gpus_) {
    gpu::destroy_stream(p->resources.stream);
    gpu::destroy_stream(p->copy_stream);
    gpu::device_free(p->resources.scratch);
    gpu::pinned_free(p->resources.host_scratch);
    gpu::device_free(p->copy_scratch);
    gpu::pinned_free(p->copy_host_scratch);
    p->fbmem.reset();
  }
  gpus_.clear();
  zcmem_.reset();
}

}  // namespace legato::rt
