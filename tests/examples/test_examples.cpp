// The seed workloads run as users run them: their answers, the OOM report
// and its fixes, what their traces hold, and their command lines.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {

std::string run_line(const std::string& config, const std::string& program,
                     const std::string& args = "") {
  return "LEGATE_CONFIG='" + config + "' " + testing::bin(program) + " " + args;
}

// The number printed after `label` (e.g. "checksum = ").
std::string field(const std::string& out, const std::string& label) {
  const size_t at = out.find(label);
  if (at == std::string::npos) return "(no '" + label + "' in output)";
  const size_t end = out.find_first_of(" \n", at + label.size());
  return out.substr(at + label.size(), end - at - label.size());
}

size_t task_count(const std::string& trace_file) {
  const trace::testing::Loaded l = trace::testing::load_file(trace_file);
  REQUIRE(l.clean);
  return l.records.get<trace::TaskRecord>().size();
}

}  // namespace

TEST_CASE("chunked and vectorized updates agree, and the chunked one launches many more tasks",
          "[examples][update]") {
  TempDir chunked, vectorized;
  const auto c = testing::run_command(run_line(
      "--cpus 2 --profile --logdir " + chunked.path().string(), "chunked_update", "--n 300000"));
  const auto v =
      testing::run_command(run_line("--cpus 2 --profile --logdir " + vectorized.path().string(),
                                    "vectorized_update", "--n 300000"));
  INFO(c.err << v.err);
  REQUIRE(c.status == 0);
  REQUIRE(v.status == 0);
  CHECK_THAT(c.out, Catch::Contains("over 300000 elements"));
  CHECK(field(c.out, "checksum = ") == field(v.out, "checksum = "));
  CHECK(std::stod(field(v.out, "time = ")) > 0);
  // 74 slices of 4096 elements, each a handful of small tasks.
  const size_t chunked_tasks = task_count(chunked.file("legate_0.prof"));
  const size_t vectorized_tasks = task_count(vectorized.file("legate_0.prof"));
  CHECK(chunked_tasks > 74 * 8);
  CHECK(chunked_tasks > 5 * vectorized_tasks);
  // Other sizes and seeds agree too.
  for (const std::string args : {"--n 1", "--n 4097 --seed 3", "--n 100000 --seed 9"}) {
    const auto c2 =
        testing::run_command(run_line("--cpus 2", "chunked_update", args + " --chunk 1000"));
    const auto v2 = testing::run_command(run_line("--cpus 2", "vectorized_update", args));
    INFO(args);
    CHECK(c2.status == 0);
    CHECK(field(c2.out, "checksum = ") == field(v2.out, "checksum = "));
  }
}

TEST_CASE("the OOM example ends in the seed's report, and both fixes make it fit",
          "[examples][oom]") {
  const std::string src = "examples/oom.cpp";
  const auto r = testing::run_command(run_line("--cpus 1 --sysmem 40", "oom"));
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::StartsWith("LEGATE ERROR: Failed to allocate 8388608 bytes on memory "));
  CHECK_THAT(r.err,
             Catch::Contains("(of kind SYSTEM_MEM) for store argument {1} of Task BinaryOpTask[" +
                             testing::line_of(src, "Array d = c + 3;") + "] (UID "));
  CHECK_THAT(r.err, Catch::Contains(
                        "There is not enough space because Legato is reserving 33554400 of the "
                        "available 41943040 bytes"));
  const std::string by = "\n      created for an operation launched at ";
  CHECK_THAT(r.err,
             Catch::Contains("LogicalStore allocated at " +
                             testing::line_of(src, "Array b = zeros(n);") + ":\n  Instance "));
  CHECK_THAT(r.err, Catch::Contains(" of size 8388592 covering elements <1>..<1048574>" + by +
                                    testing::line_of(src, "b.slice(1, -1).assign(a);") + "\n"));
  CHECK_THAT(r.err, Catch::Contains(" of size 8388608 covering elements <0>..<1048575>" + by +
                                    testing::line_of(src, "Array c = b + 2;") + "\n"));
  CHECK(r.out.find("sum = ") == std::string::npos);
  for (const std::string fix : {"--prefetch", "--in-place", "--stencil-hint"}) {
    const auto ok = testing::run_command(run_line("--cpus 1 --sysmem 40", "oom", fix));
    INFO(fix << ": " << ok.err);
    CHECK(ok.status == 0);
    CHECK(ok.out == "sum = 6291454.0 (expected 6291454.0)\n");
  }
}

TEST_CASE("cg converges and passes its check with the dense matrix and matrix-free",
          "[examples][cg]") {
  std::string iterations;
  for (const std::string args :
       {"-n 10 --check -t", "-n 10 --check --operator stencil", "-n 8 -k --check",
        "-n 8 -k --check --operator stencil", "-n 10 --pre --check -i 5"}) {
    const auto r = testing::run_command(run_line("--cpus 2", "cg", args));
    INFO(args << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("Converged in "));
    CHECK_THAT(r.out, Catch::Contains("PASS!"));
  }
  const auto dense = testing::run_command(run_line("--cpus 2", "cg", "-n 12 --operator dense"));
  const auto stencil = testing::run_command(run_line("--cpus 2", "cg", "-n 12 --operator stencil"));
  CHECK(field(dense.out, "Converged in ") == field(stencil.out, "Converged in "));
  CHECK_THAT(
      dense.out,
      Catch::Contains("Generating 144x144 2-D adjacency system without corners (dense matrix)"));
  // Too few iterations: a reported failure, not a crash.
  const auto few = testing::run_command(run_line("--cpus 2", "cg", "-n 10 -m 3"));
  CHECK(few.status == 0);
  CHECK_THAT(few.out, Catch::Contains("Convergence FAILURE!"));
  const auto timed = testing::run_command(run_line("--cpus 2", "cg", "-n 6 7 -t"));
  // Several sizes in one run, each timed.
  for (const std::string n : {"6", "7"}) {
    // "Elapsed Time: <ms> ms" directly above "N = <n>: <k> iterations".
    const auto at = timed.out.find("\nN = " + n + ": ");
    REQUIRE(at != std::string::npos);
    const auto line_start = timed.out.rfind('\n', at - 1) + 1;
    const std::string elapsed = timed.out.substr(line_start, at - line_start);
    CHECK_THAT(elapsed, Catch::StartsWith("Elapsed Time: ") && Catch::EndsWith(" ms"));
    CHECK(std::stod(elapsed.substr(14)) >= 0.0);
    const std::string result = timed.out.substr(at + 1, timed.out.find('\n', at + 1) - at - 1);
    CHECK_THAT(result, Catch::StartsWith("N = " + n + ": ") && Catch::Contains(" iterations"));
  }
}

TEST_CASE("stencil matches a plain C++ Jacobi", "[examples][stencil]") {
  for (const std::string args : {"-n 1 -i 3 --check", "-n 40 -i 20 -w 2 --check -t"}) {
    const auto r = testing::run_command(run_line("--cpus 2 --min-cpu-chunk 64", "stencil", args));
    INFO(args << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("PASS! (largest difference from the C++ reference: 0)"));
  }
}

TEST_CASE("every example explains itself and rejects bad arguments", "[examples][cli]") {
  for (const std::string program :
       {"chunked_update", "vectorized_update", "oom", "cg", "stencil"}) {
    INFO(program);
    const auto help = testing::run_command(testing::bin(program) + " --help");
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Catch::Contains("Usage:"));
    const auto bad = testing::run_command(testing::bin(program) + " --bogus");
    CHECK(bad.status != 0);
    CHECK_THAT(bad.err, Catch::Contains("--bogus"));
  }
  const auto negative = testing::run_command(testing::bin("vectorized_update") + " --n -5");
  CHECK(negative.status != 0);
  CHECK_THAT(negative.err, Catch::Contains("--n"));
  const auto op = testing::run_command(testing::bin("cg") + " --operator sparse");
  CHECK(op.status != 0);
  CHECK_THAT(op.err, Catch::Contains("sparse"));
}

TEST_CASE("a --profile run ends with its HTML report, and one that cannot be written is a warning",
          "[examples][report]") {
  TempDir dir;
  const std::string report = dir.file("legate_prof/index.html");
  const auto r = testing::run_command(run_line("--cpus 2 --profile --logdir " + dir.path().string(),
                                               "vectorized_update", "--n 50000"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  // stdout stays the program's; the report's line goes to stderr.
  CHECK(r.out.find("index.html") == std::string::npos);
  CHECK_THAT(r.err, Catch::Contains("wrote " + report));
  const std::string html = testing::slurp(report);
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  CHECK_THAT(html, Catch::Contains("id=\"legato-data\""));
  CHECK_THAT(html, Catch::EndsWith("</html>\n"));

  // --profile-report 0: traces only.
  TempDir quiet;
  const auto q = testing::run_command(
      run_line("--cpus 2 --profile --profile-report 0 --logdir " + quiet.path().string(),
               "vectorized_update", "--n 50000"));
  CHECK(q.status == 0);
  CHECK(std::filesystem::exists(quiet.file("legate_0.prof")));
  CHECK_FALSE(std::filesystem::exists(quiet.file("legate_prof")));

  // A file where the report's directory should be: the run still succeeds,
  // says how to write the report later, and leaves no index.html behind.
  TempDir blocked;
  { std::ofstream(blocked.file("legate_prof")) << "not a directory"; }
  const auto b = testing::run_command(run_line(
      "--cpus 2 --profile --logdir " + blocked.path().string(), "vectorized_update", "--n 50000"));
  INFO(b.err);
  CHECK(b.status == 0);
  CHECK_THAT(b.out, Catch::Contains("checksum = "));
  CHECK_THAT(b.err, Catch::Contains("legate: warning: the profile report was not written"));
  CHECK_THAT(b.err,
             Catch::Contains("write it later with: legate_prof archive " +
                             blocked.file("legate_0.prof") + " -o " + blocked.file("legate_prof")));
  CHECK(testing::slurp(blocked.file("legate_prof")) == "not a directory");
  CHECK(trace::testing::load_file(blocked.file("legate_0.prof")).clean);
}
