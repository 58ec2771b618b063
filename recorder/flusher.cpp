// The flusher thread: drains every thread's buffers, converts ticks to
// nanoseconds, defines the strings records use, writes frames at least every
// flush interval, and finishes the file (also after a crash).
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "recorder/recorder_impl.hpp"

namespace legato::rec::detail {
namespace {

class Flusher {
 public:
  explicit Flusher(RecorderImpl& r) : r_(r), clock_(*r.clock) {}

  void run() {
    for (;;) {
      pollfd pfd{r_.wake_fd, POLLIN, 0};
      ::poll(&pfd, 1, r_.options.flush_interval_ms);
      uint64_t ignored;
      [[maybe_unused]] ssize_t n = ::read(r_.wake_fd, &ignored, sizeof ignored);
      const int crash = r_.crash_signal.load();
      bool stop;
      {
        std::lock_guard lock(r_.mu);
        stop = r_.stopping;
      }
      if (crash != 0 || stop) {
        last_cycle(crash);
        return;
      }
      cycle(false);
    }
  }

 private:
  using Handler = void (Flusher::*)(const uint64_t*);

  void cycle(bool last) {
    const Tick t0 = now();
    // A calibration point every few ms is plenty; under load cycles come faster.
    const int64_t mono = monotonic_ns();
    if (last || mono - last_calibration_ns_ >= kCalibrationIntervalNs) {
      clock_.calibrate();
      last_calibration_ns_ = mono;
    }
    uint64_t drained = 0;
    std::vector<ThreadLog*> logs;
    {
      std::lock_guard lock(r_.mu);
      for (auto& log : r_.logs) logs.push_back(log.get());
    }
    write_metadata(false);
    for (ThreadLog* log : logs) drained += drain(*log);
    write_descriptors();
    if (drained > 0) {
      // This cycle's own work, on the profiler lane: it shows in every trace.
      static const uint32_t kFlushName = intern("Recorder flush");
      const trace::Time start = clock_.to_ns(t0), stop = clock_.to_ns(now());
      add_ns(trace::MetaTaskRecord{new_uid(), r_.profiler_lane, kFlushName, 0, start, stop, start,
                                   start});
    }
    const int64_t now_ns = clock_.to_ns(now());
    if (last || now_ns - last_frame_ns_ >= int64_t{r_.options.flush_interval_ms} * 1'000'000) {
      add_stats(now_ns);
      guarded([&] { r_.writer->flush(); });
      last_frame_ns_ = now_ns;
    }
    r_.frames = r_.writer->frames_written();
    r_.bytes = r_.writer->bytes_written();
    std::lock_guard lock(r_.mu);
    std::erase_if(r_.logs, [&](const std::unique_ptr<ThreadLog>& log) {
      const bool done = log->exited && log->full.empty() && log->current == nullptr;
      if (done) {
        r_.retired_dropped += log->dropped;
        r_.retired_wait_ticks += log->wait_ticks;
      }
      return done;
    });
  }

  void last_cycle(int crash) {
    if (crash != 0) {
      std::vector<std::function<void()>> hooks;
      {
        std::lock_guard lock(r_.mu);
        hooks = r_.finish_hooks;
      }
      for (auto& hook : hooks) hook();
    }
    {
      std::lock_guard lock(r_.mu);
      r_.stopping = true;
    }
    g_generation.store(0);
    r_.buffer_freed.notify_all();
    cycle(true);
    if (crash != 0) {
      const std::string text = "the process received signal " + std::to_string(crash) + " (" +
                               sigabbrev(crash) + ": " + strsignal_safe(crash) + ")";
      add_ns(trace::ErrorRecord{clock_.to_ns(Tick{r_.crash_tick.load()}), trace::ErrorKind::Signal,
                                0, trace::kNoResource, string_id(text)});
    }
    write_metadata(true);
    add_stats(clock_.to_ns(now()));
    guarded([&] { r_.writer->finish(); });
    r_.frames = r_.writer->frames_written();
    r_.bytes = r_.writer->bytes_written();
    release_all();
    if (crash != 0) report_signal(crash);
    // A signal handler waiting on this (one arrived while the run was
    // finishing normally, or a crash) may proceed.
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(r_.done_fd, &one, sizeof one);
  }

  // Says which rank a signal stopped, that its trace is finished, and how to
  // make the report the run did not get to write.
  void report_signal(int sig) {
    std::string line = "legato: rank " + std::to_string(r_.options.rank) + " stopped by signal " +
                       std::to_string(sig) + " (" + sigabbrev(sig) + ": " + strsignal_safe(sig) +
                       "); its trace " + r_.path + " is finished";
    if (sig == SIGTERM && r_.options.ranks > 1)
      line += " (a launcher stops every rank once one has failed: the first failure is above)";
    if (!r_.options.report_command.empty())
      line += "\nlegato: write the profile report with: " + r_.options.report_command;
    line += "\n";
    [[maybe_unused]] const ssize_t w = ::write(2, line.data(), line.size());
  }

  static std::string sigabbrev(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal";
  }
  static std::string strsignal_safe(int sig) {
    const char* d = sigdescr_np(sig);
    return d ? d : "unknown";
  }

  // Everything committed by one thread since the last cycle, in order.
  uint64_t drain(ThreadLog& log) {
    std::deque<Buffer*> full;
    Buffer* current;
    {
      std::lock_guard lock(r_.mu);
      full.swap(log.full);
      current = log.current;
    }
    uint64_t n = 0;
    for (Buffer* b : full) {
      const uint64_t begin = b == log.reading ? log.read_pos : 0;
      n += decode(b->words.get(), begin, b->committed.load(std::memory_order_acquire));
      if (b == log.reading) log.reading = nullptr;
    }
    if (current != nullptr) {
      const uint64_t begin = current == log.reading ? log.read_pos : 0;
      const uint64_t end = current->committed.load(std::memory_order_acquire);
      n += decode(current->words.get(), begin, end);
      log.reading = current;
      log.read_pos = end;
    }
    if (!full.empty()) release(full);
    return n;
  }

  void release(const std::deque<Buffer*>& buffers) {
    {
      std::lock_guard lock(r_.mu);
      std::lock_guard pool(pool_mutex());
      for (Buffer* b : buffers) free_buffers().push_back(b);
      r_.buffers_in_use -= buffers.size();
    }
    r_.buffer_freed.notify_all();
  }

  // After the last cycle: every buffer goes back to the process-wide pool.
  void release_all() {
    std::deque<Buffer*> all;
    {
      std::lock_guard lock(r_.mu);
      for (auto& log : r_.logs) {
        for (Buffer* b : log->full) all.push_back(b);
        if (log->current != nullptr) all.push_back(log->current);
        log->full.clear();
        log->current = nullptr;
      }
    }
    release(all);
  }

  uint64_t decode(const uint64_t* words, uint64_t begin, uint64_t end) {
    static const std::array<Handler, 64> handlers = make_handlers();
    uint64_t n = 0;
    for (uint64_t i = begin; i < end;) {
      const uint64_t header = words[i];
      const uint64_t kind = header & 0xffff, size = (header >> 16) & 0xffff;
      if (size == 0 || i + size > end || kind >= handlers.size() || handlers[kind] == nullptr) {
        std::fprintf(stderr, "legato: internal error: bad recorder event header %llx\n",
                     static_cast<unsigned long long>(header));
        break;
      }
      (this->*handlers[kind])(words + i + 1);
      i += size;
      ++n;
    }
    return n;
  }

  static std::array<Handler, 64> make_handlers() {
    std::array<Handler, 64> h{};
    trace::for_each_record_type([&](auto t) {
      using R = typename decltype(t)::type;
      if constexpr (std::is_trivially_copyable_v<R>) {
        h[static_cast<size_t>(R::kKind)] = &Flusher::from_ticks<R>;
      }
    });
    return h;
  }

  template <class R>
  void from_ticks(const uint64_t* payload) {
    R r;
    std::memcpy(static_cast<void*>(&r), payload, sizeof r);
    trace::for_each_field<R>([&](const auto& f, auto) {
      using M = typename std::remove_cvref_t<decltype(f)>::member_type;
      if constexpr (std::is_same_v<M, trace::Time>) {
        if (f.role == trace::Role::Time)
          r.*(f.member) = clock_.to_ns(Tick{static_cast<uint64_t>(r.*(f.member))});
      }
    });
    add_ns(r);
  }

  // Writes a record whose times are already in ns, defining its strings first.
  template <class R>
  void add_ns(const R& r) {
    if (state_ == State::Stopped) {
      ++r_.lost;
      return;
    }
    trace::for_each_field<R>([&](const auto& f, auto) {
      using M = typename std::remove_cvref_t<decltype(f)>::member_type;
      if constexpr (std::is_same_v<M, uint32_t>) {
        if (f.role == trace::Role::String) define(r.*(f.member));
      }
    });
    guarded([&] { r_.writer->add(r); });
    ++r_.records_written;
  }

  void define(uint32_t id) {
    if (id == 0) return;
    if (id >= defined_.size()) defined_.resize(id + 1024, false);
    if (defined_[id]) return;
    defined_[id] = true;
    guarded([&] { r_.writer->add(trace::StringRecord{id, string_text(id)}); });
  }

  uint32_t string_id(const std::string& text) { return intern(text); }

  void write_descriptors() {
    trace::RecordBatch pending;
    {
      std::lock_guard lock(r_.mu);
      std::swap(pending, r_.pending);
    }
    pending.for_each_kind([&](const auto& records) {
      for (const auto& rec : records) add_ns(rec);
    });
  }

  void write_metadata(bool final) {
    nlohmann::json meta;
    {
      std::lock_guard lock(r_.mu);
      meta.swap(r_.pending_metadata);
    }
    if (!meta.is_object()) meta = nlohmann::json::object();
    if (final) meta["clock"] = clock_.metadata(r_.zero_unix_ns);
    if (meta.empty() || state_ == State::Stopped) return;
    guarded([&] { r_.writer->write_metadata(meta); });
  }

  void add_stats(int64_t now_ns) {
    uint64_t dropped = r_.lost.load(), wait_ticks = 0;
    {
      std::lock_guard lock(r_.mu);
      dropped += r_.retired_dropped;
      wait_ticks += r_.retired_wait_ticks;
      for (const auto& log : r_.logs) {
        dropped += log->dropped;
        wait_ticks += log->wait_ticks;
      }
    }
    const auto wait_ns =
        static_cast<int64_t>(static_cast<double>(wait_ticks) * clock_.ns_per_tick());
    r_.wait_ns = static_cast<uint64_t>(wait_ns);
    add_ns(trace::RecorderStatsRecord{now_ns, r_.records_written.load() + 1, dropped,
                                      r_.writer->frames_written(), r_.writer->bytes_written(),
                                      static_cast<uint64_t>(wait_ns)});
  }

  // Runs a writer call. The first failure stops recording (the program goes
  // on); while the file is being finished early, failures go to the caller.
  template <class F>
  void guarded(F&& f) {
    if (state_ == State::Stopped) return;
    if (state_ == State::Closing) return f();
    try {
      f();
    } catch (const trace::TraceError& e) {
      stop_recording(e);
    }
  }

  // Stops recording after a failed write. A full disk still leaves a
  // finished file (finish_early); any other failure leaves the frames before.
  void stop_recording(const trace::TraceError& e) {
    {
      std::lock_guard lock(r_.mu);
      r_.failed = true;
    }
    g_generation.store(0);
    r_.buffer_freed.notify_all();
    const int64_t at = clock_.to_ns(now());
    const bool finished = e.no_space() && finish_early(e.what(), at);
    state_ = State::Stopped;
    std::fprintf(stderr,
                 "legato: warning: profiling stopped %.3f s into the run: %s. %s The program "
                 "continues unrecorded.\n",
                 static_cast<double>(at) / 1e9, e.what(),
                 finished ? "The trace is finished at that point, where a warning in it marks "
                            "the gap."
                          : "The trace has no footer: readers load every frame written before.");
  }

  // Finishes the file after the disk filled up, in the writer's reserve: a
  // warning record where recording stopped, the final metadata and
  // statistics, and the footer. False when even that could not be written.
  bool finish_early(const std::string& why, int64_t at) {
    state_ = State::Closing;
    try {
      add_ns(trace::ErrorRecord{
          at, trace::ErrorKind::Warning, 0, trace::kNoResource,
          string_id("recording stopped here: " + why + "; nothing after this point was recorded")});
      add_stats(at);
      nlohmann::json meta = {{"clock", clock_.metadata(r_.zero_unix_ns)},
                             {"recording", {{"stopped_at_ns", at}, {"reason", why}}}};
      r_.writer->write_metadata(meta);
      r_.writer->finish();
    } catch (const trace::TraceError&) {
      state_ = State::Stopped;
      return false;
    }
    r_.frames = r_.writer->frames_written();
    r_.bytes = r_.writer->bytes_written();
    state_ = State::Stopped;
    return true;
  }

  RecorderImpl& r_;
  TickConverter& clock_;
  std::vector<bool> defined_;
  int64_t last_frame_ns_ = 0;
  static constexpr int64_t kCalibrationIntervalNs = 5'000'000;
  int64_t last_calibration_ns_ = 0;
  enum class State { Recording, Closing, Stopped };
  State state_ = State::Recording;
};

}  // namespace

void RecorderImpl::flusher_main() {
  flusher_tid = static_cast<int>(::gettid());
  pthread_setname_np(pthread_self(), "legato-flush");
  Flusher(*this).run();
  flusher_done = true;
  // A signal from outside that stopped the run (also one that arrived while
  // it was finishing) goes on now that the file is finished.
  if (const int sig = crash_signal.load(); sig != 0 && !is_crash_signal(sig)) end_with_signal(sig);
}

void RecorderImpl::request_stop() {
  std::vector<std::function<void()>> hooks;
  {
    std::lock_guard lock(mu);
    hooks = finish_hooks;
  }
  for (auto& hook : hooks) hook();  // while recording is still on
  {
    std::lock_guard lock(mu);
    stopping = true;
  }
  g_generation.store(0);
  buffer_freed.notify_all();
  wake_flusher();
}

}  // namespace legato::rec::detail
