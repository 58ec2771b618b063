// CUDA builds: CUPTI's activity API, loaded with dlopen. Nothing here links
// libcupti or the driver; without them start() says why and returns null.
//
// CUPTI asks for empty buffers and hands them back full (or on a flush),
// on its own worker thread or on the thread that flushes; the callbacks
// have no user data, so they reach the running collector through one
// process-wide sink. A completed buffer is decoded at once, under the
// sink's lock, into the collector's ActivityLog; the buffer goes back to a
// small pool for CUPTI's next request.
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <utility>
#include <vector>

#include "recorder/clock.hpp"
#include "runtime/gpu/collector.hpp"
#include "runtime/gpu/collector_cupti.hpp"
#include "runtime/gpu/shared_library.hpp"

#ifndef LEGATO_CUPTI_DIR
#define LEGATO_CUPTI_DIR ""
#endif

namespace legato::rt::gpu {
namespace {

// CUPTI suggests 1-10 MB; records are 8-byte aligned and so must buffers be.
constexpr size_t kBufferBytes = size_t{1} << 20;
constexpr size_t kBufferAlign = 8;
constexpr size_t kPooledBuffers = 8;

struct Kind {
  CUpti_ActivityKind kind;
  const char* what;
};
// External correlation records come ahead of API records only: the API
// kinds are enabled for them (their own records are skipped when decoded).
constexpr Kind kKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "kernel"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "memory copy"},
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "external correlation"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "CUDA runtime API"},
    {CUPTI_ACTIVITY_KIND_DRIVER, "CUDA driver API"},
};

constexpr const char* kEmptyLane = "the GPU Device lane will be empty";

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string cupti_soname() {
  return "libcupti.so." + std::to_string(CUDA_VERSION / 1000);
}

// What to do about a CUPTI error, as far as its code tells.
std::string advice(CUptiResult r) {
  switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return "this user may not profile the GPU: run as root or have the administrator allow "
             "it (NVreg_RestrictProfilingToAdminUsers=0)";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      return "another profiler (Nsight Systems, Nsight Compute, ...) is using CUPTI in this "
             "process: profile with one tool at a time";
    case CUPTI_ERROR_NOT_COMPATIBLE:
      return "the NVIDIA driver is older than this CUPTI: update the driver";
    default:
      return "check that the NVIDIA driver is installed and working (nvidia-smi)";
  }
}

// Where CUPTI's buffers go: the running collector's log, or nowhere.
struct Sink {
  std::mutex mu;
  const CuptiApi* api = nullptr;  // the running collector's ...
  ActivityLog* log = nullptr;     // ... its log ...
  uint64_t* dropped = nullptr;    // ... and its count of records CUPTI lost
  std::vector<uint8_t*> free_buffers;
};

Sink& sink() {
  static Sink* s = new Sink;  // never destroyed: CUPTI may call back at exit
  return *s;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  uint8_t* b = nullptr;
  {
    Sink& s = sink();
    std::lock_guard lock(s.mu);
    if (!s.free_buffers.empty()) {
      b = s.free_buffers.back();
      s.free_buffers.pop_back();
    }
  }
  if (b == nullptr) b = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *buffer = b;  // null: CUPTI drops records (and counts them)
  *size = b != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  Sink& s = sink();
  std::lock_guard lock(s.mu);
  if (s.api != nullptr) {
    try {
      if (buffer != nullptr && valid > 0) consume_buffer(*s.api, buffer, valid, *s.log);
    } catch (...) {  // out of memory: what is left of the buffer is lost
    }
    size_t dropped = 0;
    if (s.api->dropped_records(nullptr, 0, &dropped) == CUPTI_SUCCESS) *s.dropped += dropped;
  }
  if (buffer == nullptr) return;
  if (s.free_buffers.size() < kPooledBuffers) {
    try {
      s.free_buffers.push_back(buffer);
      return;
    } catch (...) {
    }
  }
  std::free(buffer);
}

}  // namespace

struct Collector::State {
  CuptiApi api;
  std::vector<const Kind*> enabled;
  bool running = false;  // attached to the sink, kinds enabled
  // Guarded by sink().mu while running.
  ActivityLog log;
  uint64_t dropped = 0;
  std::mutex samples_mu;
  std::vector<ClockSample> samples;
  // For the clock fit's default slope: recorder ticks against CLOCK_MONOTONIC.
  uint64_t tick0 = 0;
  int64_t mono0 = 0;

  // Disables what was enabled, has CUPTI hand back its buffers and detaches
  // from the sink.
  void stop() {
    for (const Kind* k : enabled) api.disable(k->kind);
    enabled.clear();
    if (!running) return;
    api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    Sink& s = sink();
    std::lock_guard lock(s.mu);
    size_t lost = 0;
    if (api.dropped_records(nullptr, 0, &lost) == CUPTI_SUCCESS) dropped += lost;
    s.api = nullptr;
    s.log = nullptr;
    s.dropped = nullptr;
    running = false;
  }
};

std::string result_text(const CuptiApi& api, CUptiResult result) {
  const char* text = nullptr;
  if (api.result_string != nullptr && api.result_string(result, &text) == CUPTI_SUCCESS &&
      text != nullptr) {
    return text;
  }
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

size_t consume_buffer(const CuptiApi& api, uint8_t* buffer, size_t valid, ActivityLog& into) {
  size_t n = 0;
  CUpti_Activity* record = nullptr;
  // Stops at the end (CUPTI_ERROR_MAX_LIMIT_REACHED) or at an incomplete record.
  while (api.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
    decode(record, into);
    ++n;
  }
  return n;
}

const CuptiApi* load_cupti(std::string* problem) {
  static std::once_flag once;
  static const CuptiApi* loaded = nullptr;
  static std::string why;
  std::call_once(once, [] {
    const std::string soname = cupti_soname();
    const std::string dir = LEGATO_CUPTI_DIR;
    std::vector<std::string> names = {soname, "libcupti.so"};
    if (!dir.empty()) {
      names.push_back(dir + "/" + soname);
      names.push_back(dir + "/libcupti.so");
    }
    SharedLibrary lib(std::move(names));
    if (!lib.loaded()) {
      why = "CUPTI (" + soname + ") could not be loaded: " + lib.errors().front() + "; " +
            kEmptyLane +
            ": install the CUDA toolkit's CUPTI or add its directory to LD_LIBRARY_PATH";
      return;
    }
    auto api = std::make_unique<CuptiApi>();
    lib.bind(api->get_version, "cuptiGetVersion")
        .bind(api->result_string, "cuptiGetResultString")
        .bind(api->register_callbacks, "cuptiActivityRegisterCallbacks")
        .bind(api->enable, "cuptiActivityEnable")
        .bind(api->disable, "cuptiActivityDisable")
        .bind(api->flush_all, "cuptiActivityFlushAll")
        .bind(api->next_record, "cuptiActivityGetNextRecord")
        .bind(api->dropped_records, "cuptiActivityGetNumDroppedRecords")
        .bind(api->push_correlation, "cuptiActivityPushExternalCorrelationId")
        .bind(api->pop_correlation, "cuptiActivityPopExternalCorrelationId")
        .bind(api->timestamp, "cuptiGetTimestamp");
    api->library = lib.path();
    if (!lib.missing().empty()) {
      why = "CUPTI (" + api->library + ") lacks " + lib.missing() + "; " + kEmptyLane +
            ": install CUPTI of CUDA " + std::to_string(CUDA_VERSION / 1000) +
            " or put its directory first in LD_LIBRARY_PATH";
      return;
    }
    // Activity records change layout between major versions: the decoder
    // reads this build's.
    uint32_t version = 0;
    if (api->get_version(&version) != CUPTI_SUCCESS ||
        version / 10000 != CUPTI_API_VERSION / 10000) {
      why = "CUPTI (" + api->library + ") has API version " + std::to_string(version) +
            ", this build reads the records of API version " + std::to_string(CUPTI_API_VERSION) +
            "; " + kEmptyLane + ": install CUPTI of CUDA " + std::to_string(CUDA_VERSION / 1000) +
            " or put its directory first in " + "LD_LIBRARY_PATH";
      return;
    }
    lib.keep();              // CUPTI's threads may outlive any collector
    loaded = api.release();  // kept for the life of the process, like the library
  });
  if (loaded == nullptr && problem != nullptr) *problem = why;
  return loaded;
}

std::unique_ptr<Collector> Collector::start(std::string* problem) {
  const CuptiApi* api = load_cupti(problem);
  if (api == nullptr) return nullptr;
  return CollectorAccess::start(*api, problem);
}

std::unique_ptr<Collector> CollectorAccess::start(const CuptiApi& api, std::string* problem) {
  const auto fail = [&](std::string text) -> std::unique_ptr<Collector> {
    if (problem != nullptr) *problem = std::move(text);
    return nullptr;
  };
  auto state = std::make_unique<Collector::State>();
  state->api = api;
  Sink& s = sink();
  {
    std::lock_guard lock(s.mu);
    if (s.api != nullptr) {
      return fail("CUPTI (" + api.library + ") is already collecting for this process; " +
                  kEmptyLane + " (one collector at a time)");
    }
  }
  if (const CUptiResult r = api.register_callbacks(buffer_requested, buffer_completed);
      r != CUPTI_SUCCESS) {
    return fail("CUPTI (" + api.library + ") did not take its buffer callbacks: " +
                result_text(api, r) + "; " + kEmptyLane + ": " + advice(r));
  }
  for (const Kind& k : kKinds) {
    const CUptiResult r = api.enable(k.kind);
    if (r != CUPTI_SUCCESS) {
      state->stop();
      return fail("CUPTI (" + api.library + ") could not enable " + k.what +
                  " activity: " + result_text(api, r) + "; " + kEmptyLane + ": " + advice(r));
    }
    state->enabled.push_back(&k);
  }
  {
    std::lock_guard lock(s.mu);
    if (s.api != nullptr) {  // another collector started meanwhile
      state->stop();
      return fail("CUPTI (" + api.library + ") is already collecting for this process; " +
                  kEmptyLane + " (one collector at a time)");
    }
    s.api = &state->api;
    s.log = &state->log;
    s.dropped = &state->dropped;
    state->running = true;
  }
  state->tick0 = rec::now().count;
  state->mono0 = monotonic_ns();
  std::unique_ptr<Collector> c(new Collector(std::move(state)));
  c->sample_clock();
  return c;
}

Collector::Collector(std::unique_ptr<State> state) : state_(std::move(state)) {}

Collector::~Collector() {
  state_->stop();
}

void Collector::push(trace::Uid item) {
  state_->api.push_correlation(kLegatoCorrelation, item);
}

void Collector::pop() {
  state_->api.pop_correlation(kLegatoCorrelation, nullptr);
}

void Collector::sample_clock() {
  uint64_t gpu_ns = 0;
  const uint64_t before = rec::now().count;
  const CUptiResult r = state_->api.timestamp(&gpu_ns);
  const uint64_t after = rec::now().count;
  if (r != CUPTI_SUCCESS || gpu_ns == 0) return;
  std::lock_guard lock(state_->samples_mu);
  state_->samples.push_back(ClockSample{gpu_ns, before, after});
}

Collector::Result Collector::finish(const std::function<uint32_t(uint32_t)>& device_lane) {
  State& st = *state_;
  if (!st.running) return {};
  sample_clock();
  const uint64_t tick1 = rec::now().count;
  const int64_t mono1 = monotonic_ns();
  st.stop();
  // The slope when the samples cannot give one: how fast recorder ticks ran
  // against CLOCK_MONOTONIC (whose ns are CUPTI's) while collecting.
  const double default_ticks_per_ns =
      mono1 > st.mono0 && tick1 > st.tick0
          ? static_cast<double>(tick1 - st.tick0) / static_cast<double>(mono1 - st.mono0)
          : 1.0;
  std::vector<ClockSample> samples;
  {
    std::lock_guard lock(st.samples_mu);
    samples.swap(st.samples);
  }
  Result out;
  out.fit = fit_clock(samples, default_ticks_per_ns);
  ActivityMatcher matcher(out.fit, device_lane);
  st.log.replay(matcher);
  matcher.finish();
  out.kernels = matcher.take_kernels();
  out.copies = matcher.take_copies();
  out.matched = matcher.matched();
  out.unmatched = matcher.unmatched();
  out.dropped = st.dropped + st.log.untimed;
  st.log = ActivityLog{};
  return out;
}

}  // namespace legato::rt::gpu
