// Recorder internals shared by recorder.cpp, flusher.cpp and crash.cpp.
#pragma once

#include <signal.h>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "recorder/recorder.hpp"
#include "trace_format/record_batch.hpp"
#include "trace_format/writer.hpp"

namespace legato::rec::detail {

// One thread's events. Kept in a process-wide pool and never freed, so a
// producer that raced with finish() never writes to freed memory.
struct Buffer {
  std::unique_ptr<uint64_t[]> words;
  uint32_t cap = 0;                    // words
  std::atomic<uint64_t> committed{0};  // words written and published
};

// The buffers of one thread, consumed in order: full ones, then current.
struct ThreadLog {
  int tid = 0;
  std::string name;
  // Guarded by RecorderImpl::mu.
  Buffer* current = nullptr;
  std::deque<Buffer*> full;
  bool exited = false;
  uint64_t dropped = 0;
  uint64_t wait_ticks = 0;
  // Flusher only: how far the buffer being read was consumed.
  Buffer* reading = nullptr;
  uint64_t read_pos = 0;
};

class RecorderImpl {
 public:
  explicit RecorderImpl(const RecorderOptions& options, uint32_t generation);

  // Producer side (under mu).
  Buffer* take_buffer(std::unique_lock<std::mutex>& lock, ThreadLog& log, uint64_t& waited_ticks);
  void hand_over(ThreadLog& log);  // current -> full; wakes the flusher
  uint32_t lane_for(ThreadLog& log);
  void wake_flusher();

  // Flusher side (flusher.cpp).
  void flusher_main();
  void request_stop();

  RecorderOptions options;
  const uint32_t generation;
  std::string path;
  int64_t zero_unix_ns = 0;

  std::mutex mu;
  std::condition_variable buffer_freed;
  std::vector<std::unique_ptr<ThreadLog>> logs;
  size_t buffers_in_use = 0;
  trace::RecordBatch pending;  // descriptors for the next frame
  nlohmann::json pending_metadata = nlohmann::json::object();
  std::vector<std::function<void()>> finish_hooks;
  uint32_t next_resource = 1;
  uint32_t next_thread_lane = 0;
  bool stopping = false;
  bool failed = false;  // a write failed: recording stopped

  std::atomic<uint64_t> records_written{0}, frames{0}, bytes{0}, lost{0}, wait_ns{0};
  // Drops and waits of threads that exited (their logs are gone); under mu.
  uint64_t retired_dropped = 0, retired_wait_ticks = 0;
  uint32_t profiler_lane = 0;

  int wake_fd = -1;  // eventfd: producers, finish() and the crash handler wake the flusher
  int done_fd = -1;  // eventfd: the flusher tells the crash handler it is done
  std::atomic<int> crash_signal{0};
  std::atomic<uint64_t> crash_tick{0};
  std::atomic<int> flusher_tid{0};
  std::atomic<bool> flusher_done{false};  // the flusher finished the file and stopped
  std::thread flusher;
  std::unique_ptr<trace::TraceWriter> writer;
  // Taken in start(), before any event: its first point is the zero time.
  std::unique_ptr<TickConverter> clock;
};

// The running recorder (or nullptr); set in start, cleared in finish.
extern std::atomic<RecorderImpl*> g_recorder;

// Process-wide storage that outlives every recorder.
std::mutex& pool_mutex();
std::vector<Buffer*>& free_buffers();  // guarded by pool_mutex
Buffer* allocate_buffer(uint32_t words);
std::string string_text(uint32_t id);  // "" for unknown ids

// Catches the signals that end the process (crash.cpp), so the file is
// finished first; remove_crash_handlers() restores what was there.
void install_crash_handlers();
void remove_crash_handlers();
bool is_crash_signal(int sig);
// From the flusher, once the file is finished after a signal from outside:
// ends the process with that signal, under the program's disposition.
void end_with_signal(int sig);

// Blocks, in this thread, the signals that end the run from outside, for the
// object's lifetime (threads started meanwhile inherit the mask).
class BlockedSignals {
 public:
  BlockedSignals();
  ~BlockedSignals();
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace legato::rec::detail
