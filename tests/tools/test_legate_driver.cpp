// The legate driver as users run it: flags become LEGATE_CONFIG, bad flags
// stop before the program runs.
#include <catch2/catch.hpp>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::testing;
using legato::trace::testing::TempDir;

TEST_CASE("legate runs the program with its flags in LEGATE_CONFIG", "[driver]") {
  TempDir dir;
  const auto r = run_command(bin("legate") + " --verbose --cpus 2 --sysmem 64 --profile --logdir " +
                             dir.path().string() + " " + bin("runtime_oom_program"));
  CHECK(r.status == 0);
  CHECK(r.out == "legate: running LEGATE_CONFIG='--cpus=2 --sysmem=64 --profile --logdir=" +
                     dir.path().string() + "' " + bin("runtime_oom_program") +
                     "\nno out-of-memory error\n");
  CHECK(std::filesystem::exists(dir.file("legate_0.prof")));
  // Flags given to the driver come after (and so win over) LEGATE_CONFIG.
  const auto env = run_command("LEGATE_CONFIG='--sysmem 40' " + bin("legate") +
                               " --verbose --sysmem 64 " + bin("runtime_oom_program"));
  CHECK(env.status == 0);
  CHECK(env.out.find("LEGATE_CONFIG='--sysmem 40 --sysmem=64'") != std::string::npos);
}

TEST_CASE("legate refuses bad flags before anything runs", "[driver]") {
  const auto r = run_command(bin("legate") + " --cpus=many " + bin("runtime_oom_program"));
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "legate: error: invalid value 'many' for --cpus in the legate command line: expected a "
        "whole number from 1 to "
        "1024\nRun 'legate --help' to list every flag.\n");
  const auto none = run_command(bin("legate") + " --cpus 2");
  CHECK(none.status == 1);
  CHECK(none.err.find("no program to run") != std::string::npos);
  const auto missing = run_command(bin("legate") + " ./no-such-program");
  CHECK(missing.status == 127);
  CHECK(missing.err ==
        "legate: error: cannot run './no-such-program': No such file or directory\n");
}

TEST_CASE("legate --help and --show-config", "[driver]") {
  const auto help = run_command(bin("legate") + " --help");
  CHECK(help.status == 0);
  CHECK(help.out.rfind("usage: legate [FLAGS] PROGRAM [ARGS...]", 0) == 0);
  CHECK(help.out.find("--min-cpu-chunk N") != std::string::npos);
  const auto show = run_command(bin("legate") + " --cpus 1 --sysmem 40 --show-config");
  CHECK(show.status == 0);
  CHECK(show.out.find("  sysmem          41943040 bytes (40 MiB)\n") != std::string::npos);
}

TEST_CASE("legate --version", "[driver]") {
  const auto r = run_command(bin("legate") + " --version");
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::StartsWith("legate 0.") && Catch::EndsWith(")\n"));
  CHECK(r.err.empty());
  CHECK_THAT(run_command(bin("legate") + " --help").out, Catch::Contains("--version"));
}

TEST_CASE("legate's numeric flags: negative, zero, huge, NaN and words stop it before the program",
          "[driver]") {
  for (const char* flag :
       {"--cpus", "--utility", "--sysmem", "--ranks-per-node", "--nodes", "--min-cpu-chunk"}) {
    for (const char* value : {"-1", "0", "nan", "inf", "1.5", "1e3", "0x10", "+2",
                              "99999999999999999999", "1 2", "many", ""}) {
      INFO(flag << " '" << value << "'");
      const auto r = run_command(bin("legate") + " " + flag + "='" + value + "' " +
                                 bin("runtime_oom_program"));
      CHECK(r.status == 1);
      CHECK(r.out.empty());
      CHECK_THAT(r.err, Catch::StartsWith("legate: error: ") && Catch::Contains(flag));
    }
  }
  // A flag that needs a value, given none at the end of the line.
  const auto none = run_command(bin("legate") + " --cpus");
  CHECK(none.status == 1);
  CHECK_THAT(none.err, Catch::StartsWith("legate: error: "));
}
