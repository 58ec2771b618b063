// The registry of run readers: which reader reads a file (by content, never
// by name), what read_file refuses before any reader sees it, and a run's
// late edges (a Legion run's critical path) resolved by its reader's
// finishing step before the model reads them. Inputs: the sample trace, a
// real Legion log and a synthetic Legion run written through the test
// writer (legion_import/testing; nothing ran).
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "legion_import/import.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {
const std::string kGolden = std::string(LEGATO_SOURCE_DIR) + "/sample_traces/golden_v1.0.prof";
const std::string kLegion =
    std::string(LEGATO_SOURCE_DIR) + "/tests/legion_import/data/legatejl_85d792a6_legate_0.prof";

size_t late_edge_count(const analysis::RankTrace& t) {
  size_t n = 0;
  if (t.late_edges) {
    t.late_edges->for_each_block([&](analysis::LateEdges::Block b) {
      for (const auto& e : b) n += e.precondition != 0 ? 1 : 0;
    });
  }
  return n;
}
}  // namespace

TEST_CASE("the registry lists every reader once, the Legato trace reader last", "[load]") {
  const auto& readers = load::run_readers();
  REQUIRE(readers.size() >= 2);
  CHECK(readers.back() == &load::prof_reader());
  CHECK(std::find(readers.begin(), readers.end(), &legion::run_reader()) != readers.end());
  std::set<std::string_view> names;
  for (const auto* r : readers) names.insert(r->name());
  CHECK(names.size() == readers.size());
}

TEST_CASE("a file's reader is told by its content, never its name", "[load]") {
  TempDir dir;
  CHECK(&load::reader_for(kGolden) == &load::prof_reader());
  CHECK(&load::reader_for(kLegion) == &legion::run_reader());  // a Legion log named .prof
  // The same bytes under each other's names.
  const std::string legion_as_gz = dir.file("prof_0.gz"), golden_as_log = dir.file("prof_1.log");
  trace::testing::write_bytes(golden_as_log, trace::testing::read_bytes(kGolden));
  trace::testing::write_bytes(legion_as_gz, trace::testing::read_bytes(kLegion));
  CHECK(&load::reader_for(golden_as_log) == &load::prof_reader());
  CHECK(&load::reader_for(legion_as_gz) == &legion::run_reader());
  // What no reader recognizes goes to the last, whose errors say why.
  const std::string text = dir.file("notes.txt");
  std::ofstream(text) << "not a trace\n";
  CHECK(&load::reader_for(text) == &load::prof_reader());
  CHECK(&load::reader_for(dir.file("missing.prof")) == &load::prof_reader());

  const analysis::RankTrace legion = load::read_file(kLegion), golden = load::read_file(kGolden);
  CHECK(legion.readable);
  CHECK(legion.reader == "Legion Prof log");
  CHECK(golden.readable);
  CHECK(golden.reader == "Legato trace");
  const analysis::RankTrace bad = load::read_file(text);
  CHECK_FALSE(bad.readable);
  REQUIRE(bad.problems.size() == 1);
  CHECK(bad.problems.front().find(text) != std::string::npos);
}

TEST_CASE("read_file refuses a FIFO unopened, before any reader sees it", "[load]") {
  TempDir dir;
  const std::string fifo = dir.file("legate_0.prof");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(&load::reader_for(fifo) == &load::prof_reader());  // its head is never read
  const analysis::RankTrace t = load::read_file(fifo);     // returns: nothing blocks
  CHECK_FALSE(t.readable);
  REQUIRE(t.problems.size() == 1);
  CHECK(t.problems.front() == fifo + ": cannot open: Is a named pipe (FIFO), not a regular file");
}

TEST_CASE("a Legion run's late edges wait for its reader's finishing step", "[load]") {
  TempDir dir;
  legion::testing::write_synthetic_run(dir.path().string(), 2, 3000, false);
  std::vector<analysis::RankTrace> traces;
  for (const char* f : {"prof_0.prof", "prof_1.prof"})
    traces.push_back(load::read_file(dir.file(f)));
  for (const auto& t : traces) {
    REQUIRE(t.late_edges != nullptr);
    CHECK(t.late_edges->size_bound() == 0);  // unresolved: none given
    CHECK(late_edge_count(t) == 0);
    CHECK(t.all.get<trace::EdgeRecord>().empty());
  }
  // Named one run by their reader (Legion logs name none).
  load::name_runs(traces);
  CHECK(traces[0].run.id == traces[1].run.id);
  load::finish_run(traces);
  size_t edges = 0;
  for (const auto& t : traces) {
    const size_t n = late_edge_count(t);
    CHECK(n > 100);
    CHECK(n <= t.late_edges->size_bound());
    edges += n;
  }
  // The model reads them as edge records: the same preconditions as a
  // load of the files.
  const analysis::Profile p =
      load::load_profile({dir.file("prof_0.prof"), dir.file("prof_1.prof")});
  std::vector<analysis::RankTrace> again;
  for (const char* f : {"prof_0.prof", "prof_1.prof"})
    again.push_back(load::read_file(dir.file(f)));
  const analysis::Profile q = load::build_run(std::move(again));
  REQUIRE(p.pre.size() > 100);
  CHECK(p.pre.size() <= edges);
  CHECK(q.pre.size() == p.pre.size());
  CHECK(q.pre_block == p.pre_block);
  // Without the finishing step the model sees no links at all.
  std::vector<analysis::RankTrace> unfinished;
  for (const char* f : {"prof_0.prof", "prof_1.prof"})
    unfinished.push_back(load::read_file(dir.file(f)));
  load::name_runs(unfinished);
  CHECK(analysis::build_profile(std::move(unfinished)).pre.empty());
}
