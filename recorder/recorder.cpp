#include <fcntl.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "recorder/recorder_impl.hpp"
#include "trace_format/metadata.hpp"

namespace legato::rec {
namespace detail {

std::atomic<RecorderImpl*> g_recorder{nullptr};

namespace {

std::mutex g_lifecycle;  // start / finish
// Disk kept allocated past the trace's end: the last frames and the footer
// of a run whose disk fills up.
constexpr size_t kReserveBytes = 256 << 10;
uint32_t g_last_generation = 0;

struct StringTable {
  std::mutex mu;
  std::unordered_map<std::string, uint32_t> ids;
  std::vector<std::string> texts{""};  // id 0 is the empty string
};
StringTable& strings() {
  static auto* table = new StringTable;  // never destroyed: usable during exit
  return *table;
}

// Marks this thread's log as exited when the thread ends.
struct ThreadExit {
  ~ThreadExit() {
    Producer& p = tl_producer;
    RecorderImpl* r = g_recorder.load();
    if (r != nullptr && p.generation == r->generation && log != nullptr) {
      std::lock_guard lock(r->mu);
      r->hand_over(*log);
      log->exited = true;
    }
    p.cap = 0;
    p.pos = 0;
    p.generation = 0;
    dead = true;
  }
  ThreadLog* log = nullptr;
  bool dead = false;
};
thread_local ThreadExit tl_exit;

std::string thread_name() {
  char buf[32] = {};
  pthread_getname_np(pthread_self(), buf, sizeof buf);
  return buf;
}

// The program and its arguments, from /proc/self/cmdline.
std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> parts;
  std::string part;
  while (std::getline(in, part, '\0')) parts.push_back(part);
  return parts;
}

int64_t unix_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RecorderImpl& running() {
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr)
    throw RecorderError("the recorder is not running: call legato::rec::start first");
  return *r;
}

}  // namespace

std::mutex& pool_mutex() {
  static auto* mu = new std::mutex;
  return *mu;
}

std::vector<Buffer*>& free_buffers() {
  static auto* pool = new std::vector<Buffer*>;
  return *pool;
}

Buffer* allocate_buffer(uint32_t words) {
  auto* b = new Buffer;
  b->words = std::make_unique<uint64_t[]>(words);
  b->cap = words;
  return b;
}

std::string string_text(uint32_t id) {
  StringTable& t = strings();
  std::lock_guard lock(t.mu);
  return id < t.texts.size() ? t.texts[id] : std::string();
}

RecorderImpl::RecorderImpl(const RecorderOptions& o, uint32_t gen) : options(o), generation(gen) {}

void RecorderImpl::wake_flusher() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_fd, &one, sizeof one);
}

void RecorderImpl::hand_over(ThreadLog& log) {
  if (log.current == nullptr) return;
  log.full.push_back(log.current);
  log.current = nullptr;
  wake_flusher();
}

Buffer* RecorderImpl::take_buffer(std::unique_lock<std::mutex>& lock, ThreadLog& log,
                                  uint64_t& waited) {
  const uint32_t words = static_cast<uint32_t>(options.buffer_bytes / 8);
  waited = 0;
  Tick wait_start{};
  while (!stopping && !failed && buffers_in_use >= options.max_buffers) {
    if (options.drop_when_full) return nullptr;
    if (wait_start.count == 0) wait_start = now();
    buffer_freed.wait(lock);
  }
  if (wait_start.count != 0) waited = now() - wait_start;
  if (stopping || failed) return nullptr;
  Buffer* b = nullptr;
  {
    std::lock_guard pool(pool_mutex());
    auto& free = free_buffers();
    for (auto it = free.begin(); it != free.end(); ++it) {
      if ((*it)->cap == words) {
        b = *it;
        free.erase(it);
        break;
      }
    }
  }
  if (b == nullptr) b = allocate_buffer(words);
  b->committed.store(0, std::memory_order_relaxed);
  ++buffers_in_use;
  (void)log;
  return b;
}

uint32_t RecorderImpl::lane_for(ThreadLog& log) {
  const uint32_t id = trace::make_resource_id(options.rank, next_resource++);
  const std::string name = log.name.empty() ? "thread " + std::to_string(log.tid) : log.name;
  pending.get<trace::ProcessorRecord>().push_back(
      {id, trace::ProcKind::Thread, next_thread_lane++, intern(name), trace::kNoResource});
  return id;
}

uint64_t* reserve_slow(uint32_t words) {
  Producer& p = tl_producer;
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr || tl_exit.dead || words > r->options.buffer_bytes / 8) return nullptr;
  std::unique_lock lock(r->mu);
  if (r->stopping || r->failed) return nullptr;
  ThreadLog* log = tl_exit.log;
  if (p.generation != r->generation || log == nullptr) {
    r->logs.push_back(std::make_unique<ThreadLog>());
    log = r->logs.back().get();
    log->tid = static_cast<int>(::gettid());
    log->name = thread_name();
    tl_exit.log = log;
    p.generation = r->generation;
  }
  r->hand_over(*log);
  uint64_t waited = 0;
  Buffer* b = r->take_buffer(lock, *log, waited);
  if (b == nullptr) {
    ++log->dropped;
    p.cap = p.pos = 0;
    return nullptr;
  }
  log->current = b;
  p.base = b->words.get();
  p.committed = &b->committed;
  p.pos = 0;
  p.cap = b->cap;
  if (waited > 0) {
    // The wait is recorded as a range on this thread's lane, first in the new buffer.
    log->wait_ticks += waited;
    if (p.lane_generation != r->generation) {
      p.lane = r->lane_for(*log);
      p.lane_generation = r->generation;
    }
    static const uint32_t kWaitName = intern("Recorder: waiting for a free buffer");
    const Tick end = now();
    const trace::UserRangeRecord wait{p.lane, kWaitName, 0, stamp(Tick{end.count - waited}),
                                      stamp(end)};
    constexpr uint32_t kWords = 1 + (sizeof wait + 7) / 8;
    p.base[0] = event_header(trace::RecordKind::UserRange, kWords);
    std::memcpy(p.base + 1, &wait, sizeof wait);
    p.pos = kWords;
    p.committed->store(p.pos, std::memory_order_release);
  }
  return p.base + p.pos;
}

uint32_t thread_lane_slow() {
  Producer& p = tl_producer;
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr) return 0;
  std::lock_guard lock(r->mu);
  ThreadLog tmp;
  tmp.tid = static_cast<int>(::gettid());
  tmp.name = thread_name();
  p.lane = r->lane_for(tmp);
  p.lane_generation = r->generation;
  return p.lane;
}

}  // namespace detail

using namespace detail;

void start(const RecorderOptions& options) {
  std::lock_guard life(g_lifecycle);
  if (g_recorder.load() != nullptr) {
    throw RecorderError("the recorder is already running (writing " + g_recorder.load()->path +
                        ")");
  }
  if (const std::string problem = options.validate(); !problem.empty())
    throw RecorderError(problem);
  std::error_code ec;
  std::filesystem::create_directories(options.logdir.empty() ? "." : options.logdir, ec);
  if (ec) {
    throw RecorderError("cannot create the log directory '" + options.logdir +
                        "': " + ec.message() + "; pass --logdir with a writable directory");
  }
  select_tick_source();
  // Kept for the life of the process: a producer racing with finish() may still touch it.
  static auto* all_recorders = new std::vector<std::unique_ptr<RecorderImpl>>;
  all_recorders->push_back(std::make_unique<RecorderImpl>(options, ++g_last_generation));
  RecorderImpl* r = all_recorders->back().get();
  r->path = options.trace_path();
  r->clock = std::make_unique<TickConverter>(g_tick_source, options.reference_offset_ns,
                                             options.zero_monotonic_ns);
  r->zero_unix_ns = unix_ns();
  r->wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  r->done_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (r->wake_fd < 0 || r->done_fd < 0)
    throw RecorderError(std::string("cannot create an eventfd: ") + std::strerror(errno));

  trace::RunInfo run;
  run.id = options.run_id.empty() ? trace::new_run_id() : options.run_id;
  run.rank = options.rank;
  run.ranks = options.ranks;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  run.host = host;
  run.pid = ::getpid();
  std::vector<std::string> cmd = command_line();
  if (!cmd.empty()) {
    run.program = cmd.front();
    run.args.assign(cmd.begin() + 1, cmd.end());
  }
  run.start_unix_ns = r->zero_unix_ns;
  nlohmann::json first = {{"run", run.to_json()},
                          {"config", options.config},
                          {"clock", r->clock->metadata(r->zero_unix_ns)},
                          {"recorder",
                           {{"buffer_bytes", options.buffer_bytes},
                            {"max_buffers", options.max_buffers},
                            {"drop_when_full", options.drop_when_full},
                            {"flush_interval_ms", options.flush_interval_ms}}}};
  if (options.reference_uncertainty_ns != 0) {
    first["clock_alignment"] = {{"offset_ns", options.reference_offset_ns},
                                {"uncertainty_ns", options.reference_uncertainty_ns}};
  }
  // The file holds who wrote it from the start: a run killed before its
  // first flush still says which run, program and configuration it was.
  try {
    r->writer = std::make_unique<trace::TraceWriter>(r->path,
                                                     trace::WriterOptions{
                                                         .zstd_level = options.zstd_level,
                                                         .chunk_bytes = 1 << 20,
                                                         .reserve_bytes = kReserveBytes,
                                                         .compress = true,
                                                     },
                                                     &first);
  } catch (const trace::TraceError& e) {
    ::close(r->wake_fd);
    ::close(r->done_fd);
    if (e.code() == EBUSY) throw RecorderError(e.what(), RecorderError::Cause::Busy);
    if (e.no_space()) throw RecorderError(e.what(), RecorderError::Cause::NoSpace);
    if (e.not_a_file()) throw RecorderError(e.what(), RecorderError::Cause::NotAFile);
    throw RecorderError(std::string(e.what()) + " (pass --logdir with a writable directory)");
  }
  r->profiler_lane = trace::make_resource_id(options.rank, r->next_resource++);
  r->pending.get<trace::ProcessorRecord>().push_back(
      {r->profiler_lane, trace::ProcKind::Profiler, 0, intern("recorder"), trace::kNoResource});

  set_uid_rank(options.rank);
  g_recorder.store(r);
  {
    // The flusher never takes the signals that end the run: it is the thread
    // that finishes the file when one arrives.
    const BlockedSignals blocked;
    r->flusher = std::thread([r] { r->flusher_main(); });
  }
  if (options.crash_handlers) install_crash_handlers();
  static const bool registered = [] {
    std::atexit([] { finish(); });
    pthread_atfork(nullptr, nullptr, [] {
      // The child has no flusher: it records nothing and leaves the file
      // alone, and lets go of its copy of the file (which would otherwise
      // keep the file held, refusing later runs, for as long as it lives).
      g_generation.store(0);
      if (RecorderImpl* r = g_recorder.exchange(nullptr); r != nullptr && r->writer)
        r->writer->close_in_fork();
    });
    return true;
  }();
  (void)registered;
  g_generation.store(r->generation);
}

void finish() {
  std::lock_guard life(g_lifecycle);
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr) return;
  r->request_stop();
  if (r->flusher.joinable()) r->flusher.join();
  remove_crash_handlers();
  g_recorder.store(nullptr);
  ::close(r->wake_fd);
  ::close(r->done_fd);
}

std::string trace_path() {
  RecorderImpl* r = g_recorder.load();
  return r == nullptr ? std::string() : r->path;
}

uint32_t intern(std::string_view text) {
  if (text.empty()) return 0;
  StringTable& t = strings();
  std::lock_guard lock(t.mu);
  auto [it, inserted] = t.ids.try_emplace(std::string(text), static_cast<uint32_t>(t.texts.size()));
  if (inserted) t.texts.push_back(it->first);
  return it->second;
}

namespace {
// Gives a new resource its run-wide id and queues its descriptor (built by
// make(id, name id)) for the next frame.
template <class R, class Make>
uint32_t add_resource(std::string_view name, Make&& make) {
  RecorderImpl& r = running();
  const uint32_t name_id = intern(name);
  std::lock_guard lock(r.mu);
  const uint32_t id = trace::make_resource_id(r.options.rank, r.next_resource++);
  r.pending.get<R>().push_back(make(id, name_id));
  return id;
}
}  // namespace

uint32_t add_processor(trace::ProcKind kind, uint32_t index, std::string_view name, uint32_t peer) {
  return add_resource<trace::ProcessorRecord>(name, [&](uint32_t id, uint32_t name_id) {
    return trace::ProcessorRecord{id, kind, index, name_id, peer};
  });
}

uint32_t add_memory(trace::MemKind kind, uint64_t capacity, std::string_view name) {
  return add_resource<trace::MemoryRecord>(name, [&](uint32_t id, uint32_t name_id) {
    return trace::MemoryRecord{id, kind, capacity, name_id};
  });
}

uint32_t add_channel(trace::ChannelKind kind, uint32_t src, uint32_t dst, std::string_view name) {
  return add_resource<trace::ChannelRecord>(name, [&](uint32_t id, uint32_t name_id) {
    return trace::ChannelRecord{id, kind, src, dst, name_id};
  });
}

void add_task_kind(uint32_t id, std::string_view name) {
  RecorderImpl& r = running();
  const uint32_t name_id = intern(name);
  std::lock_guard lock(r.mu);
  r.pending.get<trace::TaskKindRecord>().push_back({id, name_id});
}

void add_variant(uint32_t task_kind, uint32_t id, trace::ProcKind kind, std::string_view name) {
  RecorderImpl& r = running();
  const uint32_t name_id = intern(name);
  std::lock_guard lock(r.mu);
  r.pending.get<trace::VariantRecord>().push_back({task_kind, id, kind, name_id});
}

void set_metadata(const std::string& key, const nlohmann::json& value) {
  RecorderImpl& r = running();
  std::lock_guard lock(r.mu);
  r.pending_metadata[key] = value;
}

namespace {
std::atomic<uint64_t> g_next_uid{1};
std::atomic<uint32_t> g_uid_rank{0};
}  // namespace

trace::Uid new_uid() {
  // Each thread takes uids from a block of its own, so threads do not fight
  // over one counter.
  constexpr uint64_t kBlock = 1024;
  thread_local uint64_t next = 0, end = 0;
  if (next == end) {
    next = g_next_uid.fetch_add(kBlock, std::memory_order_relaxed);
    end = next + kBlock;
  }
  return trace::make_uid(g_uid_rank.load(std::memory_order_relaxed), next++);
}

void set_uid_rank(uint32_t rank) {
  g_uid_rank.store(rank);
}

void bind_thread(uint32_t processor) {
  Producer& p = tl_producer;
  p.lane = processor;
  p.lane_generation = g_generation.load();
}

void add_finish_hook(std::function<void()> hook) {
  RecorderImpl& r = running();
  std::lock_guard lock(r.mu);
  r.finish_hooks.push_back(std::move(hook));
}

void fatal_error(trace::ErrorKind kind, std::string_view text, trace::Uid op, uint32_t resource) {
  if (!active()) return;
  record(trace::ErrorRecord{stamp(now()), kind, op, resource, intern(text)});
  finish();
}

Stats stats() {
  Stats s;
  RecorderImpl* r = g_recorder.load();
  if (r == nullptr) return s;
  s.records = r->records_written.load();
  s.frames = r->frames.load();
  s.bytes = r->bytes.load();
  std::lock_guard lock(r->mu);
  s.dropped = r->lost.load() + r->retired_dropped;
  for (const auto& log : r->logs) s.dropped += log->dropped;
  s.wait_ns = r->wait_ns.load();
  return s;
}

}  // namespace legato::rec
