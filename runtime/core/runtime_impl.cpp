// The runtime hub: setting up the rank's processors, memories, channels and
// threads, submitting operations, and shutting down.
#include "runtime/core/runtime_impl.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "recorder/recorder.hpp"
#include "runtime/core/collect_item.hpp"
#include "runtime/core/gpus.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/pipeline.hpp"
#include "runtime/core/stores.hpp"
#include "runtime/core/task_registry.hpp"
#include "runtime/core/window.hpp"
#include "runtime/core/workers.hpp"
#include "runtime/memory/pool.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/gpu_sharing.hpp"
#include "runtime/ranks/nccl_collectives.hpp"
#include "runtime/ranks/network.hpp"

namespace legato::rt {
trace::Uid RuntimeImpl::new_uid() const {
  return rec::new_uid();
}

uint32_t RuntimeImpl::string(const std::string& s) const {
  return profiling_ ? rec::intern(s) : 0;
}

RuntimeImpl::RuntimeImpl(Config c)
    : config_(std::move(c)),
      profiling_(config_.profile),
      tasks_(std::make_unique<TaskRegistry>(profiling_)),
      stores_(std::make_unique<Stores>(config_.provenance)),
      pipeline_(std::make_unique<Pipeline>()),
      network_(std::make_unique<Network>()),
      gpus_(std::make_unique<Gpus>()) {
  rec::select_tick_source();  // the same clock with or without a trace
  // Starting up is the runtime's work before the program's, timed step by
  // step like shutdown (making GPU contexts and loading their kernels can
  // take hundreds of ms).
  const rec::Tick startup_begin = rec::now();
  std::vector<RuntimeStep> startup;
  // Lanes: from the recorder when profiling, otherwise plain local ids.
  uint32_t local = 1;
  const auto lane = [&](trace::ProcKind kind, uint32_t index, const std::string& name) {
    return profiling_ ? rec::add_processor(kind, index, name) : trace::make_resource_id(0, local++);
  };
  io_lane_ = lane(trace::ProcKind::Io, 0, "io0");
  std::vector<uint32_t> cpu_lanes;
  for (int64_t i = 0; i < config_.cpus; ++i)
    cpu_lanes.push_back(
        lane(trace::ProcKind::Cpu, static_cast<uint32_t>(i), "c" + std::to_string(i)));
  std::vector<uint32_t> utility_lanes;
  for (int64_t i = 0; i < config_.utility; ++i)
    utility_lanes.push_back(
        lane(trace::ProcKind::Utility, static_cast<uint32_t>(i), "u" + std::to_string(i)));
  const uint32_t dp_lane = lane(trace::ProcKind::DepPart, 0, "dp0");
  const uint32_t sysmem_id =
      profiling_ ? rec::add_memory(trace::MemKind::System, config_.sysmem_bytes(), "sysmem")
                 : trace::make_resource_id(0, local++);
  sysmem_ = std::make_unique<MemoryPool>(sysmem_id, trace::MemKind::System, config_.sysmem_bytes(),
                                         "sysmem");
  if (profiling_) {
    rec::add_task_kind(TaskRegistry::kTopLevelTask, "TopLevelTask");
    rec::add_variant(TaskRegistry::kTopLevelTask, 1, trace::ProcKind::Io, "TopLevelTask");
  }
  if (config_.gpus > 0) {
    timed_step(startup, "Start GPUs", [&] {
      gpus_->start(
          config_, profiling_,
          [&](trace::ProcKind kind, uint32_t index, const std::string& name, uint32_t peer) {
            return profiling_ ? rec::add_processor(kind, index, name, peer)
                              : trace::make_resource_id(0, local++);
          },
          [&](trace::MemKind kind, uint64_t capacity, const std::string& name) {
            return profiling_ ? rec::add_memory(kind, capacity, name)
                              : trace::make_resource_id(0, local++);
          });
    });
  }
  // The channels copies and fills use, registered in a stable order.
  channel(*sysmem_, *sysmem_);
  fill_channel(*sysmem_);
  for (size_t g = 0; g < gpus_->count(); ++g) {
    MemoryPool& fb = *gpus_->at(g).fbmem;
    for (MemoryPool* host : {sysmem_.get(), gpus_->zcmem()}) {
      if (host == nullptr) continue;
      channel(*host, fb);
      channel(fb, *host);
    }
    channel(fb, fb);
    fill_channel(fb);
  }
  timed_step(startup, "Start Runtime Threads", [&] {
    for (size_t i = 0; i < cpu_lanes.size(); ++i)
      cpus_.push_back(std::make_unique<Worker>("legato-c" + std::to_string(i), cpu_lanes[i]));
    dp_ = std::make_unique<Worker>("legato-dp0", dp_lane);
    copy_ = std::make_unique<Worker>("legato-copy", 0);
    fill_ = std::make_unique<Worker>("legato-fill", 0);
    pipeline_->start(*this, utility_lanes);
  });
  if (comm::size() > 1) timed_step(startup, "Start Network", [&] { start_network(sysmem_id); });

  if (profiling_) {
    // If the trace is finished before shutdown (out of memory, a crash),
    // the instances still alive go in with it.
    rec::add_finish_hook([this] { stores_->record_live_instances(); });
  }
  // The program itself is the top-level task, on the IO processor.
  rec::bind_thread(io_lane_);
  top_uid_ = new_uid();
  window_ = std::make_unique<OperationWindow>(static_cast<uint64_t>(config_.window_size),
                                              profiling_, top_uid_);
  top_start_tick_ = rec::now();
  record_runtime_work("Runtime Startup", startup_begin, top_start_tick_, startup);
  if (profiling_) {
    rec::record(trace::OperationRecord{top_uid_, 0, trace::OpKind::Task,
                                       TaskRegistry::kTopLevelTask, rec::intern("TopLevelTask"),
                                       0});
  }
}

RuntimeImpl::~RuntimeImpl() = default;

namespace {

trace::ChannelKind channel_kind(const MemoryPool& src, const MemoryPool& dst) {
  if (src.on_device() && dst.on_device())
    return src.device == dst.device ? trace::ChannelKind::DeviceToDevice
                                    : trace::ChannelKind::PeerToPeer;
  if (dst.on_device()) return trace::ChannelKind::HostToDevice;
  if (src.on_device()) return trace::ChannelKind::DeviceToHost;
  return trace::ChannelKind::HostCopy;
}

}  // namespace

Worker& RuntimeImpl::copy_worker(const MemoryPool& src, const MemoryPool& dst) {
  GpuProcessor* g = gpus_->owner(src, dst);
  return g != nullptr ? *g->copier : *copy_;
}

Worker& RuntimeImpl::fill_worker(const MemoryPool& dst) {
  GpuProcessor* g = gpus_->owner(dst, dst);
  return g != nullptr ? *g->copier : *fill_;
}

uint32_t RuntimeImpl::channel(const MemoryPool& src, const MemoryPool& dst) {
  if (!profiling_) return 0;
  std::lock_guard lock(channels_mu_);
  uint32_t& id = channels_[{src.id(), dst.id()}];
  if (id == 0)
    id = rec::add_channel(channel_kind(src, dst), src.id(), dst.id(),
                          src.name() + " to " + dst.name());
  return id;
}

uint32_t RuntimeImpl::fill_channel(const MemoryPool& dst) {
  if (!profiling_) return 0;
  std::lock_guard lock(channels_mu_);
  uint32_t& id = fill_channels_[dst.id()];
  if (id == 0)
    id = rec::add_channel(trace::ChannelKind::Fill, dst.id(), dst.id(), "fill " + dst.name());
  return id;
}

uint32_t RuntimeImpl::network_channel(int from, uint32_t src, const std::string& src_name,
                                      const MemoryPool& dst) {
  if (!profiling_) return 0;
  std::lock_guard lock(channels_mu_);
  uint32_t& id = channels_[{src, dst.id()}];  // src names its rank
  if (id == 0) {
    id = rec::add_channel(trace::ChannelKind::Network, src, dst.id(),
                          "node " + std::to_string(from) + " " + src_name + " to node " +
                              std::to_string(comm::rank()) + " " + dst.name());
  }
  return id;
}

bool RuntimeImpl::on_gpus(const Operation& op) const {
  if (gpus_->count() == 0 || op.kind != trace::OpKind::Task) return false;
  if (op.task_kind == nullptr || !op.task_kind->gpu) return false;
  return std::none_of(op.args.begin(), op.args.end(),
                      [](const StoreArg& a) { return a.privilege == Privilege::Reduce; });
}

void RuntimeImpl::start_network(uint32_t sysmem_id) {
  // The all-reduce channel; transfers' channels are registered as they come
  // (network_channel), named by node as the report and viewer name nodes.
  const int ranks = comm::size();
  uint32_t allreduce = 0;
  std::unique_ptr<GpuCollectives> collectives;
  if (gpus_->count() > 0) {
    check_gpu_sharing(*gpus_);
    collectives = GpuCollectives::start(*gpus_);
  }
  if (profiling_) {
    const uint32_t memory = collectives ? collectives->memory_id() : sysmem_id;
    allreduce = rec::add_channel(
        trace::ChannelKind::Network, memory, memory,
        "all-reduce over " + std::to_string(ranks) + " nodes" +
            (collectives ? " (" + collectives->description() + ")" : std::string()));
  }
  network_->start(allreduce, std::move(collectives));
}

void RuntimeImpl::submit(std::shared_ptr<Operation> op) {
  window_->enter();
  op->submit_tick = rec::now();
  op->mapping_uid = new_uid();
  if (profiling_) {
    rec::record(trace::OperationRecord{
        op->uid, top_uid_, op->kind, op->kind == trace::OpKind::Task ? op->task : 0,
        op->name_string, config_.provenance ? op->where->string_id : 0});
  }
  pipeline_->submit(std::move(op));
}

void RuntimeImpl::store_released(const std::shared_ptr<StoreImpl>& store) {
  auto op = runtime_op(*this, trace::OpKind::Collect, store->where);
  op->collected = store;
  submit(std::move(op));
}

void RuntimeImpl::shutdown() {
  window_->fence();
  // The program's work is done: what follows is the runtime's, timed step
  // by step.
  const rec::Tick program_done = rec::now();
  std::vector<RuntimeStep> steps;
  timed_step(steps, "Free Leftover Instances", [this] {  // of stores the program still holds
    for (StoreImpl* s : stores_->live()) stores_->release_instances(*s);
  });
  timed_step(steps, "Stop Runtime Threads", [this] {
    pipeline_->stop();
    network_->stop();
    cpus_.clear();
    dp_.reset();
    copy_.reset();
    fill_.reset();
    gpus_->stop_workers();
  });
  if (gpus_->count() > 0) {
    timed_step(steps, "Collect GPU Activity", [this] { gpus_->collect_activity(); });
    timed_step(steps, "Free GPU Memory", [this] { gpus_->release(); });
  }
  if (profiling_) {
    rec::record(trace::TaskRecord{top_uid_, 0, io_lane_, TaskRegistry::kTopLevelTask, 1,
                                  rec::stamp(top_start_tick_), rec::stamp(program_done),
                                  rec::stamp(top_start_tick_), rec::stamp(top_start_tick_)});
  }
  // Freeing what the program left, stopping the threads and collecting the
  // GPUs' activity (tens of ms with CUPTI) is the runtime's work after the
  // program's, not the top-level task's.
  record_runtime_work("Runtime Shutdown", program_done, rec::now(), steps);
}

void RuntimeImpl::record_runtime_work(const char* name, rec::Tick start, rec::Tick stop,
                                      const std::vector<RuntimeStep>& steps) {
  if (!profiling_) return;
  const auto record = [this](const char* what, rec::Tick from, rec::Tick to) {
    rec::record(trace::MetaTaskRecord{new_uid(), io_lane_, rec::intern(what), 0, rec::stamp(from),
                                      rec::stamp(to), rec::stamp(from), rec::stamp(from)});
  };
  record(name, start, stop);
  for (const RuntimeStep& s : steps) record(s.name, s.start, s.stop);
}

}  // namespace legato::rt
