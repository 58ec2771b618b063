// The recorder: any thread records trace records (tasks, meta-tasks, copies,
// waits, instances, edges, ranges...) into a per-thread buffer; a background
// flusher converts times, encodes, compresses and appends frames to
// <logdir>/<name>_<rank>.prof as it goes, and finishes the file at the end,
// at exit, on fatal errors and on crashing signals.
//
//   legato::rec::start(options);                 // throws RecorderError
//   uint32_t name = legato::rec::intern("solve");
//   { legato::rec::ScopedRange r(name); ... }    // a range on this thread's lane
//   legato::rec::record(trace::TaskRecord{...}); // times as rec::now() ticks
//   legato::rec::finish();                       // also runs at exit
//
// The hot path (record, ScopedRange) takes no lock, allocates nothing and formats
// nothing: a clock read, a few stores into the thread's buffer, a release
// store of its fill level.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "recorder/clock.hpp"
#include "recorder/options.hpp"
#include "trace_format/records.hpp"

namespace legato::rec {

// Bad configuration or an unusable log directory; what() says what to do.
class RecorderError : public std::runtime_error {
 public:
  enum class Cause {
    Setup,     // a mistake in the options or the log directory
    NoSpace,   // the disk (or quota) is full: the program can run on unrecorded
    Busy,      // another run is still writing this trace file
    NotAFile,  // the trace's path holds a FIFO, a socket, a device or a directory:
               // the program can run on unrecorded
  };
  explicit RecorderError(const std::string& what, Cause cause = Cause::Setup)
      : std::runtime_error(what), cause_(cause) {}
  Cause cause() const { return cause_; }

 private:
  Cause cause_;
};

void start(const RecorderOptions& options);
// Writes everything recorded, the footer and the trailer. Idempotent.
void finish();
std::string trace_path();

// A string's id, stable for the life of the process (recorder or not); the
// flusher defines it in each trace that uses it. Takes a lock: intern each
// name once and keep the id.
uint32_t intern(std::string_view text);

// Registration of the run's resources: any thread, takes a lock.
uint32_t add_processor(trace::ProcKind kind, uint32_t index, std::string_view name,
                       uint32_t peer = trace::kNoResource);
uint32_t add_memory(trace::MemKind kind, uint64_t capacity, std::string_view name);
uint32_t add_channel(trace::ChannelKind kind, uint32_t src_memory, uint32_t dst_memory,
                     std::string_view name);
void add_task_kind(uint32_t id, std::string_view name);
void add_variant(uint32_t task_kind, uint32_t id, trace::ProcKind kind, std::string_view name);
// Replaces one top-level metadata key (written with the next frame).
void set_metadata(const std::string& key, const nlohmann::json& value);
// A uid unique in this process (recording or not): every item of a trace
// takes its uid from here, so runtime items and the recorder's own never
// collide. The rank goes in the high bits (set by start or set_uid_rank).
trace::Uid new_uid();
void set_uid_rank(uint32_t rank);
// Ranges recorded by the calling thread go to this processor's lane (by
// default each thread gets a lane of its own).
void bind_thread(uint32_t processor);
uint32_t thread_lane();
// Runs when the trace is finished (normally, at exit or after a crash),
// before the last records are written: record what is still in flight.
void add_finish_hook(std::function<void()> hook);
// Records an error marker (with its text, e.g. an out-of-memory report) and
// finishes the file; the caller then exits.
void fatal_error(trace::ErrorKind kind, std::string_view text, trace::Uid op = 0,
                 uint32_t resource = trace::kNoResource);

struct Stats {
  uint64_t records = 0;  // written to the file
  uint64_t dropped = 0;  // dropped (drop mode) or lost after a write error
  uint64_t frames = 0;
  uint64_t bytes = 0;
  uint64_t wait_ns = 0;  // producers waiting for a free buffer
};
Stats stats();

namespace detail {

// 0 while no recorder runs, otherwise the generation of the running one.
inline std::atomic<uint32_t> g_generation{0};

// The calling thread's producer state; plain data, so thread_local costs
// nothing to set up.
struct Producer {
  uint64_t* base;
  std::atomic<uint64_t>* committed;
  uint32_t pos, cap;         // in words
  uint32_t generation;       // of the recorder base/committed belong to
  uint32_t lane;             // this thread's lane ...
  uint32_t lane_generation;  // ... in that recorder's trace
};
inline thread_local Producer tl_producer{};

// Swaps in a fresh buffer (registering the thread first if needed). Returns
// where `words` words may be written, or nullptr if the event is dropped.
uint64_t* reserve_slow(uint32_t words);
uint32_t thread_lane_slow();

constexpr uint64_t event_header(trace::RecordKind kind, uint32_t words) {
  return static_cast<uint64_t>(kind) | (static_cast<uint64_t>(words) << 16);
}

}  // namespace detail

inline bool active() {
  return detail::g_generation.load(std::memory_order_relaxed) != 0;
}

// A tick count from rec::now() in a record's time field: records carry
// ticks until the flusher converts them to nanoseconds, the one place where
// ticks become time. Every time field a producer fills goes through this.
constexpr trace::Time stamp(Tick tick) {
  return static_cast<trace::Time>(tick.count);
}

// Records r. Its time fields hold ticks from rec::now() (see stamp()); the
// flusher converts them.
template <class R>
inline void record(const R& r) {
  static_assert(std::is_trivially_copyable_v<R>, "only fixed-size records go through the hot path");
  constexpr uint32_t kWords = 1 + (sizeof(R) + 7) / 8;
  const uint32_t gen = detail::g_generation.load(std::memory_order_relaxed);
  if (gen == 0) return;
  detail::Producer& p = detail::tl_producer;
  uint64_t* slot;
  if (p.generation == gen && p.pos + kWords <= p.cap) [[likely]] {
    slot = p.base + p.pos;
  } else {
    slot = detail::reserve_slow(kWords);
    if (slot == nullptr) return;
  }
  slot[0] = detail::event_header(R::kKind, kWords);
  new (slot + 1) R(r);  // a copy made in place: the fields go straight to the buffer
  p.pos = static_cast<uint32_t>(slot - p.base) + kWords;
  p.committed->store(p.pos, std::memory_order_release);
}

inline uint32_t thread_lane() {
  const detail::Producer& p = detail::tl_producer;
  if (p.lane_generation == detail::g_generation.load(std::memory_order_relaxed)) [[likely]]
    return p.lane;
  return detail::thread_lane_slow();
}

// A named range on the calling thread's lane, from construction to destruction.
class ScopedRange {
 public:
  explicit ScopedRange(uint32_t name, uint32_t provenance = 0)
      : name_(name), provenance_(provenance), start_(active() ? now() : Tick{}) {}
  ~ScopedRange() {
    if (start_.count != 0 && active()) {
      record(
          trace::UserRangeRecord{thread_lane(), name_, provenance_, stamp(start_), stamp(now())});
    }
  }
  ScopedRange(const ScopedRange&) = delete;
  ScopedRange& operator=(const ScopedRange&) = delete;

 private:
  uint32_t name_, provenance_;
  Tick start_;
};

}  // namespace legato::rec

#define LEGATO_RANGE_CAT2(a, b) a##b
#define LEGATO_RANGE_CAT(a, b) LEGATO_RANGE_CAT2(a, b)
// LEGATO_RANGE("name"): a range over the rest of the enclosing scope.
#define LEGATO_RANGE(text)                                               \
  static const uint32_t LEGATO_RANGE_CAT(legato_range_name_, __LINE__) = \
      ::legato::rec::intern(text);                                       \
  const ::legato::rec::ScopedRange LEGATO_RANGE_CAT(                     \
      legato_range_, __LINE__)(LEGATO_RANGE_CAT(legato_range_name_, __LINE__))
