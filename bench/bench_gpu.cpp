// GPU benchmark (CUDA builds, on a machine with a GPU). Prints `RESULT
// <metric> <value> <unit>` lines:
//
//   copy_bandwidth_gbs      device-to-device cudaMemcpy of 1 GiB, bytes read +
//                           written per second: the baseline of this run
//   add_gbs                 `a += b` on F64 arrays of 2^27 elements on one GPU
//                           processor (--gpus 1), 3 * 8 bytes per element per
//                           operation over the wall time of 20 operations
//   add_over_copy           add_gbs / copy_bandwidth_gbs (target >= 0.8)
//   kernel_match_rate       kernels and device copies tied to their task or
//                           copy, of all CUPTI reported, in a profiled run
//   profile_overhead        wall time of the profiled loop / unprofiled - 1
//                           (median of --runs each, alternating; target <= 0.03)
//
//   bench_gpu [--runs N]
// Without a usable GPU it says why and prints no figures.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "arrays/array.hpp"
#include "load/load.hpp"
#include "result.hpp"
#include "runtime/gpu/probe.hpp"

using namespace legato;
using legato::bench::result;

namespace {

constexpr int64_t kElements = int64_t{1} << 27;
constexpr int kOps = 20;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double copy_bandwidth() {
  const size_t bytes = size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) return 0;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);  // warm-up
  std::vector<double> gbs;
  for (int i = 0; i < 5; ++i) {
    cudaEventRecord(start);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    gbs.push_back(2.0 * static_cast<double>(bytes) / (ms * 1e6));
  }
  cudaFree(a);
  cudaFree(b);
  return median(gbs);
}

// The child: kOps in-place adds after a warm-up; prints the loop's seconds.
int add_loop() {
  rt::start();
  rt::Array a = rt::ones(kElements);
  rt::Array b = rt::ones(kElements);
  for (int i = 0; i < 3; ++i) a += b;
  rt::fence();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kOps; ++i) a += b;
  rt::fence();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("LOOP %.9f\n", s);
  rt::finish();
  return 0;
}

// Runs the child with LEGATE_CONFIG; the loop's seconds, or < 0.
double run_child(const std::string& self, const std::string& config) {
  const std::string cmd = "LEGATE_CONFIG='" + config + "' " + self + " --child";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  char line[256];
  double s = -1;
  while (std::fgets(line, sizeof line, p) != nullptr) std::sscanf(line, "LOOP %lf", &s);
  return pclose(p) == 0 ? s : -1;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--child") == 0) return add_loop();
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::atoi(argv[++i]);
  }
  const rt::gpu::Probe probe = rt::gpu::probe();
  if (probe.devices == 0) {
    std::printf("bench_gpu: no usable GPU (%s); no figures\n", probe.problem.c_str());
    return 0;
  }
  std::printf("bench_gpu on %s\n", probe.names.front().c_str());
  const double copy = copy_bandwidth();
  result("copy_bandwidth_gbs", copy, "GB/s");

  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "legato_bench_gpu";
  std::filesystem::create_directories(dir);
  const std::string base = "--cpus 2 --gpus 1 --fbmem 8192";
  const std::string profiled = base + " --profile --profile-report 0 --logdir " + dir.string();
  std::vector<double> plain, prof;
  for (int r = 0; r < runs; ++r) {
    plain.push_back(run_child(self, base));
    prof.push_back(run_child(self, profiled));
  }
  if (*std::min_element(plain.begin(), plain.end()) <= 0 ||
      *std::min_element(prof.begin(), prof.end()) <= 0) {
    std::printf("bench_gpu: a run failed\n");
    return 1;
  }
  const double add = 3.0 * 8.0 * static_cast<double>(kElements) * kOps / median(plain) / 1e9;
  result("add_gbs", add, "GB/s");
  result("add_over_copy", add / copy, "ratio");
  result("profile_overhead", median(prof) / median(plain) - 1.0, "ratio");

  const analysis::Profile p = load::load_profile({(dir / "legate_0.prof").string()});
  const nlohmann::json& a = p.ranks.at(0).metadata.at("gpu_activity");
  const double matched = a.at("matched").get<double>();
  const double missed = a.at("unmatched").get<double>() + a.at("dropped").get<double>();
  result("kernel_match_rate", matched / std::max(1.0, matched + missed), "ratio");
  result("gpu_clock_fit_error_ns", a.at("clock_fit").at("max_error_ns").get<double>(), "ns");
  std::filesystem::remove_all(dir);
  return 0;
}
