// The CUPTI collector without a GPU: start() here either collects (a
// machine with a GPU) or says why in words; a hand-filled activity buffer
// is read with the real libcupti's record walk (which needs no driver); and
// a collector started with fake entry points around that walk (the fakes
// play CUPTI: buffer callbacks, external correlation, a GPU clock running at
// a known rate against the recorder's ticks) goes through push/pop, clock
// samples and finish(), which must put kernels and copies on their items at
// the right ticks.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "recorder/clock.hpp"
#include "recorder/recorder.hpp"
#include "runtime/gpu/collector.hpp"
#ifdef LEGATO_HAVE_CUDA
#include "runtime/gpu/collector_cupti.hpp"
#endif

using namespace legato;
using namespace legato::rt::gpu;

TEST_CASE("the collector starts, or says why in words", "[gpu]") {
  std::string problem;
  std::unique_ptr<Collector> c = Collector::start(&problem);
  if (c == nullptr) {
    std::printf("Collector::start: no collector: %s\n", problem.c_str());
    CHECK_FALSE(problem.empty());
#ifdef LEGATO_HAVE_CUDA
    CHECK_THAT(problem, Catch::Contains("CUPTI"));
    CHECK_THAT(problem, Catch::Contains("GPU Device lane will be empty"));
#else
    CHECK_THAT(problem, Catch::Contains("no CUDA support"));
#endif
    return;
  }
  std::printf("Collector::start: collecting\n");
  c->push(trace::make_uid(0, 1));
  c->pop();
  c->sample_clock();
  const Collector::Result r = c->finish([](uint32_t d) { return d; });
  CHECK(r.kernels.empty());   // nothing ran on the GPU
  CHECK(r.fit.samples >= 3);  // start, the one above, finish
  CHECK(r.fit.ticks_per_ns > 0);
}

#ifdef LEGATO_HAVE_CUDA
namespace {

template <class Record>
void put(std::vector<uint8_t>& buffer, const Record& r) {
  static_assert(sizeof(Record) % 8 == 0, "CUPTI records are 8-byte multiples");
  const size_t at = buffer.size();
  buffer.resize(at + sizeof(Record));
  std::memcpy(buffer.data() + at, &r, sizeof(Record));
}

CUpti_ActivityKernel10 kernel(uint32_t correlation, uint64_t start, uint64_t end, const char* name,
                              uint32_t device = 0, uint32_t stream = 7) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.correlationId = correlation;
  k.start = start;
  k.end = end;
  k.deviceId = device;
  k.streamId = stream;
  k.name = name;
  return k;
}

CUpti_ActivityMemcpy6 memcpy_record(uint32_t correlation, uint64_t start, uint64_t end,
                                    uint64_t bytes) {
  CUpti_ActivityMemcpy6 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  m.correlationId = correlation;
  m.start = start;
  m.end = end;
  m.bytes = bytes;
  m.streamId = 8;
  return m;
}

CUpti_ActivityExternalCorrelation correlation_record(uint32_t correlation, uint64_t id,
                                                     CUpti_ExternalCorrelationKind kind) {
  CUpti_ActivityExternalCorrelation e{};
  e.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  e.externalKind = kind;
  e.correlationId = correlation;
  e.externalId = id;
  return e;
}

CUpti_ActivityAPI api_record(uint32_t correlation) {
  CUpti_ActivityAPI a{};
  a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  a.correlationId = correlation;
  a.start = 1;
  a.end = 2;
  return a;
}

const CuptiApi& real_cupti() {
  std::string problem;
  const CuptiApi* api = load_cupti(&problem);
  INFO(problem);
  REQUIRE(api != nullptr);  // the toolkit this was built with has libcupti
  return *api;
}

}  // namespace

TEST_CASE("a completed CUPTI buffer is read record by record", "[gpu]") {
  const CuptiApi& api = real_cupti();
  std::printf("CUPTI loaded from %s\n", api.library.c_str());
  std::vector<uint8_t> buffer;
  put(buffer, correlation_record(5, 500, kLegatoCorrelation));
  put(buffer, api_record(5));
  put(buffer, kernel(5, 1000, 2000, "axpy"));
  put(buffer, correlation_record(5, 999, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1));
  put(buffer, memcpy_record(5, 3000, 4000, 64));
  put(buffer, kernel(6, 0, 0, "never timed"));
  ActivityLog log;
  CHECK(consume_buffer(api, buffer.data(), buffer.size(), log) == 6);
  REQUIRE(log.correlations.size() == 1);
  CHECK(log.correlations[0].correlation == 5);
  CHECK(log.correlations[0].item == 500);
  REQUIRE(log.kernels.size() == 1);
  CHECK(log.kernels[0].name == "axpy");
  CHECK(log.kernels[0].start == 1000);
  REQUIRE(log.copies.size() == 1);
  CHECK(log.copies[0].bytes == 64);
  CHECK(log.untimed == 1);
  // Only the valid bytes are read: a cut-off last record is not.
  ActivityLog cut;
  CHECK(consume_buffer(api, buffer.data(), buffer.size() - 8, cut) == 5);
  CHECK(cut.untimed == 0);
  CHECK(cut.kernels.size() == 1);
}

namespace {

// CUPTI played by hand. The GPU clock runs 2.5 recorder ticks per ns.
struct FakeCupti {
  static constexpr uint64_t kGpuStart = 1'795'000'000'000'000'000ULL;
  static constexpr double kTicksPerNs = 2.5;
  uint64_t tick_base = 0;
  CUpti_BuffersCallbackRequestFunc requested = nullptr;
  CUpti_BuffersCallbackCompleteFunc completed = nullptr;
  std::vector<CUpti_ActivityKind> enabled;
  CUpti_ActivityKind refuse = CUPTI_ACTIVITY_KIND_INVALID;  // enable() fails for it
  std::vector<uint64_t> pushed;                             // the external ids in effect
  std::vector<uint64_t> all_pushed;
  int bad_kind = 0;  // pushes or pops of another correlation kind
  std::vector<uint64_t> gpu_readings;
  uint32_t next_correlation = 100;
  std::vector<uint8_t> pending;  // records the next flush delivers
  size_t dropped = 0;            // what the next dropped-records query reports
  int flushes = 0;

  uint64_t gpu_now() const {
    return kGpuStart + (rec::now().count - tick_base) * 2 / 5;  // 0.4 GPU ns per tick
  }
  uint64_t expected_tick(uint64_t gpu_ns) const {
    return tick_base + static_cast<uint64_t>(static_cast<double>(gpu_ns - kGpuStart) * kTicksPerNs);
  }
  // An API call that launches a kernel (or a copy) while ids are pushed:
  // CUPTI writes the external correlation ahead of the API record.
  uint32_t launch() {
    const uint32_t id = next_correlation++;
    if (!pushed.empty()) put(pending, correlation_record(id, pushed.back(), kLegatoCorrelation));
    put(pending, api_record(id));
    return id;
  }
  // Hands `pending` over the way CUPTI does: in a buffer it asked for.
  void deliver() {
    uint8_t* buffer = nullptr;
    size_t size = 0, max_records = 0;
    requested(&buffer, &size, &max_records);
    REQUIRE(buffer != nullptr);
    REQUIRE(reinterpret_cast<uintptr_t>(buffer) % 8 == 0);
    REQUIRE(size >= pending.size());
    std::memcpy(buffer, pending.data(), pending.size());
    completed(nullptr, 0, buffer, size, pending.size());
    pending.clear();
  }
};

FakeCupti* g_fake = nullptr;

CuptiApi fake_api() {
  CuptiApi api = real_cupti();  // the record walk and the result strings are CUPTI's own
  api.library = "fake CUPTI";
  api.register_callbacks = [](CUpti_BuffersCallbackRequestFunc req,
                              CUpti_BuffersCallbackCompleteFunc done) {
    g_fake->requested = req;
    g_fake->completed = done;
    return CUPTI_SUCCESS;
  };
  api.enable = [](CUpti_ActivityKind kind) {
    if (kind == g_fake->refuse) return CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
    g_fake->enabled.push_back(kind);
    return CUPTI_SUCCESS;
  };
  api.disable = [](CUpti_ActivityKind kind) {
    std::erase(g_fake->enabled, kind);
    return CUPTI_SUCCESS;
  };
  api.flush_all = [](uint32_t) {
    ++g_fake->flushes;
    if (!g_fake->pending.empty()) g_fake->deliver();
    return CUPTI_SUCCESS;
  };
  api.dropped_records = [](CUcontext, uint32_t, size_t* dropped) {
    *dropped = g_fake->dropped;
    g_fake->dropped = 0;
    return CUPTI_SUCCESS;
  };
  api.push_correlation = [](CUpti_ExternalCorrelationKind kind, uint64_t id) {
    if (kind != kLegatoCorrelation) ++g_fake->bad_kind;
    g_fake->pushed.push_back(id);
    g_fake->all_pushed.push_back(id);
    return CUPTI_SUCCESS;
  };
  api.pop_correlation = [](CUpti_ExternalCorrelationKind kind, uint64_t* last) {
    if (kind != kLegatoCorrelation) ++g_fake->bad_kind;
    if (g_fake->pushed.empty()) return CUPTI_ERROR_QUEUE_EMPTY;
    if (last != nullptr) *last = g_fake->pushed.back();
    g_fake->pushed.pop_back();
    return CUPTI_SUCCESS;
  };
  api.timestamp = [](uint64_t* ns) {
    *ns = g_fake->gpu_now();
    g_fake->gpu_readings.push_back(*ns);
    return CUPTI_SUCCESS;
  };
  return api;
}

bool has(const std::vector<CUpti_ActivityKind>& kinds, CUpti_ActivityKind k) {
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}

}  // namespace

TEST_CASE("finish() puts the activity of pushed items on the recorder's clock", "[gpu]") {
  FakeCupti fake;
  g_fake = &fake;
  fake.tick_base = rec::now().count;
  const CuptiApi api = fake_api();
  std::string problem;
  std::unique_ptr<Collector> c = CollectorAccess::start(api, &problem);
  INFO(problem);
  REQUIRE(c != nullptr);
  CHECK(has(fake.enabled, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  CHECK(has(fake.enabled, CUPTI_ACTIVITY_KIND_MEMCPY));
  CHECK(has(fake.enabled, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
  CHECK(fake.gpu_readings.size() == 1);  // the start's clock sample

  // While one collector runs, no other starts.
  std::string second_problem;
  CHECK(CollectorAccess::start(api, &second_problem) == nullptr);
  CHECK_THAT(second_problem, Catch::Contains("already collecting"));

  const trace::Uid task = trace::make_uid(0, 11), copy_item = trace::make_uid(0, 12);
  c->push(task);
  const uint32_t k1 = fake.launch(), k2 = fake.launch();
  c->pop();
  c->push(copy_item);
  const uint32_t m1 = fake.launch();
  c->pop();
  const uint32_t stray = fake.launch();  // launched outside any item
  CHECK(fake.all_pushed == std::vector<uint64_t>{task, copy_item});
  CHECK(fake.pushed.empty());
  CHECK(fake.bad_kind == 0);
  // The correlations come in one buffer (a flush by CUPTI's own thread) ...
  fake.deliver();
  // Samples 20 ms apart: a sample whose bracket a busy (or sanitized) run
  // stretches by microseconds still leaves the fitted rate within 0.1%.
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    c->sample_clock();
  }
  CHECK(fake.gpu_readings.size() == 4);
  // ... and the device work, timed within the sampled span, in the last one.
  const uint64_t g0 = fake.gpu_readings[1], g1 = fake.gpu_readings[3];
  const uint64_t a = g0 + (g1 - g0) / 4, b = g0 + (g1 - g0) / 2;
  put(fake.pending, kernel(k1, a, a + 1000, "first", 1, 13));
  put(fake.pending, kernel(k2, b, b + 500, "second", 0, 13));
  put(fake.pending, memcpy_record(m1, a + 2000, a + 6000, 4096));
  put(fake.pending, kernel(stray, a, a + 10, "stray"));
  put(fake.pending, kernel(k2, 0, 0, "untimed"));
  put(fake.pending, correlation_record(k1, 777, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2));
  fake.dropped = 3;

  const Collector::Result r = c->finish([](uint32_t device) { return 100 + device; });
  CHECK(fake.flushes >= 1);
  CHECK(fake.enabled.empty());  // everything disabled again
  CHECK(fake.gpu_readings.size() == 5);
  CHECK(r.fit.samples == 5);
  CHECK(r.fit.ticks_per_ns == Approx(FakeCupti::kTicksPerNs).epsilon(1e-3));
  CHECK(r.matched == 3);
  CHECK(r.unmatched == 1);    // the stray kernel
  CHECK(r.dropped == 3 + 1);  // CUPTI's count and the untimed kernel
  const auto near = [&](uint64_t tick, uint64_t gpu_ns) {
    const double err =
        std::fabs(static_cast<double>(tick) - static_cast<double>(fake.expected_tick(gpu_ns)));
    INFO("tick " << tick << " expected " << fake.expected_tick(gpu_ns) << " error bound "
                 << r.fit.max_error_ticks);
    return err <= r.fit.max_error_ticks + 3;
  };
  REQUIRE(r.kernels.size() == 2);
  CHECK(r.kernels[0].task == task);
  CHECK(r.kernels[0].name == rec::intern("first"));
  CHECK(r.kernels[0].processor == 101);
  CHECK(r.kernels[0].stream == 13);
  CHECK(near(static_cast<uint64_t>(r.kernels[0].start), a));
  CHECK(near(static_cast<uint64_t>(r.kernels[0].stop), a + 1000));
  CHECK(r.kernels[1].task == task);
  CHECK(r.kernels[1].name == rec::intern("second"));
  CHECK(r.kernels[1].processor == 100);
  CHECK(near(static_cast<uint64_t>(r.kernels[1].start), b));
  CHECK(near(static_cast<uint64_t>(r.kernels[1].stop), b + 500));
  REQUIRE(r.copies.size() == 1);
  CHECK(r.copies[0].item == copy_item);
  CHECK(r.copies[0].bytes == 4096);
  CHECK(r.copies[0].direction == CopyDirection::HostToDevice);
  CHECK(near(r.copies[0].start_tick, a + 2000));
  CHECK(near(r.copies[0].stop_tick, a + 6000));
  // The span of the samples is ~6 ms: the error bound is a small part of it.
  CHECK(r.fit.max_error_ticks < 0.01 * FakeCupti::kTicksPerNs * static_cast<double>(g1 - g0));

  // Once finished: nothing more, and a buffer CUPTI hands back late is let go.
  CHECK(c->finish([](uint32_t d) { return d; }).kernels.empty());
  put(fake.pending, kernel(k1, a, a + 1, "late"));
  fake.deliver();
  c.reset();

  // The collector is gone: another may start.
  std::unique_ptr<Collector> again = CollectorAccess::start(api, &problem);
  CHECK(again != nullptr);
  if (again) CHECK(again->finish([](uint32_t d) { return d; }).matched == 0);
}

TEST_CASE("a CUPTI that refuses an activity kind stops the collector, in words", "[gpu]") {
  FakeCupti fake;
  g_fake = &fake;
  fake.tick_base = rec::now().count;
  fake.refuse = CUPTI_ACTIVITY_KIND_MEMCPY;
  std::string problem;
  CHECK(CollectorAccess::start(fake_api(), &problem) == nullptr);
  CHECK_THAT(problem, Catch::Contains("fake CUPTI"));
  CHECK_THAT(problem, Catch::Contains("memory copy"));
  CHECK_THAT(problem, Catch::Contains("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"));
  CHECK_THAT(problem, Catch::Contains("NVreg_RestrictProfilingToAdminUsers"));
  CHECK(fake.enabled.empty());  // what was enabled before the refusal is disabled
  // Nothing is left attached: a collector starts after.
  fake.refuse = CUPTI_ACTIVITY_KIND_INVALID;
  std::unique_ptr<Collector> c = CollectorAccess::start(fake_api(), &problem);
  REQUIRE(c != nullptr);
  c->finish([](uint32_t d) { return d; });
}
#endif
