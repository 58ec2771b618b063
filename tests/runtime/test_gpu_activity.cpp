// The GPU path's parts that need no GPU: fitting CUPTI's clock to the
// recorder's, matching device activity to the launching items (activity may
// come before the correlation naming its item), giving copy items the device
// times of the work they ran, decoding CUPTI activity
// records (CUDA builds; records filled by hand), and the --gpus error on a
// machine without a usable GPU.
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "recorder/recorder.hpp"
#include "runtime/config.hpp"
#include "runtime/gpu/activity.hpp"
#include "runtime/gpu/clock_fit.hpp"
#ifdef LEGATO_HAVE_CUDA
#include "runtime/gpu/cupti_decode.hpp"
#endif

using namespace legato;
using namespace legato::rt::gpu;

namespace {

// GPU clocks count ns from the epoch; ticks here run 2.6 per ns from 5e11.
constexpr uint64_t kGpuStart = 1'795'000'000'000'000'000ULL;
constexpr double kTicksPerNs = 2.6, kTickStart = 5e11;
uint64_t true_tick(uint64_t gpu_ns) {
  return static_cast<uint64_t>(kTickStart + kTicksPerNs * static_cast<double>(gpu_ns - kGpuStart));
}

ClockFit exact_fit() {
  return fit_clock(
      {{kGpuStart, true_tick(kGpuStart), true_tick(kGpuStart)},
       {kGpuStart + 1'000'000, true_tick(kGpuStart + 1'000'000), true_tick(kGpuStart + 1'000'000)}},
      1.0);
}

}  // namespace

TEST_CASE("the GPU clock fit recovers the line and bounds its error", "[gpu]") {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<uint64_t> before(0, 40), after(0, 40);
  std::vector<ClockSample> samples;
  for (uint64_t i = 0; i < 64; ++i) {
    const uint64_t g = kGpuStart + i * 1'000'003;
    const uint64_t t = true_tick(g);
    samples.push_back({g, t - before(rng), t + after(rng)});  // the reading lies in its window
  }
  const ClockFit fit = fit_clock(samples, 1.0);
  CHECK(fit.samples == 64);
  CHECK(fit.ticks_per_ns == Approx(kTicksPerNs).epsilon(1e-6));
  CHECK(fit.max_error_ticks > 0);
  CHECK(fit.max_error_ticks <= 80);
  // Points between and beyond the samples land within the stated error.
  for (const uint64_t g :
       std::vector<uint64_t>{kGpuStart + 12'345'678, kGpuStart + 80'000'000, kGpuStart}) {
    const double err =
        std::fabs(static_cast<double>(fit.to_tick(g)) - static_cast<double>(true_tick(g)));
    CHECK(err <= fit.max_error_ticks + 1);
  }
  // One sample: its offset and the given slope; none: nothing to go on.
  const ClockFit one = fit_clock({samples[3]}, 2.0);
  CHECK(one.ticks_per_ns == 2.0);
  CHECK(std::llabs(static_cast<int64_t>(one.to_tick(samples[3].gpu_ns)) -
                   static_cast<int64_t>(true_tick(samples[3].gpu_ns))) <= 40);
  CHECK(fit_clock({}, 1.0).samples == 0);
}

TEST_CASE("device activity is matched to the items that launched it", "[gpu]") {
  ActivityMatcher m(exact_fit(), [](uint32_t device) { return 100 + device; });
  const trace::Uid task = trace::make_uid(0, 42), copy_item = trace::make_uid(0, 43);
  // The kernel arrives before the correlation that names its task: it waits.
  m.add(KernelActivity{7, kGpuStart + 1000, kGpuStart + 5000, 1, 13, "add_kernel"});
  CHECK(m.take_kernels().empty());
  CHECK(m.waiting() == 1);
  m.add(Correlation{7, task});
  auto kernels = m.take_kernels();
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].task == task);
  CHECK(kernels[0].processor == 101);
  CHECK(kernels[0].stream == 13);
  CHECK(kernels[0].name == rec::intern("add_kernel"));
  CHECK(static_cast<uint64_t>(kernels[0].start) == true_tick(kGpuStart + 1000));
  CHECK(static_cast<uint64_t>(kernels[0].stop) == true_tick(kGpuStart + 5000));
  // A copy whose correlation came first matches at once.
  m.add(Correlation{8, copy_item});
  m.add(CopyActivity{8, kGpuStart + 6000, kGpuStart + 9000, 4096, CopyDirection::HostToDevice, 0,
                     14});
  const auto copies = m.take_copies();
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].item == copy_item);
  CHECK(copies[0].bytes == 4096);
  CHECK(copies[0].direction == CopyDirection::HostToDevice);
  CHECK(copies[0].stop_tick - copies[0].start_tick ==
        true_tick(kGpuStart + 9000) - true_tick(kGpuStart + 6000));
  // Activity whose correlation never comes is unmatched at the end.
  m.add(KernelActivity{9, kGpuStart + 10000, kGpuStart + 11000, 0, 13, "lost"});
  m.finish();
  CHECK(m.matched() == 2);
  CHECK(m.unmatched() == 1);
  CHECK(m.waiting() == 0);
}

TEST_CASE("copy items take the device times of the copies and kernels they ran", "[gpu]") {
  const auto copy = [](uint64_t item, trace::Time start, trace::Time stop, trace::Time ready) {
    trace::CopyRecord r;
    r.uid = item;
    r.copy_kind = trace::CopyKind::Gather;
    r.bytes = 800;
    r.start = start;
    r.stop = stop;
    r.ready = ready;
    return r;
  };
  // Host times: the copy worker's, around the calls and the stream's wait.
  std::vector<trace::CopyRecord> copies{copy(1, 1000, 9000, 900),    // a DMA copy
                                        copy(2, 2000, 8000, 1900),   // memset, kernel, readback
                                        copy(3, 3000, 7000, 2900),   // device work before ready
                                        copy(4, 4000, 6000, 3900),   // nothing seen by CUPTI
                                        copy(5, 5000, 9000, 4900)};  // a fill: one kernel
  const std::vector<DeviceCopyTiming> dma{{1, 1500, 2500, 800, CopyDirection::DeviceToDevice},
                                          {2, 2100, 2200, 8, CopyDirection::Other},
                                          {2, 5000, 5100, 8, CopyDirection::DeviceToHost},
                                          {3, 2000, 2950, 8, CopyDirection::Other}};
  const std::vector<trace::GpuKernelRecord> kernels{{2, 100, 0, 13, 2300, 4800},
                                                    {5, 100, 0, 13, 5200, 5300},
                                                    {7, 100, 0, 12, 100, 200}};  // a task's
  apply_device_times(copies, dma, kernels);
  CHECK(copies[0].start == 1500);
  CHECK(copies[0].stop == 2500);
  CHECK(copies[1].start == 2100);  // from the memset before the kernel
  CHECK(copies[1].stop == 5100);   // to the readback of the index check after it
  CHECK(copies[2].start == 2900);  // kept after ready
  CHECK(copies[2].stop == 2950);
  CHECK(copies[3].start == 4000);  // host times kept
  CHECK(copies[3].stop == 6000);
  CHECK(copies[4].start == 5200);
  CHECK(copies[4].stop == 5300);
  for (const trace::CopyRecord& r : copies) {
    CHECK(r.bytes == 800);  // only the times change
    CHECK(r.copy_kind == trace::CopyKind::Gather);
  }
}

#ifdef LEGATO_HAVE_CUDA
TEST_CASE("CUPTI activity records decode into the matcher", "[gpu]") {
  ActivityLog log;
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.correlationId = 21;
  k.start = kGpuStart + 100;
  k.end = kGpuStart + 900;
  k.deviceId = 2;
  k.streamId = 7;
  k.name = "saxpy";
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&k), log));
  CUpti_ActivityExternalCorrelation other{};
  other.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  other.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1;  // another tool's
  other.correlationId = 21;
  other.externalId = 999;
  CHECK_FALSE(decode(reinterpret_cast<const CUpti_Activity*>(&other), log));
  CUpti_ActivityExternalCorrelation ours = other;
  ours.externalKind = kLegatoCorrelation;
  ours.externalId = trace::make_uid(1, 5);
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&ours), log));
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&ours), log));  // the same pair again
  CHECK(log.correlations.size() == 1);
  CHECK(log.kernels.size() == 1);
  // Replayed at the end: the kernel came before its correlation, and matches.
  ActivityMatcher m(exact_fit(), [](uint32_t device) { return device; });
  log.replay(m);
  const auto kernels = m.take_kernels();
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].task == trace::make_uid(1, 5));
  CHECK(kernels[0].processor == 2);
  CHECK(kernels[0].name == rec::intern("saxpy"));
  CUpti_ActivityMemcpy6 c{};
  c.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  c.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  c.bytes = 1 << 20;
  c.correlationId = 21;
  c.start = kGpuStart + 1000;
  c.end = kGpuStart + 2000;
  ActivityLog copies_log;
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&ours), copies_log));
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&c), copies_log));
  // A kernel CUPTI could not time is kept out, and counted.
  CUpti_ActivityKernel10 untimed = k;
  untimed.start = untimed.end = 0;
  CHECK(decode(reinterpret_cast<const CUpti_Activity*>(&untimed), copies_log));
  CHECK(copies_log.kernels.empty());
  CHECK(copies_log.untimed == 1);
  copies_log.replay(m);
  const auto copies = m.take_copies();
  REQUIRE(copies.size() == 1);
  CHECK(copies[0].direction == CopyDirection::DeviceToHost);
  CHECK(copies[0].bytes == uint64_t{1} << 20);
  CUpti_Activity unrelated{};
  unrelated.kind = CUPTI_ACTIVITY_KIND_DRIVER;
  CHECK_FALSE(decode(&unrelated, log));
}
#endif

TEST_CASE("asking for GPUs without a usable one says why, in CUDA's words", "[gpu]") {
  rt::MachineInfo machine;
  machine.cores = 4;
  machine.memory_bytes = uint64_t{4096} << 20;
  machine.gpus = 0;  // gpu_problem left empty: asked of CUDA
  try {
    rt::parse_config(rt::split_config("--gpus 1"), machine);
    FAIL("--gpus 1 was accepted");
  } catch (const rt::ConfigError& e) {
    const std::string text = e.what();
    CHECK_THAT(text, Catch::Contains("--gpus 1"));
    CHECK_THAT(text, Catch::Contains("CUDA"));
    CHECK_THAT(text, Catch::Contains("use --gpus=0"));
#ifdef LEGATO_HAVE_CUDA
    // Here no driver is installed; on a machine with a GPU CUDA finds it.
    const bool no_driver = text.find("cudaGetDeviceCount failed") != std::string::npos;
    const bool found = text.find("CUDA finds") != std::string::npos;
    CHECK((no_driver || found));
#else
    CHECK_THAT(text, Catch::Contains("no CUDA support"));
#endif
  }
}
