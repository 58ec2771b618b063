// NCCL without a GPU: the library loads through dlopen in CUDA builds (the
// toolkit here ships it) or says why; and the ranks' choice between NCCL
// and MPI for combining GPU results, from every rank's answer.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/gpu/nccl.hpp"
#include "runtime/ranks/nccl_collectives.hpp"

using namespace legato::rt;

TEST_CASE("NCCL loads at run time in CUDA builds, or says why in words", "[gpu]") {
  std::string problem;
  const std::unique_ptr<gpu::Nccl> nccl = gpu::Nccl::load(&problem);
#ifdef LEGATO_HAVE_CUDA
  INFO(problem);
  REQUIRE(nccl != nullptr);  // the toolkit's copy, found through the build's NCCL directory
  const std::string version = nccl->version();
  std::printf("NCCL %s\n", version.c_str());
  CHECK(version.rfind("2.", 0) == 0);
  CHECK(std::count(version.begin(), version.end(), '.') == 2);
#else
  CHECK(nccl == nullptr);
  CHECK_THAT(problem, Catch::Contains("no CUDA support"));
#endif
}

TEST_CASE("ranks use NCCL only when every rank can and no two share a GPU", "[gpu]") {
  // As the ranks send them: "+" and the GPU's identity, or "-" and why not.
  const auto refusal = [](const std::vector<std::string>& wire) {
    std::vector<NcclAnswer> answers;
    for (const std::string& w : wire) answers.push_back(NcclAnswer::from_wire(w));
    return GpuCollectives::refusal(answers);
  };
  CHECK(refusal({"+a 0000:3b:00.0", "+a 0000:5e:00.0", "+b 0000:3b:00.0"}) == "");
  const std::string shared = refusal({"+a 0000:3b:00.0", "+a 0000:3b:00.0"});
  CHECK_THAT(shared, Catch::Contains("rank 1 shares its GPU (a 0000:3b:00.0)"));
  CHECK_THAT(shared, Catch::Contains("one rank per GPU"));
  const std::string missing = refusal({"+a 0000:3b:00.0", "-libnccl.so.2 could not be loaded"});
  CHECK(missing == "rank 1: libnccl.so.2 could not be loaded");
  CHECK(refusal({"+a 0000:3b:00.0", ""}) == "rank 1: no answer");
}
