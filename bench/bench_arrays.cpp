// Array library benchmark, every figure next to a baseline measured in the
// same run:
//   - add(x, y, out=z) on 10 M float32, in GB/s, against memcpy;
//   - the seeds' chunked vs vectorized update (the example programs);
//   - CG per iteration at n = 300 (the cg example) against a hand-written
//     single-thread C++ CG of the same matrix;
//   - the cost of --profile on both update programs (process wall time,
//     trace writing included, the end-of-run report not), as the median of
//     back-to-back pairs, and what writing the report then adds.
// The runtime uses LEGATE_CONFIG as given (automatic sizing when unset).
// Prints `RESULT <metric> <value> <unit>` lines; figures in bench/README.md.
//
//   bench_arrays [REPEATS]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arrays/array.hpp"
#include "bench_args.hpp"

using namespace legato::rt;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// --- add against memcpy ---

struct Bandwidth {
  double add_gbps, memcpy_gbps;
};

Bandwidth add_vs_memcpy(int repeats) {
  const int64_t n = 10'000'000;
  const double bytes = 3.0 * 4 * static_cast<double>(n);  // read x and y, write z
  std::vector<double> add_s, copy_s;
  {
    start();
    Generator g(1);
    Array x = g.random(n, DType::F32), y = g.random(n, DType::F32);
    Array z = empty_like(x);
    add(x, y, z);  // every instance exists before timing
    for (int r = 0; r < repeats; ++r) {
      fence();
      const auto t0 = Clock::now();
      add(x, y, z);
      fence();
      add_s.push_back(seconds_since(t0));
    }
    finish();
  }
  // memcpy moves 2 bytes (one read, one written) per byte copied.
  const size_t copy_bytes = static_cast<size_t>(bytes / 2);
  std::unique_ptr<char[]> src(new char[copy_bytes]), dst(new char[copy_bytes]);
  std::memset(src.get(), 1, copy_bytes);
  std::memset(dst.get(), 0, copy_bytes);
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    std::memcpy(dst.get(), src.get(), copy_bytes);
    copy_s.push_back(seconds_since(t0));
    src[static_cast<size_t>(r)] = dst[static_cast<size_t>(r) + 1];  // keep the copy
  }
  return {bytes / median(add_s) / 1e9, bytes / median(copy_s) / 1e9};
}

// --- the example programs ---

std::string self_dir() {
  return std::filesystem::canonical("/proc/self/exe").parent_path().string();
}

struct ProgramRun {
  double wall_s = 0;
  std::string out;
};

// Runs a program of this build with the given LEGATE_CONFIG; its stdout.
ProgramRun run_program(const std::string& program, const std::string& args,
                       const std::string& config) {
  const std::string out_file =
      std::filesystem::temp_directory_path() / ("legato_bench_" + std::to_string(getpid()));
  const std::string cmd =
      "LEGATE_CONFIG='" + config + "' " + self_dir() + "/" + program + " " + args + " >" + out_file;
  const auto t0 = Clock::now();
  const int status = std::system(cmd.c_str());
  ProgramRun r{seconds_since(t0), {}};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("failed: " + cmd);
  FILE* f = std::fopen(out_file.c_str(), "r");
  char buf[4096];
  size_t got = 0;
  while (f != nullptr && (got = std::fread(buf, 1, sizeof buf, f)) > 0) r.out.append(buf, got);
  if (f != nullptr) std::fclose(f);
  std::filesystem::remove(out_file);
  return r;
}

double number_after(const std::string& out, const std::string& label) {
  const size_t at = out.find(label);
  if (at == std::string::npos) throw std::runtime_error("no '" + label + "' in:\n" + out);
  return std::stod(out.substr(at + label.size()));
}

// --- CG: the example against a hand-written single-thread one ---

// The cg example's matrix (4 on the diagonal, -1 on diagonals +-1 and +-N),
// applied directly.
void apply_poisson(int64_t N, const std::vector<double>& p, std::vector<double>& ap) {
  const int64_t n = N * N;
  for (int64_t i = 0; i < n; ++i) {
    double v = 4 * p[i];
    if (i >= 1) v -= p[i - 1];
    if (i + 1 < n) v -= p[i + 1];
    if (i >= N) v -= p[i - N];
    if (i + N < n) v -= p[i + N];
    ap[i] = v;
  }
}

double reference_cg_ms_per_iter(int64_t N, int iterations) {
  const int64_t n = N * N;
  std::vector<double> b(n), x(n, 0.0), r(n), p(n), ap(n);
  uint64_t s = 42;
  for (double& v : b) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<double>(s >> 11) * 0x1.0p-53;
  }
  r = b;
  p = r;
  double rsold = 0;
  for (double v : r) rsold += v * v;
  const auto t0 = Clock::now();
  for (int it = 0; it < iterations; ++it) {
    apply_poisson(N, p, ap);
    double pap = 0;
    for (int64_t i = 0; i < n; ++i) pap += p[i] * ap[i];
    const double alpha = rsold / pap;
    for (int64_t i = 0; i < n; ++i) x[i] += alpha * p[i];
    for (int64_t i = 0; i < n; ++i) r[i] -= alpha * ap[i];
    double rsnew = 0;
    for (double v : r) rsnew += v * v;
    const double beta = rsnew / rsold;
    for (int64_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    rsold = rsnew;
  }
  const double ms = seconds_since(t0) * 1e3 / iterations;
  if (!std::isfinite(rsold) || x[0] == 12345.678) std::printf("(unexpected residual)\n");
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  const legato::bench::CountArgs args(
      argc, argv, "bench_arrays [REPEATS]",
      "add against memcpy, chunked against vectorized Example 1, CG against plain C++, and the "
      "--profile overhead (REPEATS, default 5).");
  const int repeats = static_cast<int>(args.get(1, 5));
  const char* env = std::getenv("LEGATE_CONFIG");
  const std::string config = env != nullptr ? env : "";
  std::printf("LEGATE_CONFIG='%s', %d repeats, %u hardware threads\n", config.c_str(), repeats,
              std::thread::hardware_concurrency());

  const Bandwidth bw = add_vs_memcpy(std::max(repeats, 5));
  std::printf("RESULT add_gbps %.3g GB/s\n", bw.add_gbps);
  std::printf("RESULT memcpy_gbps %.3g GB/s\n", bw.memcpy_gbps);
  std::printf("RESULT add_over_memcpy %.3g\n", bw.add_gbps / bw.memcpy_gbps);

  // The update programs, plain and profiled, back to back.
  const auto logdir =
      std::filesystem::temp_directory_path() / ("legato_bench_arrays_" + std::to_string(getpid()));
  std::filesystem::create_directories(logdir);
  const std::string profiled = config + " --profile --profile-report 0 --logdir " + logdir.string();
  std::vector<double> vec_s, chunk_s, vec_overhead, chunk_overhead, chunk_report_s;
  double vec_checksum = 0, chunk_checksum = 0;
  for (int r = 0; r < repeats; ++r) {
    const ProgramRun v = run_program("vectorized_update", "", config);
    const ProgramRun vp = run_program("vectorized_update", "", profiled);
    const ProgramRun c = run_program("chunked_update", "", config);
    const ProgramRun cp = run_program("chunked_update", "", profiled);
    vec_s.push_back(v.wall_s);
    chunk_s.push_back(c.wall_s);
    vec_overhead.push_back((vp.wall_s / v.wall_s - 1) * 100);
    chunk_overhead.push_back((cp.wall_s / c.wall_s - 1) * 100);
    vec_checksum = number_after(v.out, "checksum = ");
    chunk_checksum = number_after(c.out, "checksum = ");
    // What the end-of-run report adds: the same archive step on that trace.
    const std::string archive = self_dir() + "/legate_prof archive " + logdir.string() +
                                "/legate_0.prof -o " + logdir.string() + "/legate_prof >/dev/null";
    const auto t0 = Clock::now();
    if (std::system(archive.c_str()) != 0) throw std::runtime_error("failed: " + archive);
    chunk_report_s.push_back(seconds_since(t0));
  }
  std::filesystem::remove_all(logdir);
  std::printf("update checksums: vectorized %.6f, chunked %.6f\n", vec_checksum, chunk_checksum);
  std::printf("RESULT vectorized_update_s %.3g s\n", median(vec_s));
  std::printf("RESULT chunked_update_s %.3g s\n", median(chunk_s));
  std::printf("RESULT chunked_over_vectorized %.3g\n", median(chunk_s) / median(vec_s));
  std::printf("RESULT profile_overhead_vectorized_pct %.3g %%\n", median(vec_overhead));
  std::printf("RESULT profile_overhead_chunked_pct %.3g %%\n", median(chunk_overhead));
  std::printf("RESULT report_s_chunked %.3g s\n", median(chunk_report_s));
  std::printf("RESULT report_over_chunked_pct %.3g %%\n",
              median(chunk_report_s) / median(chunk_s) * 100);

  // CG at n = 300: the example (matrix-free at this size) and the reference.
  const int iterations = 100;
  std::vector<double> cg_ms;
  for (int r = 0; r < repeats; ++r) {
    const ProgramRun cg =
        run_program("cg", "-n 300 -m " + std::to_string(iterations) + " -w 5 -t", config);
    cg_ms.push_back(number_after(cg.out, "Elapsed Time: ") / iterations);
  }
  std::vector<double> ref_ms;
  for (int r = 0; r < repeats; ++r) ref_ms.push_back(reference_cg_ms_per_iter(300, iterations));
  std::printf("RESULT cg_ms_per_iter %.3g ms\n", median(cg_ms));
  std::printf("RESULT cg_ref_ms_per_iter %.3g ms\n", median(ref_ms));
  std::printf("RESULT cg_over_ref %.3g\n", median(cg_ms) / median(ref_ms));
  return 0;
}
