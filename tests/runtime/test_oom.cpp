// The seeds' OOM example: the report names the operation, the memory kind,
// and the stores and instances holding the memory; the trace holds the
// marker and is finished; the process exits non-zero.
#include <catch2/catch.hpp>
#include <fstream>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {
// "file:line" of the line of oom_program.cpp tagged "// [tag]".
std::string at(const std::string& tag) {
  return testing::line_of("tests/runtime/oom_program.cpp", "// [" + tag + "]");
}
}  // namespace

TEST_CASE("running out of system memory gives the seed-style report", "[runtime][oom]") {
  TempDir dir;
  const auto r =
      testing::run_command("LEGATE_CONFIG='--cpus 1 --sysmem 40 --profile --logdir " +
                           dir.path().string() + "' " + testing::bin("runtime_oom_program"));
  CHECK(r.status == 1);
  INFO(r.err);
  const std::string head = "LEGATE ERROR: Failed to allocate 8388608 bytes on memory ";
  CHECK_THAT(r.err, Catch::StartsWith(head));
  CHECK_THAT(r.err,
             Catch::Contains("(of kind SYSTEM_MEM) for store argument {1} of Task add_scalar[" +
                             at("d = c + 3") + "] (UID "));
  CHECK_THAT(r.err, Catch::Contains(
                        "corresponding to a LogicalStore allocated at " + at("d") +
                        " There is not enough space because Legato is reserving 33554400 of the "
                        "available 41943040 bytes for the following LogicalStores:\n"));
  // Newest first: c, then b (two instances), then a.
  const size_t c = r.err.find("LogicalStore allocated at " + at("c") + ":\n  Instance ");
  const size_t b = r.err.find("LogicalStore allocated at " + at("b") + ":\n  Instance ");
  const size_t a = r.err.find("LogicalStore allocated at " + at("a") + ":\n  Instance ");
  REQUIRE(c != std::string::npos);
  REQUIRE(b != std::string::npos);
  REQUIRE(a != std::string::npos);
  CHECK(c < b);
  CHECK(b < a);
  const std::string by = "\n      created for an operation launched at ";
  CHECK_THAT(r.err, Catch::Contains(" of size 8388608 covering elements <0>..<1048575>" + by +
                                    at("c = b + 2") + "\n"));
  CHECK_THAT(r.err, Catch::Contains(" of size 8388592 covering elements <1>..<1048574>" + by +
                                    at("b[1:-1] = a") + "\n"));
  CHECK_THAT(r.err, Catch::Contains(" of size 8388592 covering elements <0>..<1048573>" + by +
                                    at("b[1:-1] = a") + "\n"));
  CHECK(r.out.find("no out-of-memory error") == std::string::npos);

  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  CHECK(l.clean);
  REQUIRE(l.records.get<trace::ErrorRecord>().size() == 1);
  const trace::ErrorRecord& e = l.records.get<trace::ErrorRecord>()[0];
  CHECK(e.error_kind == trace::ErrorKind::OutOfMemory);
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
  CHECK_THAT(strings[e.text], Catch::StartsWith("Failed to allocate 8388608 bytes"));
  // The instances that filled the pool are in the trace, alive at the end.
  CHECK(l.records.get<trace::InstanceRecord>().size() >= 4);
}

TEST_CASE("the same program fits in a pool that is large enough", "[runtime][oom]") {
  const auto r = testing::run_command("LEGATE_CONFIG='--cpus 1 --sysmem 64' " +
                                      testing::bin("runtime_oom_program"));
  CHECK(r.status == 0);
  CHECK(r.out == "no out-of-memory error\n");
}

TEST_CASE("a bad LEGATE_CONFIG stops the program before anything is written", "[runtime][config]") {
  TempDir dir;
  const auto r =
      testing::run_command("LEGATE_CONFIG='--cpus=lots --profile --logdir " + dir.path().string() +
                           "' " + testing::bin("runtime_oom_program"));
  CHECK(r.status == 1);
  CHECK(r.err ==
        "LEGATE ERROR: invalid value 'lots' for --cpus in LEGATE_CONFIG: expected a whole number "
        "from 1 to 1024\n"
        "Run with LEGATE_CONFIG=\"--help\" to list every option and its default.\n");
  CHECK(std::filesystem::is_empty(dir.path()));
  const auto help =
      testing::run_command("LEGATE_CONFIG=--help " + testing::bin("runtime_oom_program"));
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Catch::Contains("--sysmem N"));
  const auto show = testing::run_command("LEGATE_CONFIG='--show-config --cpus 1 --sysmem 64' " +
                                         testing::bin("runtime_oom_program"));
  CHECK(show.status == 0);
  CHECK_THAT(show.out, Catch::StartsWith("Legato configuration (automatic sizing):\n"));
  CHECK_THAT(show.out, Catch::Contains("  sysmem          67108864 bytes (64 MiB)\n"));
  CHECK_THAT(show.out, Catch::EndsWith("no out-of-memory error\n"));
}

TEST_CASE("a task that throws ends the run with the task and its call site", "[runtime][fatal]") {
  TempDir dir;
  const auto r =
      testing::run_command("LEGATE_CONFIG='--cpus 1 --profile --logdir " + dir.path().string() +
                           "' " + testing::bin("runtime_failing_task_program"));
  CHECK(r.status == 1);
  const std::string src =
      std::string(LEGATO_SOURCE_DIR) + "/tests/runtime/failing_task_program.cpp";
  CHECK_THAT(r.err, Catch::StartsWith("LEGATE ERROR: task bad_task [" + src + ":"));
  CHECK_THAT(r.err, Catch::Contains("(point 0) threw: index 7 is out of bounds"));
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  CHECK(l.clean);
  REQUIRE(l.records.get<trace::ErrorRecord>().size() == 1);
  CHECK(l.records.get<trace::ErrorRecord>()[0].error_kind == trace::ErrorKind::Fatal);
}

TEST_CASE("an index out of bounds ends a gather or scatter with its call site and the index",
          "[runtime][fatal]") {
  const std::string src = std::string(LEGATO_SOURCE_DIR) + "/tests/runtime/bad_index_program.cpp";
  for (const std::string mode : {"gather", "scatter"}) {
    INFO(mode);
    TempDir dir;
    const auto r =
        testing::run_command("LEGATE_CONFIG='--cpus 2 --profile --logdir " + dir.path().string() +
                             "' " + testing::bin("runtime_bad_index_program") + " " + mode);
    CHECK(r.status == 1);
    CHECK(r.out.empty());  // the program never got the gathered values
    CHECK_THAT(r.err, Catch::StartsWith("LEGATE ERROR: " + mode + " [" + src + ":"));
    CHECK_THAT(r.err, Catch::Contains("]: index 12 is out of bounds for an axis of size 10"));
    trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
    CHECK(l.clean);
    REQUIRE(l.records.get<trace::ErrorRecord>().size() == 1);
    CHECK(l.records.get<trace::ErrorRecord>()[0].error_kind == trace::ErrorKind::Fatal);
  }
}
