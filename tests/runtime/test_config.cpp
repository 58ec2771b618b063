// LEGATE_CONFIG as users write it: a table of good and bad strings with the
// settings or messages they must give.
#include <catch2/catch.hpp>

#include "runtime/config.hpp"

using namespace legato::rt;

namespace {
MachineInfo machine() {
  MachineInfo m;
  m.cores = 16;
  m.memory_bytes = uint64_t{10000} << 20;
  m.total_memory_bytes = uint64_t{16000} << 20;
  m.gpus = 0;
  m.gpu_problem = "no CUDA device";
  return m;
}
Config parse(const std::string& text) {
  return parse_config(split_config(text), machine());
}
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("LEGATE_CONFIG splits on spaces and groups quotes", "[config]") {
  CHECK(split_config("") == std::vector<std::string>{});
  CHECK(split_config("  --cpus=2   --profile ") ==
        std::vector<std::string>{"--cpus=2", "--profile"});
  CHECK(split_config("--logdir='/tmp/my dir' --profile-name \"a b\"") ==
        std::vector<std::string>{"--logdir=/tmp/my dir", "--profile-name", "a b"});
  CHECK_THROWS_WITH(split_config("--logdir='/tmp"),
                    "unterminated ' in LEGATE_CONFIG at position 9: close the quote");
  CHECK_THROWS_WITH(split_config("--a \"x"), Catch::Contains("unterminated \""));
}

TEST_CASE("good LEGATE_CONFIG strings give the settings they say", "[config]") {
  struct Case {
    const char* text;
    std::function<bool(const Config&)> check;
  };
  const std::vector<Case> cases = {
      {"",
       [](const Config& c) {
         return c.cpus == 14 && c.utility == 2 && c.sysmem == 8000 && !c.profile;
       }},
      {"--cpus=4", [](const Config& c) { return c.cpus == 4; }},
      {"--cpus 4", [](const Config& c) { return c.cpus == 4; }},
      {"--utility 4", [](const Config& c) { return c.cpus == 12 && c.utility == 4; }},
      {"--cpus=2 --cpus=3", [](const Config& c) { return c.cpus == 3; }},
      {"--profile", [](const Config& c) { return c.profile && c.provenance && c.profile_report; }},
      {"--profile=0",
       [](const Config& c) { return !c.profile && !c.provenance && !c.profile_report; }},
      {"--profile --profile-report=no", [](const Config& c) { return !c.profile_report; }},
      {"--profile=YES", [](const Config& c) { return c.profile; }},
      {"--profile t", [](const Config& c) { return c.profile; }},
      {"--profile --profile=f --profile=1", [](const Config& c) { return c.profile; }},
      {"--profile --provenance=n", [](const Config& c) { return c.profile && !c.provenance; }},
      {"--sysmem 40",
       [](const Config& c) { return c.sysmem == 40 && c.sysmem_bytes() == 41943040; }},
      {"--auto-config=0", [](const Config& c) { return c.cpus == 1 && c.sysmem == 256; }},
      {"--profile-name run1 --logdir=/tmp/x",
       [](const Config& c) { return c.profile_name == "run1" && c.logdir == "/tmp/x"; }},
      {"--min-cpu-chunk 4096 --window-size=8",
       [](const Config& c) { return c.min_cpu_chunk == 4096 && c.window_size == 8; }},
      {"--show-config", [](const Config& c) { return c.show_config; }},
      {"--help", [](const Config& c) { return c.help; }},
      {"--gpus=0 --fbmem 0",
       [](const Config& c) { return c.gpus == 0 && c.fbmem == 0 && c.zcmem == 0; }},
  };
  for (const Case& k : cases) {
    INFO("LEGATE_CONFIG='" << k.text << "'");
    Config c;
    REQUIRE_NOTHROW(c = parse(k.text));
    CHECK(k.check(c));
  }
}

TEST_CASE("bad LEGATE_CONFIG strings name the flag and what to do", "[config]") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"--cpus=abc",
       "invalid value 'abc' for --cpus in LEGATE_CONFIG: expected a whole number from 1 to 1024"},
      {"--cpus -1",
       "invalid value '-1' for --cpus in LEGATE_CONFIG: expected a non-negative number from 1 to "
       "1024"},
      {"--cpus=0", "value 0 for --cpus in LEGATE_CONFIG is out of range: use 1 to 1024"},
      {"--cpus=100000", "value 100000 for --cpus in LEGATE_CONFIG is out of range: use 1 to 1024"},
      {"--cpus", "--cpus in LEGATE_CONFIG needs a value, e.g. --cpus=1"},
      {"--cpus --profile", "--cpus in LEGATE_CONFIG needs a value, e.g. --cpus=1"},
      {"--cpu=4", "unknown option --cpu in LEGATE_CONFIG (did you mean --cpus?)"},
      {"--frobnicate", "unknown option --frobnicate in LEGATE_CONFIG"},
      {"cpus=4", "unexpected argument 'cpus=4' in LEGATE_CONFIG: options look like --cpus=4"},
      {"--profile=maybe",
       "invalid value 'maybe' for --profile in LEGATE_CONFIG: expected 1, t, true, y, yes, 0, f, "
       "false, n or no"},
      {"--sysmem=99999999999",
       "value 99999999999 for --sysmem in LEGATE_CONFIG is out of range: use 1 to 1073741824 MiB"},
      {"--sysmem=20000",
       "--sysmem 20000 in LEGATE_CONFIG is more than this machine's 16000 MiB of memory; ask for "
       "less"},
      {"--gpus 1",
       "--gpus 1 in LEGATE_CONFIG asks for 1 GPU(s) but 0 are available (no CUDA device); use "
       "--gpus=0"},
      {"--profile-name=a/b",
       "invalid value 'a/b' for --profile-name in LEGATE_CONFIG: use a plain file name prefix"},
      {"--logdir=", "--logdir in LEGATE_CONFIG needs a value"},
      {"--window-size=0", "value 0 for --window-size in LEGATE_CONFIG is out of range"},
  };
  for (const auto& [text, message] : cases) {
    INFO("LEGATE_CONFIG='" << text << "'");
    CHECK_THAT(error_of(text), Catch::StartsWith(message));
  }
}

TEST_CASE("show-config prints every setting with memory in bytes and MiB", "[config]") {
  const Config c = parse("--cpus 3 --sysmem 40 --show-config");
  const std::string s = c.summary();
  CHECK_THAT(s, Catch::Contains("  cpus            3\n"));
  CHECK_THAT(s, Catch::Contains("  sysmem          41943040 bytes (40 MiB)\n"));
  CHECK_THAT(s, Catch::Contains("  utility         2  (default)\n"));
  CHECK_THAT(s, Catch::Contains("  window-size     1024 operations  (default)\n"));
  CHECK(s.find("help") == std::string::npos);
  const std::string help = config_help();
  for (const char* flag :
       {"--cpus", "--utility", "--gpus", "--sysmem", "--fbmem", "--zcmem", "--profile",
        "--profile-name", "--profile-report", "--logdir", "--provenance", "--nsys", "--show-config",
        "--auto-config", "--min-cpu-chunk", "--min-gpu-chunk", "--window-size", "--help"}) {
    CHECK_THAT(help, Catch::Contains(std::string("  ") + flag + " "));
  }
  CHECK_THAT(help, Catch::Contains("[default: 2]"));
}

TEST_CASE("the framebuffer pool defaults to 90% of each rank's share of its GPU, refuses more",
          "[config]") {
  MachineInfo m = machine();
  m.gpus = 2;
  m.gpu_memory = {uint64_t{81559} << 20, uint64_t{81559} << 20};  // two H100s
  m.gpu_problem.clear();
  const auto parse_on = [&](const std::string& text) {
    return parse_config(split_config(text), m);
  };
  Config c = parse_on("--gpus 1");
  CHECK(c.fbmem == 81559 * 9 / 10);
  CHECK(c.zcmem == 128);
  CHECK(c.gpus_visible == 2);
  // 4 ranks on the machine, one GPU each: two ranks share each GPU.
  c = parse_on("--gpus 1 --ranks-per-node 4");
  CHECK(c.fbmem == 81559 / 2 * 9 / 10);
  CHECK(parse_on("--gpus 2 --fbmem 70000").fbmem == 70000);
  try {
    parse_on("--gpus 1 --fbmem 82000");
    FAIL("--fbmem beyond the GPU's memory was accepted");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(),
               Catch::StartsWith("--fbmem 82000 in LEGATE_CONFIG is more than the 81559 MiB each "
                                 "rank has of its GPU's memory (81559 MiB, shared by 1 rank(s)); "
                                 "leave 5-10% free: use --fbmem 73403 or less"));
  }
  try {
    parse_on("--gpus 3");
    FAIL("--gpus beyond the machine's GPUs was accepted");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("asks for 3 GPU(s) but 2 are available"));
  }
}
