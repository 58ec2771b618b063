// Arrays split across ranks: the seed workloads give the same results on 1,
// 2 and 4 ranks; the traffic between ranks of a program with known needs is
// exactly what had to move (network channel copies with their bytes, one
// all-reduce per sum); no item starts before its preconditions on other
// ranks finished, on the aligned time axis.
#include <cmath>
#include <cstdint>
#include <map>
#include <regex>

#include <catch2/catch.hpp>

#include "load/load.hpp"
#include "tools/run_command.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;

namespace {

testing::CommandResult run_ranks(int ranks, const std::string& program, const std::string& args,
                                 const std::string& flags = "") {
  return testing::run_command(testing::bin("legate") + " --ranks-per-node " +
                              std::to_string(ranks) +
                              " --launcher mpirun --cpus 1 --utility 1 --sysmem 256 " + flags +
                              " " + testing::bin(program) + " " + args);
}

// The lines of `out` that match `pattern`.
std::vector<std::string> lines(const std::string& out, const std::string& pattern) {
  std::vector<std::string> found;
  const std::regex re(pattern);
  size_t at = 0;
  while (at < out.size()) {
    const size_t end = std::min(out.find('\n', at), out.size());
    std::string line = out.substr(at, end - at);
    at = end + 1;
    if (std::regex_search(line, re)) found.push_back(std::move(line));
  }
  return found;
}

int lines_matching(const std::string& out, const std::string& pattern) {
  return static_cast<int>(lines(out, pattern).size());
}

// The first `count` numbers in the lines of `out` that match `pattern`, for
// every rank (each rank prints its own; all must agree).
std::vector<double> numbers(const std::string& out, const std::string& pattern, int ranks,
                            size_t count = SIZE_MAX) {
  const std::regex number_re(R"([-+]?[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?)");
  std::vector<std::vector<double>> per_line;
  for (const std::string& line : lines(out, pattern)) {
    std::vector<double> v;
    for (std::sregex_iterator it(line.begin(), line.end(), number_re), stop; it != stop; ++it)
      v.push_back(std::stod(it->str()));
    if (v.size() > count) v.resize(count);
    per_line.push_back(v);
  }
  REQUIRE(per_line.size() == static_cast<size_t>(ranks));
  for (const auto& v : per_line) CHECK(v == per_line.front());
  return per_line.front();
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("number " << i);
    CHECK(got[i] == Approx(want[i]).epsilon(1e-9).margin(1e-12));
  }
}

struct Workload {
  const char* program;
  const char* args;
  const char* result_line;  // a regex for the line with the results
  size_t count;             // how many of its numbers are results
};

}  // namespace

TEST_CASE("the seed workloads give the same results on 1, 2 and 4 ranks", "[mpi]") {
  const Workload workloads[] = {
      {"vectorized_update", "--n 300000", "^checksum", 2},
      {"chunked_update", "--n 300000 --chunk 20000", "^checksum", 2},
      // Size, iterations and the residual norms (not the times).
      {"cg", "-n 10 --check", "iterations, residual", 4},
      {"stencil", "-n 40 -i 20 --check", "^Mean interior", 1},
  };
  for (const Workload& w : workloads) {
    std::vector<double> one;
    for (int ranks : {1, 2, 4}) {
      INFO(w.program << " " << w.args << " on " << ranks << " rank(s)");
      const auto r = run_ranks(ranks, w.program, w.args);
      INFO(r.out << r.err);
      REQUIRE(r.status == 0);
      const std::vector<double> got = numbers(r.out, w.result_line, ranks, w.count);
      if (ranks == 1) {
        one = got;
      } else {
        check_close(got, one);
      }
      if (std::string(w.args).find("--check") != std::string::npos)
        CHECK(lines_matching(r.out, "PASS") == ranks);  // every rank passed its check
    }
  }
}

TEST_CASE("a copy into an instance that runs late does not overwrite newer data", "[mpi]") {
  // late_copy_program: a copy of a[k] into rank 0's new instance of a waits
  // behind a copy of 8M elements while a newer a[k] arrives from rank 1.
  const auto r = run_ranks(2, "distributed_late_copy_program", "4000 8000000");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(lines_matching(r.out, "PASS$") == 2);
}

TEST_CASE("what moves between ranks is what had to, recorded with its bytes", "[mpi]") {
  for (int ranks : {2, 4}) {
    TempDir dir;
    constexpr int64_t k = 5000;
    const int64_t n = ranks * k + 1;
    const auto r = run_ranks(ranks, "distributed_halo_program", std::to_string(n),
                             "--profile --profile-report 0 --logdir " + dir.path().string());
    INFO(ranks << " ranks\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    // b[i] = 2i + 1: the sum is (n - 1)^2.
    const std::vector<double> got = numbers(r.out, "^sum", ranks);
    check_close(got, {static_cast<double>((n - 1) * (n - 1)), 1.0, 2.0 * (n - 2) + 1});

    std::vector<std::string> files;
    for (int q = 0; q < ranks; ++q)
      files.push_back(dir.file("legate_" + std::to_string(q) + ".prof"));
    const analysis::Profile p = load::load_profile(files);
    CHECK(p.warnings.empty());
    REQUIRE(p.nodes.size() == static_cast<size_t>(ranks));

    // Bytes and copies per network channel, and all-reduces per rank.
    std::map<std::string, std::pair<uint64_t, int>> moved;
    std::map<uint32_t, int> allreduces;
    for (const analysis::Lane& lane : p.lanes) {
      if (lane.kind != analysis::LaneKind::Channel) continue;
      for (uint32_t i = lane.begin; i < lane.end; ++i) {
        const analysis::CopyInfo& c = *p.copy_of(p.items[i]);
        if (lane.name.rfind("all-reduce", 0) == 0) {
          CHECK(c.kind == trace::CopyKind::Reduce);
          ++allreduces[lane.rank];
        } else if (lane.name.find(" sysmem to node ") != std::string::npos) {
          moved[lane.name].first += c.bytes;
          ++moved[lane.name].second;
        }
      }
    }
    // Each rank but the last gets one element of the next rank's block of a
    // (the halo), and every rank gets the other ranks' blocks of b (k
    // elements each) to read b back.
    std::map<std::string, std::pair<uint64_t, int>> want;
    for (int q = 0; q < ranks; ++q) {
      for (int from = 0; from < ranks; ++from) {
        if (from == q) continue;
        auto& w = want["node " + std::to_string(from) + " sysmem to node " + std::to_string(q) +
                       " sysmem"];
        w = {k * sizeof(double), 1};
        if (from == q + 1) w = {w.first + sizeof(double), 2};
      }
    }
    CHECK(moved == want);
    for (int q = 0; q < ranks; ++q) CHECK(allreduces[static_cast<uint32_t>(q)] == 1);

    // On the aligned axis, nothing starts before what it waited for on
    // another rank finished (within the ranks' clock uncertainties).
    std::vector<int64_t> uncertainty(static_cast<size_t>(ranks), 0);
    for (const auto& rank : p.ranks) {
      if (rank.rank != 0)
        uncertainty[rank.rank] = rank.metadata["clock_alignment"]["uncertainty_ns"];
    }
    std::vector<uint32_t> rank_of(p.items.size());
    for (const analysis::Lane& lane : p.lanes) {
      for (uint32_t i = lane.begin; i < lane.end; ++i) rank_of[i] = lane.rank;
    }
    int cross = 0;
    for (uint32_t i = 0; i < p.items.size(); ++i) {
      const auto [first, last] = p.recorded_preconditions(i);
      for (const analysis::Precondition* c = first; c != last; ++c) {
        const uint32_t j = c->item;
        if (rank_of[i] == rank_of[j]) continue;
        ++cross;
        const int64_t slack = uncertainty[rank_of[i]] + uncertainty[rank_of[j]] + 10'000;
        INFO(p.label(i) << " on rank " << rank_of[i] << " after " << p.label(j) << " on rank "
                        << rank_of[j]);
        CHECK(static_cast<int64_t>(p.items[i].start) + slack >=
              static_cast<int64_t>(p.items[j].stop()));
      }
    }
    // Every transfer waited for the task that produced its data on the sender.
    CHECK(cross >= ranks * (ranks - 1));
  }
}
