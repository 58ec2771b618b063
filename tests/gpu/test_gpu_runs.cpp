// The seed workloads on GPU processors (--gpus 1), as a user runs them:
// the same results as on CPUs; a profile with GPU Host tasks, their kernels
// on the GPU Device lane (every kernel matched to its task, inside it on the
// fitted clock), copies to and from the framebuffer on channel lanes with
// their bytes; framebuffer exhaustion reported as GPU_FB_MEM; four ranks
// sharing one GPU; nonzero, gathers and scatters on the GPU, and an index
// out of bounds reported there as on CPUs. Needs a GPU: without one it says why and is skipped.
#define CATCH_CONFIG_RUNNER
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <regex>

#include "analysis/findings.hpp"
#include "load/load.hpp"
#include "runtime/gpu/probe.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {

testing::CommandResult run(const std::string& program, const std::string& args,
                           const std::string& flags) {
  return testing::run_command(testing::bin("legate") + " --cpus 2 " + flags + " " +
                              testing::bin(program) + " " + args);
}

// The numbers of the first line of out that matches pattern.
std::vector<double> numbers(const std::string& out, const std::string& pattern) {
  const std::regex line_re(pattern), number_re(R"([-+]?[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?)");
  std::smatch m;
  std::string::const_iterator at = out.begin();
  while (at != out.end()) {
    auto end = std::find(at, out.end(), '\n');
    const std::string line(at, end);
    at = end == out.end() ? end : end + 1;
    if (!std::regex_search(line, line_re)) continue;
    std::vector<double> v;
    for (std::sregex_iterator it(line.begin(), line.end(), number_re), stop; it != stop; ++it)
      v.push_back(std::stod(it->str()));
    return v;
  }
  return {};
}

constexpr size_t kNoNoise = ~size_t{0};

// What the copies on channel lanes moved into the framebuffer ("sysmem to
// fbmem0", "zcmem to fbmem0") and out of it ("fbmem0 to sysmem"), and how
// many moved nothing.
struct FramebufferTraffic {
  uint64_t in = 0, out = 0;
  size_t empty = 0;
};

FramebufferTraffic framebuffer_traffic(const analysis::Profile& p) {
  FramebufferTraffic t;
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind != analysis::LaneKind::Channel) continue;
    const bool in = lane.name.find("to fbmem") != std::string::npos;
    const bool out = !in && lane.name.find("fbmem0 to") != std::string::npos;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (p.items[i].kind != analysis::ItemKind::Copy) continue;
      const uint64_t bytes = p.copy_of(p.items[i])->bytes;
      if (bytes == 0) ++t.empty;
      if (in) t.in += bytes;
      if (out) t.out += bytes;
    }
  }
  return t;
}

}  // namespace

TEST_CASE("the seed workloads give the CPU's results on a GPU", "[gpu]") {
  // A result line's first `count` numbers must agree. A GPU sums in another
  // order than the CPU, so a number that is itself rounding noise (cg's final
  // residual, 1e-14 of the initial one) is compared on the scale of the
  // number at `scale` (the initial residual) instead of its own.
  struct Workload {
    const char* program;
    const char* args;
    const char* result_line;
    size_t count;
    size_t noise = kNoNoise;  // index of the number that is rounding noise
    size_t scale = 0;         // index of the number that sets its scale
  };
  const Workload workloads[] = {
      {"vectorized_update", "--n 2000000", "^checksum", 2},
      {"chunked_update", "--n 2000000 --chunk 200000", "^checksum", 2},
      {"cg", "-n 40 --check", "iterations, residual", 4, 3, 2},
      {"stencil", "-n 200 -i 20 --check", "^Mean interior", 1},
  };
  for (const Workload& w : workloads) {
    INFO(w.program << " " << w.args);
    const auto cpu = run(w.program, w.args, "");
    const auto gpu = run(w.program, w.args, "--gpus 1");
    INFO("CPU:\n" << cpu.out << cpu.err << "GPU:\n" << gpu.out << gpu.err);
    REQUIRE(cpu.status == 0);
    REQUIRE(gpu.status == 0);
    std::vector<double> want = numbers(cpu.out, w.result_line);
    std::vector<double> got = numbers(gpu.out, w.result_line);
    REQUIRE(want.size() >= w.count);
    REQUIRE(got.size() >= w.count);
    for (size_t i = 0; i < w.count; ++i) {
      INFO("number " << i << ": CPU " << want[i] << ", GPU " << got[i]);
      if (i == w.noise)
        CHECK(std::abs(got[i] - want[i]) <= 1e-9 * std::abs(want[w.scale]));
      else
        CHECK(got[i] == Approx(want[i]).epsilon(1e-9));
    }
    if (std::string(w.args).find("--check") != std::string::npos)
      CHECK(gpu.out.find("PASS") != std::string::npos);
  }
}

TEST_CASE("the array tests pass on a GPU", "[gpu]") {
  // Every array operation the CPU tests check, with a GPU in each runtime
  // (the trace checks expect CPU lanes, so they are left out).
  const auto r = testing::run_command("LEGATO_TEST_EXTRA_CONFIG='--gpus 1' " +
                                      testing::bin("test_arrays") + " '~[trace]'");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
}

TEST_CASE("a profiled GPU run has GPU Host tasks, their kernels and framebuffer copies", "[gpu]") {
  TempDir dir;
  const auto r = run("vectorized_update", "--n 4000000",
                     "--gpus 1 --profile --profile-report 0 --logdir " + dir.path().string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  CHECK(p.warnings.empty());
  std::map<analysis::LaneKind, int> items;
  std::map<analysis::LaneKind, int> lanes;
  for (const analysis::Lane& lane : p.lanes) {
    ++lanes[lane.kind];
    items[lane.kind] += static_cast<int>(lane.end - lane.begin);
  }
  const FramebufferTraffic traffic = framebuffer_traffic(p);
  CHECK(traffic.empty == 0);
  CHECK(lanes[analysis::LaneKind::GpuHost] == 1);
  CHECK(lanes[analysis::LaneKind::GpuDevice] == 1);
  CHECK(lanes[analysis::LaneKind::Framebuffer] == 1);
  CHECK(lanes[analysis::LaneKind::ZeroCopy] == 1);
  CHECK(items[analysis::LaneKind::GpuHost] > 10);
  CHECK(items[analysis::LaneKind::GpuDevice] >= items[analysis::LaneKind::GpuHost]);
  CHECK(items[analysis::LaneKind::Framebuffer] > 0);
  // The random inputs are made on the GPU (RandTask's CUDA variant), so
  // nothing moves into the framebuffer, and the checksum is a sum's value,
  // not an array read back.
  CHECK(traffic.in == 0);
  CHECK(traffic.out == 0);
  size_t random_on_gpu = 0, random_elsewhere = 0;
  for (const analysis::Lane& lane : p.lanes)
    for (uint32_t i = lane.begin; i < lane.end; ++i)
      if (p.items[i].kind == analysis::ItemKind::Task && p.label(i) == "RandTask")
        ++(lane.kind == analysis::LaneKind::GpuHost ? random_on_gpu : random_elsewhere);
  CHECK(random_on_gpu >= 2);  // x and y
  CHECK(random_elsewhere == 0);

  // The startup's and the shutdown's GPU steps, inside them on the IO lane.
  std::map<std::string, std::pair<analysis::Time, analysis::Time>> runtime_work;
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind != analysis::LaneKind::Io) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i)
      if (p.items[i].kind == analysis::ItemKind::MetaTask)
        runtime_work[p.label(i)] = {p.items[i].start, p.items[i].stop()};
  }
  const std::map<std::string, std::vector<std::string>> steps = {
      {"Runtime Startup", {"Start GPUs", "Start Runtime Threads"}},
      {"Runtime Shutdown", {"Stop Runtime Threads", "Collect GPU Activity", "Free GPU Memory"}}};
  for (const auto& [whole, parts] : steps) {
    REQUIRE(runtime_work.count(whole) == 1);
    for (const std::string& step : parts) {
      INFO(whole << ": " << step);
      REQUIRE(runtime_work.count(step) == 1);
      CHECK(runtime_work[step].first >= runtime_work[whole].first);
      CHECK(runtime_work[step].second <= runtime_work[whole].second);
    }
  }

  // Every kernel is tied to a task on the GPU Host lane and runs within it.
  const nlohmann::json& activity = p.ranks.at(0).metadata.at("gpu_activity");
  INFO(activity.dump());
  CHECK(activity.at("unmatched") == 0);
  CHECK(activity.at("dropped") == 0);
  const double error_ns = activity.at("clock_fit").at("max_error_ns").get<double>();
  CHECK(error_ns < 2000);
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind != analysis::LaneKind::GpuDevice) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      const analysis::Item& k = p.items[i];
      if (k.kind != analysis::ItemKind::GpuKernel) continue;
      const uint32_t task = p.kernel_of(k)->task;
      REQUIRE(task != analysis::kNone);
      const analysis::Item& t = p.items[task];
      CHECK(k.start + static_cast<analysis::Time>(error_ns) + 1000 >= t.start);
      CHECK(k.stop() <= t.stop() + static_cast<analysis::Time>(error_ns) + 1000);
    }
  }
}

TEST_CASE("an array read on the CPU is copied out of the framebuffer", "[gpu]") {
  // stencil --check compares the whole grid with plain C++ (to_vector).
  TempDir dir;
  const auto r = run("stencil", "-n 200 -i 5 --check",
                     "--gpus 1 --profile --profile-report 0 --logdir " + dir.path().string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("PASS") != std::string::npos);
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  CHECK(framebuffer_traffic(p).out >= 200 * 200 * sizeof(double));  // the grid, at least once
}

TEST_CASE("nonzero, gathers and scatters stay on the GPU", "[gpu]") {
  TempDir dir;
  const auto r = run("chunked_update", "--n 1000000 --chunk 250000",
                     "--gpus 1 --profile --profile-report 0 --logdir " + dir.path().string());
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  size_t nonzero_on_gpu = 0, nonzero_elsewhere = 0;
  std::map<trace::CopyKind, size_t> in_framebuffer, elsewhere;
  for (const analysis::Lane& lane : p.lanes) {
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      const analysis::Item& it = p.items[i];
      const bool runs =
          it.kind == analysis::ItemKind::Task || it.kind == analysis::ItemKind::DepPart;
      if (runs && p.label(i) == "NonzeroTask")
        ++(lane.kind == analysis::LaneKind::GpuHost ? nonzero_on_gpu : nonzero_elsewhere);
      if (lane.kind != analysis::LaneKind::Channel || it.kind != analysis::ItemKind::Copy) continue;
      const trace::CopyKind kind = p.copy_of(it)->kind;
      const bool fb = lane.name.find("fbmem0 to fbmem0") != std::string::npos;
      (fb ? in_framebuffer : elsewhere)[kind] += 1;
    }
  }
  INFO("lanes: " << [&] {
    std::string names;
    for (const analysis::Lane& lane : p.lanes) names += lane.name + "; ";
    return names;
  }());
  // The program's nonzero, and one per masked read or write of the loop
  // (sub[gt1], sub[~gt1]: 4 per chunk).
  CHECK(nonzero_on_gpu == 1 + 4 * 4);
  CHECK(nonzero_elsewhere == 0);
  CHECK(in_framebuffer[trace::CopyKind::Gather] >= 1);   // z_alt[cond_idx]
  CHECK(in_framebuffer[trace::CopyKind::Scatter] >= 1);  // z[cond_idx] = ...
  CHECK(elsewhere[trace::CopyKind::Gather] == 0);
  CHECK(elsewhere[trace::CopyKind::Scatter] == 0);
}

TEST_CASE("a full framebuffer gives the out-of-memory report for GPU_FB_MEM", "[gpu]") {
  const auto r = run("oom", "", "--gpus 1 --fbmem 12");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("(of kind GPU_FB_MEM)") != std::string::npos);
  CHECK(r.err.find("Raise --fbmem") != std::string::npos);
}

TEST_CASE("an index out of bounds stops a gather or scatter run on the GPU", "[gpu]") {
  for (const std::string mode : {"gather", "scatter"}) {
    const auto r = run("runtime_bad_index_program", mode, "--gpus 1");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::StartsWith("LEGATE ERROR: " + mode + " ["));
    CHECK_THAT(r.err, Catch::Contains("]: index 12 is out of bounds for an axis of size 10"));
  }
}

TEST_CASE("four ranks share one GPU", "[gpu]") {
  TempDir dir;
  const auto r = testing::run_command(
      testing::bin("legate") +
      " --ranks-per-node 4 --launcher mpirun --cpus 1 --utility 1 --gpus 1 --fbmem 1024 "
      "--profile --profile-report 0 --logdir " +
      dir.path().string() + " " + testing::bin("cg") + " -n 30 --check");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  size_t passes = 0;
  for (size_t at = r.out.find("PASS"); at != std::string::npos; at = r.out.find("PASS", at + 1))
    ++passes;
  CHECK(passes == 4);
  // NCCL takes one rank per GPU: results are combined over MPI, and rank 0 says why.
  CHECK_THAT(r.err, Catch::Contains("combined over MPI, not NCCL: rank 1 shares its GPU"));
  // Every rank records the GPU it shares, and whether MPS was on; without
  // MPS rank 0 warns once and the findings name it.
  std::vector<std::string> files;
  for (int rank = 0; rank < 4; ++rank)
    files.push_back(dir.file("legate_" + std::to_string(rank) + ".prof"));
  const analysis::Profile p = load::load_profile(files);
  REQUIRE(p.ranks.size() == 4);
  nlohmann::json mps;
  for (const analysis::RankInfo& rank : p.ranks) {
    const nlohmann::json& s = rank.metadata.at("gpu_sharing");
    REQUIRE(s.size() == 1);
    CHECK(s[0]["ranks"] == nlohmann::json::array({0, 1, 2, 3}));
    mps = s[0]["mps"];
  }
  REQUIRE(mps.is_boolean());
  const analysis::Findings f = analysis::find(p);
  const bool found = std::any_of(f.findings.begin(), f.findings.end(),
                                 [](const analysis::Finding& x) { return x.rule == "shared_gpu"; });
  const std::string warning = "ranks 0, 1, 2 and 3 share one GPU";
  if (mps == false) {
    CHECK_THAT(r.err, Catch::Contains(warning) && Catch::Contains("without CUDA MPS"));
    CHECK(r.err.find(warning) == r.err.rfind(warning));  // once
    CHECK(found);
  } else {
    CHECK_THAT(r.err, !Catch::Contains(warning));
    CHECK_FALSE(found);
  }
}

TEST_CASE("four ranks on one GPU gather and scatter the CPU's results", "[gpu]") {
  // Gathers through a global index array bring whole arrays to each rank's
  // host memory, replacing instances as they grow: with a small zero-copy
  // memory the new ones go to system memory; with room, zero-copy instances
  // are replaced and collected while copies from them may still be queued.
  const std::string args = "--n 2000000 --chunk 100000";
  const auto cpu = run("chunked_update", args, "");
  REQUIRE(cpu.status == 0);
  const std::vector<double> want = numbers(cpu.out, "^checksum");
  REQUIRE(want.size() == 2);
  for (const char* zcmem : {"16", "256"}) {
    const std::string flags =
        " --ranks-per-node 4 --launcher mpirun --cpus 1 --utility 1 --gpus 1"
        " --fbmem 1024 --zcmem " +
        std::string(zcmem) + " ";
    const auto r = testing::run_command(testing::bin("legate") + flags +
                                        testing::bin("chunked_update") + " " + args);
    INFO("--zcmem " << zcmem << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    const std::vector<double> got = numbers(r.out, "^checksum");
    REQUIRE(got.size() == 2);
    CHECK(got[0] == Approx(want[0]).epsilon(1e-9));
  }
}

TEST_CASE("two ranks on two GPUs combine their results with NCCL", "[gpu]") {
  if (legato::rt::gpu::probe().devices < 2) {
    WARN("one GPU: NCCL needs a GPU per rank, so this machine cannot run it");
    return;
  }
  TempDir dir;
  const auto r = testing::run_command(
      testing::bin("legate") +
      " --ranks-per-node 2 --launcher mpirun --cpus 1 --utility 1 --gpus 1 --fbmem 1024 "
      "--profile --profile-report 0 --logdir " +
      dir.path().string() + " " + testing::bin("cg") + " -n 30 --check");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("not NCCL") == std::string::npos);
  const analysis::Profile p =
      load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  size_t combined = 0;
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind == analysis::LaneKind::Channel && lane.name.find("(NCCL ") != std::string::npos)
      combined += lane.end - lane.begin;
  }
  CHECK(combined > 0);  // cg's dot products and norms, on every rank
}

int main(int argc, char** argv) {
  const legato::rt::gpu::Probe probe = legato::rt::gpu::probe();
  if (probe.devices == 0) {
    std::printf("SKIPPED: no usable GPU (%s)\n", probe.problem.c_str());
    return 77;  // ctest: skipped
  }
  return Catch::Session().run(argc, argv);
}
