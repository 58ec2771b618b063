// Several ranks over MPI: the legate driver's --launcher mpirun, a program
// started directly by mpirun with LEGATE_CONFIG, one trace per rank on one
// time axis with the measured clock offsets in the metadata, rank 0's report
// of every rank, clear errors for rank counts that do not fit or a missing
// launcher, and readable traces after one rank is killed mid-run.
#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>

#include "analysis/rank_trace.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {

std::string mpirun(int ranks) {
  return "mpirun --allow-run-as-root --oversubscribe -n " + std::to_string(ranks) + " ";
}

}  // namespace

TEST_CASE("four ranks through the legate driver write aligned traces and one report", "[mpi]") {
  TempDir dir;
  const auto r = testing::run_command(
      testing::bin("legate") + " --ranks-per-node 4 --launcher mpirun --cpus 1 --utility 1 " +
      "--profile --logdir " + dir.path().string() + " " + testing::bin("cg") + " -n 12 -m 10");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> files;
  for (int rank = 0; rank < 4; ++rank)
    files.push_back(dir.file("legate_" + std::to_string(rank) + ".prof"));
  const analysis::Profile p = load::load_profile(files);
  CHECK(p.warnings.empty());
  REQUIRE(p.ranks.size() == 4);
  CHECK(p.nodes.size() == 4);
  CHECK(p.ranks_expected == 4);
  for (const auto& rank : p.ranks) {
    INFO("rank " << rank.rank);
    CHECK(rank.finished_cleanly);
    CHECK(rank.metadata["run"]["ranks"] == 4);
    if (rank.rank == 0) continue;
    // On one host the clocks are the same: the measured offset is within its
    // uncertainty (plus scheduling noise on an oversubscribed machine).
    const auto& a = rank.metadata["clock_alignment"];
    REQUIRE(a.is_object());
    const int64_t offset = a["offset_ns"], uncertainty = a["uncertainty_ns"];
    CHECK(uncertainty > 0);
    CHECK(std::llabs(offset) <= uncertainty + 2'000'000);
    CHECK(rank.metadata["clock_alignment_at_finish"].is_object());
  }
  // Every rank's top-level task starts within a few ms of the others on the common axis.
  std::vector<analysis::Time> starts;
  for (const auto& lane : p.lanes) {
    if (lane.kind == analysis::LaneKind::Io && lane.end > lane.begin)
      starts.push_back(p.items[lane.begin].start);
  }
  REQUIRE(starts.size() == 4);
  CHECK(*std::max_element(starts.begin(), starts.end()) -
            *std::min_element(starts.begin(), starts.end()) <
        2'000'000'000);
  CHECK(std::filesystem::exists(dir.file("legate_prof/index.html")));
  CHECK_THAT(r.err, Catch::Contains("from 4 rank(s)"));  // legate_prof archive, on stderr
}

TEST_CASE("a program started by mpirun reads its shape from LEGATE_CONFIG", "[mpi]") {
  TempDir dir;
  const auto r = testing::run_command("LEGATE_CONFIG='--cpus 1 --utility 1 --profile --logdir " +
                                      dir.path().string() + "' " + mpirun(2) +
                                      testing::bin("vectorized_update") + " --n 100000");
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const analysis::Profile p =
      load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof")});
  CHECK(p.warnings.empty());
  CHECK(p.nodes.size() == 2);
  CHECK(p.ranks[0].metadata["run"]["id"] == p.ranks[1].metadata["run"]["id"]);
}

TEST_CASE("rank counts that do not fit and missing launchers are errors before anything runs",
          "[mpi]") {
  TempDir dir;
  auto r =
      testing::run_command("LEGATE_CONFIG='--ranks-per-node 4 --logdir " + dir.path().string() +
                           "' " + mpirun(2) + testing::bin("cg") + " -n 8");
  CHECK(r.status != 0);
  CHECK_THAT(r.err, Catch::Contains("ask for 4 rank(s) but the launcher started 2"));
  // Said once (by rank 0), not by every rank.
  CHECK(r.err.find("LEGATE ERROR") == r.err.rfind("LEGATE ERROR"));
  r = testing::run_command(testing::bin("legate") + " --ranks-per-node 2 " + testing::bin("cg") +
                           " -n 8");
  CHECK(r.status != 0);
  CHECK_THAT(r.err, Catch::Contains("this process was not started by a launcher"));
  r = testing::run_command("PATH=/nonexistent " + testing::bin("legate") +
                           " --ranks-per-node 2 --launcher mpirun " + testing::bin("cg"));
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("'mpirun' is not installed"));
  r = testing::run_command(testing::bin("legate") + " --launcher pbs " + testing::bin("cg"));
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("--launcher pbs: expected mpirun, srun or none"));
  r = testing::run_command(testing::bin("legate") +
                           " --ranks-per-node 2 --launcher mpirun --verbose --cpu-bind core " +
                           testing::bin("cg") + " -n 4 -m 2");
  CHECK_THAT(r.out, Catch::Contains("mpirun -n 2 --npernode 2"));
  CHECK_THAT(r.out, Catch::Contains("--bind-to core --mca odls_base_sigkill_timeout 5"));
}

TEST_CASE("killing one rank mid-run leaves readable traces for every rank", "[mpi]") {
  TempDir dir;
  // A long stencil in the background; rank 1 is killed once it is under way.
  const std::string cmd = testing::bin("legate") +
                          " --ranks-per-node 4 --launcher mpirun --cpus 1 --utility 1 --profile "
                          "--logdir " +
                          dir.path().string() + " " + testing::bin("stencil") +
                          " -n 300 -i 100000000 >" + dir.file("out") + " 2>&1 & echo $!";
  const auto started = testing::run_command(cmd);
  REQUIRE(started.status == 0);
  // The rank's pid is in its trace's metadata, written with the first frame.
  int64_t pid = 0;
  // The bounds on these waits only stop a hang: generous for a loaded machine.
  for (int tries = 0; tries < 2400 && pid == 0; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto t = legato::load::read_file(dir.file("legate_1.prof"));  // never throws
    if (t.readable) pid = t.run.pid;
  }
  REQUIRE(pid > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  REQUIRE(::kill(static_cast<pid_t>(pid), SIGKILL) == 0);
  // mpirun stops the other ranks (SIGTERM), which finish their files. ([s] keeps
  // pgrep from matching the shell that runs it.)
  for (int tries = 0; tries < 2400; ++tries) {
    if (testing::run_command("pgrep -f '[s]tencil -n 300 -i 100000000'").status != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (int rank = 0; rank < 4; ++rank) {
    INFO("rank " << rank << "\n" << testing::slurp(dir.file("out")));
    const auto t = legato::load::read_file(dir.file("legate_" + std::to_string(rank) + ".prof"));
    REQUIRE(t.readable);
    CHECK(t.run.rank == rank);
    CHECK(t.finished_cleanly == (rank != 1));  // the killed rank's file was cut short
  }
  const analysis::Profile p =
      load::load_profile({dir.file("legate_0.prof"), dir.file("legate_1.prof"),
                          dir.file("legate_2.prof"), dir.file("legate_3.prof")});
  CHECK(p.nodes.size() == 4);
}
