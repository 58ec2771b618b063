// Findings on the real Legion logs: the rules run on what the importer
// gives, find what is there (log B's tasks all on one of 16 CPUs), and say
// what they cannot check (no provenance: no lines).
#include <algorithm>

#include <catch2/catch.hpp>

#include "analysis/findings.hpp"
#include "analysis/load.hpp"
#include "log_editor.hpp"

using namespace legato;
using namespace legato::analysis;
using legion::testing::data_file;

TEST_CASE("Legion logs: findings from what the log holds, and what it lacks said") {
  for (const char* name : {"legatejl_85d792a6_legate_0.prof", "legatejl_97c70b58_legate_0.prof",
                           "legatejl_9d2e0080_legate_0.prof"}) {
    INFO(name);
    const Profile p = load_profile({data_file(name)});
    const Findings f = find(p);
    // The chain that ends the run: the four Julia tasks after the runtime
    // work that launched them.
    const auto path = std::find_if(f.findings.begin(), f.findings.end(),
                                   [](const Finding& x) { return x.rule == "critical_path"; });
    REQUIRE(path != f.findings.end());
    CHECK(path->evidence[0].value >= 8);
    CHECK(std::any_of(f.skipped.begin(), f.skipped.end(),
                      [](const Skipped& s) { return s.rule == "code lines"; }));
    for (const Finding& x : f.findings) CHECK(x.lines.empty());
  }
  // Log B ran all four of its tasks on c2, one of 16 CPUs.
  const Profile b = load_profile({data_file("legatejl_97c70b58_legate_0.prof")});
  const Findings f = find(b);
  const auto li = std::find_if(f.findings.begin(), f.findings.end(),
                               [](const Finding& x) { return x.rule == "load_imbalance"; });
  REQUIRE(li != f.findings.end());
  CHECK(li->summary.rfind("c2 was busy", 0) == 0);
  CHECK(li->evidence[3].value == Approx(16.0).epsilon(0.01));
  for (uint32_t i : li->items) CHECK(b.items[i].kind == ItemKind::Task);
}
