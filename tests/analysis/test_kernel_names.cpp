// GPU kernels by their short names: the names CUPTI gives (whole demangled
// signatures, as recorded on an H200) shortened, and a loaded trace's
// kernels renamed with their signatures kept. The traces are synthetic,
// written through the public writer API (nothing ran).
#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/kernel_names.hpp"
#include "load/load.hpp"
#include "synthetic_trace.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using analysis::testing::SyntheticTrace;
using trace::testing::TempDir;

namespace {

const std::string kBinary =
    "void legato::rt::kernels::(anonymous namespace)::binary_kernel<float, unsigned char, "
    "legato::rt::kernels::(anonymous namespace)::LtOp>(legato::rt::kernels::cuda::Shape, "
    "legato::rt::kernels::Operand<float>, legato::rt::kernels::Operand<float>, unsigned char*, "
    "long, legato::rt::kernels::(anonymous namespace)::LtOp)";

}  // namespace

TEST_CASE("a kernel's short name drops its return type, parameters and qualifiers", "[kernels]") {
  CHECK(short_kernel_name(kBinary) == "binary_kernel<float, unsigned char, LtOp>");
  CHECK(short_kernel_name("void legato::rt::kernels::(anonymous namespace)::random_kernel<float>("
                          "legato::rt::kernels::cuda::Shape, float*, unsigned long, unsigned "
                          "long, unsigned long)") == "random_kernel<float>");
  // Templates inside template arguments, and a function-type argument.
  CHECK(short_kernel_name("void cub::DeviceReduceKernel<cub::Policy<int>, std::pair<int, "
                          "float>, int (*)(int)>(int const*, int*)") ==
        "DeviceReduceKernel<Policy<int>, pair<int, float>, int (*)(int)>");
  // No return type (not a template), no parameters, no qualifiers.
  CHECK(short_kernel_name("ns::fill_kernel(int*, long)") == "fill_kernel");
  CHECK(short_kernel_name("fill_kernel") == "fill_kernel");
  // What is not a signature stays as it is: task names, Legion's names.
  CHECK(short_kernel_name("BinaryOpTask") == "BinaryOpTask");
  CHECK(short_kernel_name("Stop Runtime Threads") == "Stop Runtime Threads");
  CHECK(short_kernel_name("") == "");
}

TEST_CASE("a loaded trace shows kernels by their short names and keeps the signatures",
          "[kernels]") {
  TempDir dir;
  const std::string overload_a = "void ns::scale(float*, long)";
  const std::string overload_b = "void ns::scale(double*, long)";
  {
    SyntheticTrace t(dir.file("legate_0.prof"));
    const uint32_t host = t.processor(trace::ProcKind::GpuHost, 0, "g0h");
    const uint32_t device = t.processor(trace::ProcKind::GpuDevice, 0, "g0d");
    const uint32_t kind = t.task_kind("BinaryOpTask");
    trace::Time at = 1000;
    for (const std::string& name : {kBinary, kBinary, overload_a, overload_b}) {
      const trace::Uid task = t.task(host, kind, at, at + 1000);
      t.writer().add(
          trace::GpuKernelRecord{task, device, t.writer().intern(name), 0, at + 100, at + 900});
      at += 2000;
    }
    t.finish();
  }
  const Profile p = legato::load::load_profile({dir.file("legate_0.prof")});
  std::map<std::string, int> kernels;
  std::map<std::string, std::string> signature;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != ItemKind::GpuKernel) continue;
    ++kernels[p.label(i)];
    signature[p.label(i)] = details(p, i).signature;
  }
  // Overloads, whose short names would be alike, keep their signatures.
  CHECK(kernels == std::map<std::string, int>{{"binary_kernel<float, unsigned char, LtOp>", 2},
                                              {overload_a, 1},
                                              {overload_b, 1}});
  CHECK(signature["binary_kernel<float, unsigned char, LtOp>"] == kBinary);
  CHECK(signature[overload_a].empty());
  REQUIRE(p.kernel_signatures.size() == 1);
  CHECK(p.str(p.kernel_signatures[0].second) == kBinary);
  // Task names are left alone.
  for (uint32_t i = 0; i < p.items.size(); ++i)
    if (p.items[i].kind == ItemKind::Task) CHECK(p.label(i) == "BinaryOpTask");
}
