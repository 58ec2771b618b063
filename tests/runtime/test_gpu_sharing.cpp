// Which ranks share a GPU and whether MPS is on, from every rank's GPUs as
// they travel between ranks; the warning and the metadata that say so.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/ranks/gpu_sharing.hpp"

using namespace legato::rt;

namespace {

// Every rank's GPUs through the wire, as check_gpu_sharing exchanges them.
std::vector<SharedGpu> exchanged(const std::vector<std::vector<RankGpu>>& ranks) {
  std::vector<std::vector<RankGpu>> got;
  for (const auto& r : ranks) got.push_back(gpus_from_wire(gpus_to_wire(r)));
  return shared_gpus(got);
}

}  // namespace

TEST_CASE("ranks on one GPU are found, with MPS on only when every rank's context uses it",
          "[gpu_sharing]") {
  const RankGpu a_off{"a 0000:3b:00.0", false}, a_on{"a 0000:3b:00.0", true},
      a_unknown{"a 0000:3b:00.0", std::nullopt}, a2{"a 0000:5e:00.0", false},
      b{"b 0000:3b:00.0", false};

  SECTION("one GPU per rank, same bus id on other hosts: nothing shared") {
    CHECK(exchanged({{a_off}, {a2}, {b}}).empty());
  }
  SECTION("four ranks on one GPU without MPS") {
    const auto s = exchanged({{a_off}, {a_off}, {a_off}, {a_off}, {b}});
    REQUIRE(s.size() == 1);
    CHECK(s[0].gpu == "a 0000:3b:00.0");
    CHECK(s[0].ranks == std::vector<int>{0, 1, 2, 3});
    CHECK(s[0].mps == false);
    const nlohmann::json j = s[0].to_json();
    CHECK(j["gpu"] == "a 0000:3b:00.0");
    CHECK(j["ranks"] == nlohmann::json::array({0, 1, 2, 3}));
    CHECK(j["mps"] == false);
    CHECK_THAT(s[0].warning(),
               Catch::StartsWith("ranks 0, 1, 2 and 3 share one GPU (a 0000:3b:00.0) without "
                                 "CUDA MPS") &&
                   Catch::Contains("nvidia-cuda-mps-control -d"));
  }
  SECTION("MPS on for every rank") {
    const auto s = exchanged({{a_on}, {a_on}});
    REQUIRE(s.size() == 1);
    CHECK(s[0].mps == true);
    CHECK(s[0].to_json()["mps"] == true);
  }
  SECTION("one rank without MPS makes the GPU shared without it") {
    CHECK(exchanged({{a_on}, {a_off}, {a_on}})[0].mps == false);
    CHECK(exchanged({{a_unknown}, {a_off}})[0].mps == false);
  }
  SECTION("a rank that cannot say leaves it unknown: null in the metadata") {
    const auto s = exchanged({{a_on}, {a_unknown}});
    REQUIRE(s.size() == 1);
    CHECK_FALSE(s[0].mps.has_value());
    CHECK(s[0].to_json()["mps"].is_null());
  }
  SECTION("ranks with two GPUs each, overlapping on one") {
    const auto s = exchanged({{a_off, a2}, {a2}, {b}});
    REQUIRE(s.size() == 1);
    CHECK(s[0].gpu == "a 0000:5e:00.0");
    CHECK(s[0].ranks == std::vector<int>{0, 1});
  }
  SECTION("two ranks: the list reads 0 and 1") {
    CHECK_THAT(exchanged({{a_off}, {a_off}})[0].warning(), Catch::StartsWith("ranks 0 and 1 "));
  }
}

TEST_CASE("a rank's GPUs survive the wire, unknown MPS included", "[gpu_sharing]") {
  const std::vector<RankGpu> gpus = {
      {"host-1 0000:3b:00.0", true}, {"host-1 0000:5e:00.0", false}, {"h 1", std::nullopt}};
  const std::vector<RankGpu> back = gpus_from_wire(gpus_to_wire(gpus));
  REQUIRE(back.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(back[i].gpu == gpus[i].gpu);
    CHECK(back[i].mps == gpus[i].mps);
  }
  CHECK(gpus_from_wire("").empty());
  CHECK(gpus_from_wire(gpus_to_wire({})).empty());
}
