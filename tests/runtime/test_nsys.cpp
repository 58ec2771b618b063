// --nsys: with an NVTX tool attached (a stand-in for Nsight Systems that
// counts ranges, tests/runtime/nvtx_injection.cpp), every point task and
// every dependence analysis and mapping is one range, named as in the
// trace; without --nsys nothing is marked. Builds without the CUDA toolkit
// refuse --nsys.
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch.hpp>

#include "load/load.hpp"
#include "runtime/config.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

#ifdef LEGATO_HAVE_CUDA
namespace {

struct Counts {
  long pushes = 0, pops = 0;
  std::map<std::string, long> ranges;
};

Counts read_log(const std::string& path) {
  Counts c;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string what;
    s >> what;
    if (what == "pushes") s >> c.pushes;
    if (what == "pops") s >> c.pops;
    if (what == "range") {
      const size_t last = line.rfind(' ');
      c.ranges[line.substr(6, last - 6)] = std::stol(line.substr(last + 1));
    }
  }
  return c;
}

Counts run(const TempDir& dir, const std::string& flags) {
  const auto r = testing::run_command(
      "NVTX_INJECTION64_PATH=" + testing::bin("libnvtx_counting_injection.so") +
      " LEGATO_NVTX_LOG=" + dir.file("nvtx.log") + " LEGATE_CONFIG='--cpus 2 --utility 1 " + flags +
      " --profile-report 0 --logdir " + dir.path().string() + "' " +
      testing::bin("vectorized_update") + " --n 200000");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  return read_log(dir.file("nvtx.log"));
}

}  // namespace

TEST_CASE("with nsys every point task and runtime step is one NVTX range", "[nsys]") {
  TempDir dir;
  const Counts c = run(dir, "--nsys --profile");
  CHECK(c.pushes > 0);
  CHECK(c.pops == c.pushes);
  // The same work the trace recorded, by name.
  const analysis::Profile p = load::load_profile({dir.file("legate_0.prof")});
  std::map<std::string, long> traced;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const analysis::ItemKind k = p.items[i].kind;
    if (k == analysis::ItemKind::Task || k == analysis::ItemKind::MetaTask) ++traced[p.label(i)];
  }
  for (const char* name : {"BinaryOpTask", "PutmaskTask", "Dependence Analysis", "Mapping"}) {
    INFO(name);
    const auto it = c.ranges.find(name);
    REQUIRE(it != c.ranges.end());
    CHECK(it->second == traced[name]);
  }
}

TEST_CASE("without nsys nothing is marked", "[nsys]") {
  TempDir dir;
  const Counts c = run(dir, "");
  CHECK(c.pushes == 0);
}
#else
TEST_CASE("nsys needs a build with the CUDA toolkit", "[nsys]") {
  rt::MachineInfo m;
  m.cores = 2;
  m.memory_bytes = uint64_t{1024} << 20;
  CHECK_THROWS_WITH(rt::parse_config({"--nsys"}, m), Catch::Contains("has no NVTX"));
}
#endif
