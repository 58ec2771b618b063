// Starting and stopping the runtime, the top-level task, the operation
// window and instance release.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "recorder/recorder.hpp"
#include "runtime/comm.hpp"
#include "runtime/profile_report.hpp"
#include "runtime/runtime_impl.hpp"
#include "trace_format/metadata.hpp"

namespace legato::rt {

RuntimeImpl* g_runtime = nullptr;

namespace {

std::mutex g_lifecycle;
Config g_last_config;
uint64_t g_epoch = 0;
comm::ClockOffset g_clock_offset;  // this rank's clock to rank 0's, at start

trace::Time t(uint64_t tick) {
  return static_cast<trace::Time>(tick);
}

// The rank the launcher gave this process (before MPI starts), 0 without one.
int launch_rank() {
  return comm::detect_launch().rank;
}

// A mistake in the configuration is the same on every rank: rank 0 says it.
// Problems of one rank (its MPI, its trace file) are said by that rank.
[[noreturn]] void config_error(const std::string& what, bool every_rank_alike = true) {
  const comm::Launch l = comm::detect_launch();
  if (!every_rank_alike || l.rank == 0) {
    const std::string who =
        l.size > 1 && !every_rank_alike
            ? "rank " + std::to_string(l.rank) + " of " + std::to_string(l.size) + ": "
            : "";
    std::fprintf(stderr,
                 "LEGATE ERROR: %s%s\nRun with LEGATE_CONFIG=\"--help\" to list every option and "
                 "its default.\n",
                 who.c_str(), what.c_str());
  }
  std::exit(1);
}

rec::RecorderOptions recorder_options(const Config& c, int rank = comm::rank()) {
  rec::RecorderOptions o;
  o.logdir = c.logdir;
  o.name = c.profile_name;
  o.config = c.to_json();
  o.rank = static_cast<uint32_t>(rank);
  o.ranks = static_cast<uint32_t>(comm::size());
  return o;
}

// Every rank's trace file.
std::vector<std::string> trace_paths(const Config& c) {
  std::vector<std::string> out;
  for (int r = 0; r < comm::size(); ++r) out.push_back(recorder_options(c, r).trace_path());
  return out;
}

// The report of the finished traces of every rank, when the configuration
// asks for one; rank 0 writes it once every rank has finished its file.
void write_report(const Config& c) {
  if (!c.profile || !c.profile_report || comm::rank() != 0) return;
  write_profile_report(trace_paths(c), c.logdir + "/legate_prof");
}

// The run's shape as configured against the ranks the launcher started
// (flags left unset take the launcher's count).
void check_ranks(const Config& c) {
  const bool shaped = c.given.count("ranks-per-node") + c.given.count("nodes") > 0;
  if (c.ranks() == comm::size() || (comm::active() && !shaped)) return;
  const std::string asked = "--ranks-per-node " + std::to_string(c.ranks_per_node) + " --nodes " +
                            std::to_string(c.nodes) + " ask for " + std::to_string(c.ranks());
  if (!comm::active()) {
    config_error(asked +
                 " ranks but this process was not started by a launcher; run it with legate "
                 "--launcher mpirun (or srun), or under mpirun -n " +
                 std::to_string(c.ranks()));
  }
  config_error(asked + " rank(s) but the launcher started " + std::to_string(comm::size()) +
               "; start " + std::to_string(c.ranks()) + " (e.g. mpirun -n " +
               std::to_string(c.ranks()) + ") or change the flags");
}

// Several ranks: they agree on the run id and on one time axis (rank 0's
// start, converted to each rank's clock through the measured offset).
void join_ranks(rec::RecorderOptions& o) {
  if (!comm::active()) return;
  o.run_id = comm::broadcast(comm::rank() == 0 ? trace::new_run_id() : std::string());
  const comm::ClockOffset offset = comm::measure_clock_offset();
  const int64_t zero = comm::broadcast(comm::monotonic_ns());  // rank 0's clock
  o.zero_monotonic_ns = zero - offset.offset_ns;
  g_clock_offset = offset;
}

void record_clock_alignment() {
  if (!comm::active() || !rec::active()) return;
  rec::set_metadata("clock_alignment", {{"reference_rank", 0},
                                        {"offset_ns", g_clock_offset.offset_ns},
                                        {"uncertainty_ns", g_clock_offset.uncertainty_ns},
                                        {"method", "tightest of 64 MPI round trips to rank 0"}});
}

// The offset measured again at the end: how far the clocks drifted apart.
void record_clock_drift() {
  if (!comm::active()) return;
  const comm::ClockOffset end = comm::measure_clock_offset();
  if (rec::active()) {
    rec::set_metadata("clock_alignment_at_finish",
                      {{"offset_ns", end.offset_ns}, {"uncertainty_ns", end.uncertainty_ns}});
  }
}

}  // namespace

void fatal_exit(trace::ErrorKind kind, const std::string& text, trace::Uid op, uint32_t resource) {
  rec::fatal_error(kind, text, op, resource);
  std::fflush(nullptr);
  const Config& c = runtime().config;
  if (comm::size() == 1) {
    write_report(c);
  } else if (c.profile) {
    // The other ranks are still running (the launcher stops them now).
    std::fprintf(stderr,
                 "legate: rank %d of %d failed; the launcher stops the others, whose traces are "
                 "finished as they stop. Write the report with: legate_prof archive %s/%s_*.prof "
                 "-o %s/legate_prof\n",
                 comm::rank(), comm::size(), c.logdir.c_str(), c.profile_name.c_str(),
                 c.logdir.c_str());
  }
  std::_Exit(1);
}

std::string where_text(const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

const Provenance& provenance_of(const std::source_location& where) {
  struct Key {
    const char* file;
    uint_least32_t line;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.file) ^ (size_t{k.line} << 1);
    }
  };
  static std::mutex mu;
  static auto* table =
      new std::unordered_map<Key, std::unique_ptr<Provenance>, Hash>;  // for the process' life
  std::lock_guard lock(mu);
  auto& slot = (*table)[Key{where.file_name(), where.line()}];
  if (!slot) {
    const std::string text = where_text(where);
    slot = std::make_unique<Provenance>(Provenance{text, rec::intern(text)});
  }
  return *slot;
}

uint32_t RuntimeImpl::string(const std::string& s) const {
  return profiling ? rec::intern(s) : 0;
}

RuntimeImpl::RuntimeImpl(Config c) : config(std::move(c)), profiling(config.profile) {
  rec::select_tick_source();  // the same clock with or without a trace
  // Lanes: from the recorder when profiling, otherwise plain local ids.
  uint32_t local = 1;
  const auto lane = [&](trace::ProcKind kind, uint32_t index, const std::string& name) {
    return profiling ? rec::add_processor(kind, index, name) : trace::make_resource_id(0, local++);
  };
  io_lane = lane(trace::ProcKind::Io, 0, "io0");
  std::vector<uint32_t> cpu_lanes;
  for (int64_t i = 0; i < config.cpus; ++i)
    cpu_lanes.push_back(
        lane(trace::ProcKind::Cpu, static_cast<uint32_t>(i), "c" + std::to_string(i)));
  for (int64_t i = 0; i < config.utility; ++i)
    utility_lanes.push_back(
        lane(trace::ProcKind::Utility, static_cast<uint32_t>(i), "u" + std::to_string(i)));
  dp_lane = lane(trace::ProcKind::DepPart, 0, "dp0");
  const uint32_t sysmem_id =
      profiling ? rec::add_memory(trace::MemKind::System, config.sysmem_bytes(), "sysmem")
                : trace::make_resource_id(0, local++);
  sysmem_ = std::make_unique<MemoryPool>(sysmem_id, trace::MemKind::System, config.sysmem_bytes(),
                                         "sysmem");
  if (profiling) {
    rec::add_task_kind(kTopLevelTask, "TopLevelTask");
    rec::add_variant(kTopLevelTask, 1, trace::ProcKind::Io, "TopLevelTask");
  }
  for (size_t i = 0; i < cpu_lanes.size(); ++i)
    cpus_.push_back(std::make_unique<Worker>("legato-c" + std::to_string(i), cpu_lanes[i]));
  dp_ = std::make_unique<Worker>("legato-dp0", dp_lane);
  copy_ = std::make_unique<Worker>("legato-copy", 0);
  fill_ = std::make_unique<Worker>("legato-fill", 0);
  gpus_.start(
      config, profiling,
      [&](trace::ProcKind kind, uint32_t index, const std::string& name, uint32_t peer) {
        return profiling ? rec::add_processor(kind, index, name, peer)
                         : trace::make_resource_id(0, local++);
      },
      [&](trace::MemKind kind, uint64_t capacity, const std::string& name) {
        return profiling ? rec::add_memory(kind, capacity, name)
                         : trace::make_resource_id(0, local++);
      });
  // The channels copies and fills use, registered in a stable order.
  channel(*sysmem_, *sysmem_);
  fill_channel(*sysmem_);
  for (size_t g = 0; g < gpus_.count(); ++g) {
    MemoryPool& fb = *gpus_.at(g).fbmem;
    for (MemoryPool* host : {sysmem_.get(), gpus_.zcmem()}) {
      if (host == nullptr) continue;
      channel(*host, fb);
      channel(fb, *host);
    }
    channel(fb, fb);
    fill_channel(fb);
  }
  pipeline_.start(*this, utility_lanes);
  if (comm::size() > 1) start_network(sysmem_id);

  if (profiling) {
    // If the trace is finished before shutdown (out of memory, a crash),
    // the instances still alive go in with it.
    rec::add_finish_hook([this] { record_live_instances(); });
  }
  // The program itself is the top-level task, on the IO processor.
  rec::bind_thread(io_lane);
  top_uid = new_uid();
  top_start_tick_ = rec::now();
  if (profiling) {
    rec::record(trace::OperationRecord{top_uid, 0, trace::OpKind::Task, kTopLevelTask,
                                       rec::intern("TopLevelTask"), 0});
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
  GpuProcessor* g = gpus_.owner(src, dst);
  return g != nullptr ? *g->copier : *copy_;
}

Worker& RuntimeImpl::fill_worker(const MemoryPool& dst) {
  GpuProcessor* g = gpus_.owner(dst, dst);
  return g != nullptr ? *g->copier : *fill_;
}

uint32_t RuntimeImpl::channel(const MemoryPool& src, const MemoryPool& dst) {
  if (!profiling) return 0;
  std::lock_guard lock(channels_mu_);
  uint32_t& id = channels_[{src.id(), dst.id()}];
  if (id == 0)
    id = rec::add_channel(channel_kind(src, dst), src.id(), dst.id(),
                          src.name() + " to " + dst.name());
  return id;
}

uint32_t RuntimeImpl::fill_channel(const MemoryPool& dst) {
  if (!profiling) return 0;
  std::lock_guard lock(channels_mu_);
  uint32_t& id = fill_channels_[dst.id()];
  if (id == 0)
    id = rec::add_channel(trace::ChannelKind::Fill, dst.id(), dst.id(), "fill " + dst.name());
  return id;
}

bool RuntimeImpl::on_gpus(const Operation& op) const {
  if (gpus_.count() == 0 || op.kind != trace::OpKind::Task) return false;
  if (op.task_kind == nullptr || !op.task_kind->gpu) return false;
  return std::none_of(op.args.begin(), op.args.end(),
                      [](const StoreArg& a) { return a.privilege == Privilege::Reduce; });
}

void RuntimeImpl::start_network(uint32_t sysmem_id) {
  // Channels into this rank's memory, one per peer, named by node as the
  // report and viewer name nodes.
  const int me = comm::rank(), ranks = comm::size();
  std::vector<uint32_t> from(static_cast<size_t>(ranks), 0);
  uint32_t allreduce = 0;
  std::unique_ptr<GpuCollectives> collectives =
      gpus_.count() > 0 ? GpuCollectives::start(gpus_) : nullptr;
  if (profiling) {
    for (int p = 0; p < ranks; ++p) {
      if (p == me) continue;
      from[static_cast<size_t>(p)] = rec::add_channel(
          trace::ChannelKind::Network, sysmem_id, sysmem_id,
          "node " + std::to_string(p) + " sysmem to node " + std::to_string(me) + " sysmem");
    }
    const uint32_t memory = collectives ? collectives->memory_id() : sysmem_id;
    allreduce = rec::add_channel(
        trace::ChannelKind::Network, memory, memory,
        "all-reduce over " + std::to_string(ranks) + " nodes" +
            (collectives ? " (" + collectives->description() + ")" : std::string()));
  }
  network_.start(std::move(from), allreduce, std::move(collectives));
}

void RuntimeImpl::submit(std::shared_ptr<Operation> op) {
  const uint64_t window = static_cast<uint64_t>(config.window_size);
  bool full;
  {
    std::lock_guard lock(window_mu_);
    full = submitted_ - completed_ >= window;
  }
  // A full window: wait until a quarter of it has drained, then run ahead again.
  if (full) wait_for_outstanding(window - window / 4);
  {
    std::lock_guard lock(window_mu_);
    ++submitted_;
  }
  op->submit_tick = rec::now();
  op->mapping_uid = new_uid();
  if (profiling) {
    rec::record(trace::OperationRecord{
        op->uid, top_uid, op->kind, op->kind == trace::OpKind::Task ? op->task : 0, op->name_string,
        config.provenance ? op->where->string_id : 0});
  }
  pipeline_.submit(std::move(op));
}

void RuntimeImpl::wait(const std::function<bool()>& done, std::condition_variable& cv,
                       std::mutex& mu,
                       const std::function<std::pair<trace::Uid, uint64_t>()>& event) {
  const uint64_t start = rec::now();
  std::pair<trace::Uid, uint64_t> ev;
  {
    std::unique_lock lock(mu);
    cv.wait(lock, done);
    ev = event();
  }
  const uint64_t end = std::max(rec::now(), start);
  const uint64_t ready = std::clamp(ev.second, start, end);
  if (profiling) rec::record(trace::WaitRecord{top_uid, t(start), t(ready), t(end), ev.first});
}

void RuntimeImpl::wait_for_outstanding(uint64_t at_most) {
  {
    std::lock_guard lock(window_mu_);
    resume_at_ = at_most;
    top_waiting_ = true;
  }
  wait([&] { return submitted_ - completed_ <= resume_at_; }, window_cv_, window_mu_,
       [&] {
         return std::pair{last_completed_item_, resumable_tick_};
       });
  std::lock_guard lock(window_mu_);
  top_waiting_ = false;
}

void RuntimeImpl::fence() {
  wait_for_outstanding(0);
}

void RuntimeImpl::item_finished(Operation& op) {
  if (op.outstanding.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  bool wake;
  {
    std::lock_guard lock(window_mu_);
    ++completed_;
    last_completed_item_ = op.uid;
    // Wake the top level only when what it waits for has come.
    wake = top_waiting_ && submitted_ - completed_ <= resume_at_;
    if (wake) resumable_tick_ = rec::now();
  }
  if (wake) window_cv_.notify_all();
}

void RuntimeImpl::store_released(const std::shared_ptr<StoreImpl>& store) {
  auto op = runtime_op(*this, trace::OpKind::Collect, store->where);
  op->collected = store;
  submit(std::move(op));
}

void RuntimeImpl::release_instances(StoreImpl& store) {
  std::vector<std::unique_ptr<Instance>> instances;
  {
    std::lock_guard lock(instances_mu);
    store.clear_instances(instances);
  }
  const uint64_t now = rec::now();
  for (auto& inst : instances) {
    record_instance(*inst, now, 0);
    inst->memory->release(*inst);
  }
  store.valid.clear();
  store.access.clear();
  std::lock_guard lock(stores_mu);
  live_stores.erase(&store);
}

void RuntimeImpl::release_instance(StoreImpl& store, Instance* inst) {
  std::unique_ptr<Instance> taken;
  {
    std::lock_guard lock(instances_mu);
    if (!store.take_instance(inst, taken)) return;
  }
  record_instance(*taken, rec::now(), 0);
  taken->memory->release(*taken);
}

void RuntimeImpl::record_live_instances() {
  const uint64_t now = rec::now();
  std::lock_guard lock(instances_mu);
  std::lock_guard stores_lock(stores_mu);
  for (const StoreImpl* s : live_stores) {
    for (const auto& inst : s->instances) record_instance(*inst, now, trace::kInstanceAliveAtEnd);
  }
}

void RuntimeImpl::shutdown() {
  fence();
  // Stores the program still holds: their instances go now.
  std::vector<StoreImpl*> stores;
  {
    std::lock_guard lock(stores_mu);
    stores.assign(live_stores.begin(), live_stores.end());
  }
  for (StoreImpl* s : stores) release_instances(*s);
  pipeline_.stop();
  network_.stop();
  cpus_.clear();
  dp_.reset();
  copy_.reset();
  fill_.reset();
  gpus_.stop();
  record_top_level_task();
}

void RuntimeImpl::record_top_level_task() {
  if (!profiling) return;
  const uint64_t stop = rec::now();
  rec::record(trace::TaskRecord{top_uid, 0, io_lane, kTopLevelTask, 1, t(top_start_tick_), t(stop),
                                t(top_start_tick_), t(top_start_tick_)});
}

// --- public lifecycle ---

void start() {
  std::lock_guard life(g_lifecycle);
  if (g_runtime != nullptr) return;
  Config c;
  try {
    const char* env = std::getenv("LEGATE_CONFIG");
    c = parse_config(split_config(env ? env : ""), detect_machine());
  } catch (const ConfigError& e) {
    config_error(e.what());
  }
  if (c.help) {
    if (launch_rank() == 0) std::fputs(config_help().c_str(), stdout);
    std::exit(0);
  }
  if (c.show_config && launch_rank() == 0) {
    std::fputs(c.summary().c_str(), stdout);
    std::fflush(stdout);
  }
  try {
    comm::init();
  } catch (const std::runtime_error& e) {
    config_error(std::string("cannot start MPI for the run's ranks: ") + e.what(), false);
  }
  check_ranks(c);
  rec::RecorderOptions options = recorder_options(c);
  join_ranks(options);  // collective: every rank, profiling or not
  if (c.profile) {
    try {
      rec::start(options);
    } catch (const rec::RecorderError& e) {
      config_error(e.what(), false);
    }
    record_clock_alignment();
  }
  try {
    g_runtime = new RuntimeImpl(c);
  } catch (const std::runtime_error& e) {
    rec::finish();
    config_error(e.what(), false);
  }
  g_last_config = c;
  ++g_epoch;
  static const bool at_exit = [] {
    std::atexit([] { finish(); });
    return true;
  }();
  (void)at_exit;
}

void finish() {
  std::lock_guard life(g_lifecycle);
  if (g_runtime == nullptr) return;
  g_runtime->shutdown();
  record_clock_drift();
  rec::finish();  // its finish hook still sees the runtime
  const Config c = g_runtime->config;
  delete g_runtime;
  g_runtime = nullptr;
  comm::barrier();  // every rank's file is finished
  write_report(c);
  comm::finalize();
}

bool running() {
  return g_runtime != nullptr;
}

uint64_t epoch() {
  std::lock_guard lock(g_lifecycle);
  return g_epoch;
}

const Config& config() {
  return g_runtime != nullptr ? g_runtime->config : g_last_config;
}

}  // namespace legato::rt
