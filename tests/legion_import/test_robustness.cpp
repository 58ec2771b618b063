// Fixtures built from the real logs in the tests: gzip, truncation, unknown
// kinds and ids, bad headers, shuffled and older layouts, two runs, two nodes,
// random bytes. None may crash.
#include <sys/stat.h>

#include <filesystem>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "legion_import/import.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "log_editor.hpp"
#include "trace_format/metadata.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

bool has_warning(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// What must not change between two loads of the same content.
struct Summary {
  size_t items = 0, lanes = 0, waits = 0, pre = 0, operations = 0, instances = 0;
  Time start = 0, stop = 0;
  std::vector<Time> starts, stops;
  bool operator==(const Summary&) const = default;
};
Summary summarize(const Profile& p) {
  Summary s{p.items.size(),     p.lanes.size(), p.waits.size(), p.pre.size(), p.operations.size(),
            p.instances.size(), p.start,        p.stop,         {},           {}};
  for (const Item& it : p.items) {
    s.starts.push_back(it.start);
    s.stops.push_back(it.stop());
  }
  return s;
}

std::vector<uint8_t> prefix(const std::vector<uint8_t>& b, size_t n) {
  return {b.begin(), b.begin() + static_cast<ptrdiff_t>(std::min(n, b.size()))};
}

}  // namespace

TEST_CASE("a gzip log loads exactly like the plain one", "[legion][robust]") {
  TempDir dir;
  const std::string gz = dir.file("prof_0.gz"), odd = dir.file("legion.prof");
  write_file(gz, gzip(read_file(data_file(kA))));
  write_file(odd, gzip(read_file(data_file(kA))));  // gzip under a .prof name: content decides
  const Profile plain = legato::load::load_profile({data_file(kA)});
  for (const auto& path : {gz, odd}) {
    const RankTrace t = legion::import_log(path);
    CHECK(t.readable);
    CHECK(t.records == 2167);
    CHECK(t.metadata["legion"]["compressed"] == true);
    const Profile p = legato::load::load_profile({path});
    CHECK(summarize(p) == summarize(plain));
    CHECK(p.warnings.empty());
  }
}

TEST_CASE("a plain log cut anywhere loads its complete records with a warning",
          "[legion][robust]") {
  TempDir dir;
  const auto bytes = read_file(data_file(kA));
  const std::string cut = dir.file("cut.prof");
  for (const auto& [at, records] : {std::pair<size_t, uint64_t>{50000, 1156}, {100000, 2163}}) {
    INFO("cut at " << at);
    write_file(cut, prefix(bytes, at));
    const RankTrace t = legion::import_log(cut);
    CHECK(t.readable);
    CHECK(t.records == records);
    CHECK_FALSE(t.finished_cleanly);
    CHECK(has_warning(t.problems, "cut off"));
    const Profile p = legato::load::load_profile({cut});  // never a LoadError
    CHECK(has_warning(p.warnings, "byte offset"));
    CHECK(has_warning(p.warnings, "not finished"));
  }
  // Every cut inside the records: a prefix, never a failure.
  uint64_t last = 0;
  for (size_t at = 8202; at <= bytes.size(); at += 997) {
    write_file(cut, prefix(bytes, at));
    const RankTrace t = legion::import_log(cut);
    REQUIRE(t.readable);
    CHECK(t.records >= last);
    last = t.records;
  }
  // Cut inside the header: a clear error naming the file, no crash.
  write_file(cut, prefix(bytes, 4000));
  const RankTrace h = legion::import_log(cut);
  CHECK_FALSE(h.readable);
  REQUIRE_FALSE(h.problems.empty());
  CHECK_THAT(h.problems[0], Catch::Contains(cut) && Catch::Contains("header"));
  CHECK_THROWS_AS(legato::load::load_profile({cut}), LoadError);
}

TEST_CASE("a gzip stream cut anywhere loads a prefix with a warning", "[legion][robust]") {
  TempDir dir;
  const auto plain = read_file(data_file(kA));
  const auto gz = gzip(plain);
  const std::string cut = dir.file("cut.gz");
  uint64_t last = 0;
  for (size_t at : {gz.size() / 3, gz.size() / 2, gz.size() - 100, gz.size() - 4}) {
    INFO("cut at " << at << " of " << gz.size());
    write_file(cut, prefix(gz, at));
    const RankTrace t = legion::import_log(cut);
    CHECK(t.readable);
    CHECK(t.records <= 2167);
    if (at < gz.size() - 8) CHECK(t.records < 2167);  // else only the trailer is lost
    CHECK(t.records >= last);
    last = t.records;
    CHECK_FALSE(t.finished_cleanly);
    CHECK(has_warning(t.problems, "byte offset"));
    CHECK_NOTHROW(legato::load::load_profile({cut}));
  }
}

TEST_CASE("gzip members in a row are one stream, and a bad trailer is a warning",
          "[legion][robust]") {
  TempDir dir;
  const auto plain = read_file(data_file(kA));
  const Summary whole = summarize(legato::load::load_profile({data_file(kA)}));
  // Inflated inline, and on a thread of its own (as a load with a spare core does).
  for (const bool ahead : {false, true}) {
    INFO((ahead ? "inflated ahead" : "inflated inline"));
    const auto load = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
      const std::string path = dir.file(name);
      write_file(path, bytes);
      return legion::import_log(path, legion::Links::FileAlone,
                                analysis::ReadHints::with_spare_core(ahead));
    };
    // Two members, cut inside a record (as `cat a.gz b.gz` joins them).
    const size_t half = plain.size() / 2 + 3;
    auto two = gzip(std::vector<uint8_t>(plain.begin(), plain.begin() + half));
    const auto rest = gzip(std::vector<uint8_t>(plain.begin() + half, plain.end()));
    two.insert(two.end(), rest.begin(), rest.end());
    RankTrace t = load("two.gz", two);
    CHECK(t.records == 2167);
    CHECK(t.finished_cleanly);
    CHECK(t.problems.empty());
    CHECK(summarize(legato::load::load_profile({dir.file("two.gz")})) == whole);
    // Bytes after the last member that start no member are ignored (as zlib does).
    auto tail = gzip(plain);
    for (const char c : std::string("trailing bytes")) tail.push_back(static_cast<uint8_t>(c));
    t = load("tail.gz", tail);
    CHECK(t.records == 2167);
    CHECK(t.finished_cleanly);
    // A wrong CRC or length in the trailer: every record, and a warning saying so.
    for (const size_t from_end : {size_t{6}, size_t{2}}) {
      auto bad = gzip(plain);
      bad[bad.size() - from_end] ^= 0xff;
      t = load("bad.gz", bad);
      CHECK(t.records == 2167);
      CHECK_FALSE(t.finished_cleanly);
      CHECK(has_warning(t.problems,
                        "byte offset 100304: the gzip stream ends early (incorrect data check"));
    }
    // Refused at its first line while megabytes more wait to be inflated:
    // the error, and no thread left behind.
    std::string other = "FileType: Something\n\n";
    other.resize(size_t{6} << 20, 'x');
    t = load("other.gz", gzip(std::vector<uint8_t>(other.begin(), other.end())));
    CHECK_FALSE(t.readable);
    REQUIRE_FALSE(t.problems.empty());
    CHECK_THAT(t.problems[0], Catch::Contains("other.gz:1: not a BinaryLegionProf log"));
    // Only the magic: a clear error naming the file.
    t = load("magic.gz", {0x1f, 0x8b});
    CHECK_FALSE(t.readable);
    REQUIRE_FALSE(t.problems.empty());
    CHECK_THAT(t.problems[0], Catch::Contains("magic.gz:1: the gzip stream cannot be read"));
  }
  // Cut anywhere: inflated ahead, the same records and problems as inline.
  const auto gz = gzip(plain);
  const std::string cut = dir.file("cut.gz");
  for (size_t at : {size_t{10}, gz.size() / 3, gz.size() - 4}) {
    write_file(cut, std::vector<uint8_t>(gz.begin(), gz.begin() + static_cast<long>(at)));
    const RankTrace ahead = legion::import_log(cut, legion::Links::FileAlone,
                                               analysis::ReadHints::with_spare_core(true));
    const RankTrace inline_t = legion::import_log(cut);
    CHECK(ahead.readable == inline_t.readable);
    CHECK(ahead.records == inline_t.records);
    CHECK(ahead.problems == inline_t.problems);
  }
}

TEST_CASE("a plain log loaded with a core to spare imports as one loaded without",
          "[legion][robust]") {
  TempDir dir;
  // Enough records for the spare core to prefault tables many times over.
  legion::testing::write_synthetic_run(dir.path().string(), 1, 100000, false);
  const std::string whole = dir.file("prof_0.prof"), cut = dir.file("cut.prof");
  const auto bytes = read_file(whole);
  for (const size_t size : {bytes.size(), bytes.size() * 2 / 3}) {
    INFO("file of " << size << " bytes");
    write_file(cut, prefix(bytes, size));
    RankTrace spare = legion::import_log(cut, legion::Links::FileAlone,
                                         analysis::ReadHints::with_spare_core(true));
    RankTrace alone = legion::import_log(cut);
    CHECK(spare.records == alone.records);
    CHECK(spare.problems == alone.problems);
    CHECK(spare.records > 2 * 16384);
    std::vector<RankTrace> a, b;
    a.push_back(std::move(spare));
    b.push_back(std::move(alone));
    CHECK(summarize(build_profile(std::move(a))) == summarize(build_profile(std::move(b))));
  }
}

TEST_CASE("a record kind the importer does not know is skipped and named", "[legion][robust]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  e.layout("EventWaitInfo")->name = "FooInfo";
  for (auto& r : e.records) {
    if (r.kind == "EventWaitInfo") r.kind = "FooInfo";
  }
  const std::string path = dir.file("foo.prof");
  write_file(path, e.encode());
  const RankTrace t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.records == 2167);
  CHECK(has_warning(t.problems, "skipped 8 records"));
  CHECK(has_warning(t.problems, "FooInfo (8)"));
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  CHECK(summarize(p) == summarize(a));
}

TEST_CASE("an undeclared record id stops decoding there with its offset", "[legion][robust]") {
  TempDir dir;
  auto bytes = read_file(data_file(kA));
  bytes.insert(bytes.end(), {0x63, 0x00, 0x00, 0x00, 0xff, 0xff});
  const std::string path = dir.file("id99.prof");
  write_file(path, bytes);
  const RankTrace t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.records == 2167);
  CHECK(has_warning(t.problems, "byte offset 100304: record id 99 is not declared"));
  const Profile p = legato::load::load_profile({path});
  CHECK(summarize(p) == summarize(legato::load::load_profile({data_file(kA)})));
}

TEST_CASE("files that are not binary Legion logs are clear errors", "[legion][robust]") {
  TempDir dir;
  const auto error_of = [&](const std::string& name, const std::string& content) {
    const std::string path = dir.file(name);
    write_file(path, std::vector<uint8_t>(content.begin(), content.end()));
    CHECK(legion::is_legion_log(path));
    const RankTrace t = legion::import_log(path);
    CHECK_FALSE(t.readable);
    CHECK_THROWS_AS(legato::load::load_profile({path}), LoadError);
    return t.problems.empty() ? std::string() : t.problems.front();
  };
  CHECK_THAT(error_of("other.prof", "FileType: Something\n\n"),
             Catch::Contains("other.prof:1: not a BinaryLegionProf log"));
  CHECK_THAT(error_of("noid.prof",
                      "FileType: BinaryLegionProf v: 1.0\nZeroTime zero_time:long long:8\n\n"),
             Catch::Contains("noid.prof:2:"));
  CHECK_THAT(error_of("ascii.log", "[0 - 7f3c] {4}{legion_prof}: Prof Task Info 1 2 3 4 5 6\n"),
             Catch::Contains("ascii.log:1: a text-format Legion Prof log"));
  CHECK_THAT(error_of("later.log", "Legion starting\nmore\n[0 - 7f] {4}{legion_prof}: Prof\n"),
             Catch::Contains("later.log:3: a text-format"));
  // Legato's own traces are never taken for Legion logs, whatever they hold.
  const std::string legato = dir.file("legate_0.prof");
  const std::string fake = "LGTOPROF... {legion_prof}: Prof Task Info";
  write_file(legato, std::vector<uint8_t>(fake.begin(), fake.end()));
  CHECK_FALSE(legion::is_legion_log(legato));
  CHECK_FALSE(legion::is_legion_log(dir.file("missing.prof")));
  // A malformed header of a 2023-09..2024-01 development build (LEGION_FORMAT.md §2).
  CHECK_THAT(
      error_of("dev.prof",
               "FileType: BinaryLegionProf v: 1.0\nMachineDesc {id:10, hostid::uint64_t8}\n\n"),
      Catch::Contains("dev.prof:2:"));
}

TEST_CASE("random and hostile bytes never crash or hang", "[legion][robust]") {
  TempDir dir;
  std::mt19937_64 rng(20);
  const auto a = read_file(data_file(kA));
  const std::vector<uint8_t> header(a.begin(), a.begin() + 8202);
  const std::string path = dir.file("x.prof");
  for (int round = 0; round < 40; ++round) {
    std::vector<uint8_t> bytes;
    switch (round % 4) {
      case 0:  // random bytes behind a valid header
        bytes = header;
        for (int i = 0; i < 5000; ++i) bytes.push_back(static_cast<uint8_t>(rng()));
        break;
      case 1:  // the real records with some bytes flipped
        bytes = a;
        for (int i = 0; i < 20; ++i) bytes[8202 + rng() % (a.size() - 8202)] ^= 0xff;
        break;
      case 2:  // gzip magic then garbage
        bytes = {0x1f, 0x8b};
        for (int i = 0; i < 3000; ++i) bytes.push_back(static_cast<uint8_t>(rng()));
        break;
      default:  // a gzip stream of the real log, damaged in the middle
        bytes = gzip(a);
        for (int i = 0; i < 5; ++i) bytes[100 + rng() % (bytes.size() - 200)] ^= 0x55;
        break;
    }
    write_file(path, bytes);
    const RankTrace t = legion::import_log(path);
    if (t.readable) CHECK(t.records <= 100000);
    if (!t.readable) CHECK_FALSE(t.problems.empty());
  }
  // An absurd max_dim and a string running to the end of the file.
  LogEditor e(data_file(kA));
  for (auto& r : e.records) {
    if (r.kind == "MaxDimDesc") r.set("max_dim", 1u << 30);
  }
  write_file(path, e.encode());
  RankTrace t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(has_warning(t.problems, "absurd max_dim"));
  // A node count no Realm id can hold: node 0 of 1, and a warning.
  LogEditor nodes(data_file(kA));
  for (auto& r : nodes.records) {
    if (r.kind == "MachineDesc") r.set("num_nodes", 0xffffffff);
  }
  write_file(path, nodes.encode());
  t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.run.ranks == 1);
  CHECK(has_warning(t.problems, "absurd node"));
  CHECK_NOTHROW(legato::load::load_profile({path}));
  const std::string machine("\x0a\0\0\0\0\0\0\0\x01\0\0\0\x10\x27\0\0host", 20);
  std::string cut(header.begin(), header.end());
  cut += machine;  // a MachineDesc whose hostname runs to the end of the file
  std::vector<uint8_t> bytes(cut.begin(), cut.end());
  write_file(path, bytes);
  t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.records == 0);
  CHECK(has_warning(t.problems, "cut off inside a MachineDesc record"));
}

TEST_CASE("fields are looked up by name: a shuffled layout imports the same", "[legion][robust]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  auto& fields = e.layout("TaskInfo")->fields;
  const auto critical = std::find_if(fields.begin(), fields.end(),
                                     [](const auto& f) { return f.name == "critical"; });
  REQUIRE(critical != fields.end());
  const auto moved = *critical;
  fields.erase(critical);
  fields.push_back(moved);  // after fevent
  REQUIRE(fields[fields.size() - 2].name == "fevent");
  const std::string path = dir.file("shuffled.prof");
  write_file(path, e.encode());
  REQUIRE(read_file(path) != read_file(data_file(kA)));
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  CHECK(p.warnings.empty());
  CHECK(summarize(p) == summarize(a));
}

TEST_CASE("an older layout without critical-path data loads with creator links",
          "[legion][robust]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  for (const char* kind : {"TaskInfo", "ImplicitTaskInfo", "GPUTaskInfo", "MetaInfo", "MessageInfo",
                           "CopyInfo", "FillInfo", "PartitionInfo"})
    e.drop_field(kind, "critical");
  e.drop_field("PartitionInfo", "fevent");
  // Before 1004, MapperCallInfo named its mapper `mapper` and had no mapper_proc.
  e.drop_field("MapperCallInfo", "mapper_proc");
  for (auto& f : e.layout("MapperCallInfo")->fields) {
    if (f.name == "mapper_id") f.name = "mapper";
  }
  for (auto& r : e.records) {
    if (r.kind != "MapperCallInfo") continue;
    const int k = r.find("mapper_id");
    if (k >= 0) r.names[static_cast<size_t>(k)] = "mapper";
  }
  for (const char* kind : {"EventMergerInfo", "EventTriggerInfo", "EventPoisonInfo",
                           "BarrierArrivalInfo", "ReservationAcquireInfo", "CompletionQueueInfo",
                           "InstanceReadyInfo", "InstanceRedistrictInfo"})
    e.drop_kind(kind);
  const std::string path = dir.file("old.prof");
  write_file(path, e.encode());
  const RankTrace t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.problems.empty());
  CHECK(t.records == 2167 - 10 - 35 - 4);
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  CHECK(p.warnings.empty());
  Summary sp = summarize(p), sa = summarize(a);
  CHECK(sp.items == sa.items);
  CHECK(sp.waits == sa.waits);
  CHECK(sp.starts == sa.starts);
  CHECK(sp.stops == sa.stops);
  // Every edge is a creator link now.
  REQUIRE_FALSE(p.pre.empty());
  for (const auto& pre : p.pre) CHECK(pre.kind == static_cast<uint8_t>(trace::EdgeKind::Control));
}

TEST_CASE("two runs given together are flagged, never merged", "[legion][robust]") {
  const Profile p = legato::load::load_profile({data_file(kA), data_file(kB)});
  CHECK(p.ranks.size() == 1);
  CHECK(p.nodes.size() == 1);
  CHECK(has_warning(p.warnings, "left out: it belongs to run"));
}

TEST_CASE("two nodes of one run load together", "[legion][robust]") {
  TempDir dir;
  // A as node 0 of 2, and A re-encoded as node 1 of 2: node bits in every
  // processor and memory id and in every event except the creators, which
  // keep pointing at node 0's items; node 1's operations get ids of their own.
  LogEditor n0(data_file(kA)), n1(data_file(kA));
  for (auto& r : n0.records) {
    if (r.kind == "MachineDesc") r.set("num_nodes", 2);
  }
  const std::vector<std::string> event_fields = {"fevent",     "critical", "result", "pre0",
                                                 "pre1",       "pre2",     "pre3",   "precondition",
                                                 "wait_event", "inst_uid"};
  for (auto& r : n1.records) {
    if (r.kind == "MachineDesc") {
      r.set("node_id", 1);
      r.set("num_nodes", 2);
    }
    const legion::RecordLayout* l = n1.layout(r.kind);
    for (size_t k = 0; k < r.names.size(); ++k) {
      const std::string& type = l->fields[k].type;
      const uint64_t v = r.get(r.names[k]);
      if ((type == "ProcID" || type == "MemID") && (v >> 56) != 0 && (v >> 56) != 0x1c)
        r.set(r.names[k], v | (uint64_t{1} << 40));
      // Each node names its own operations (Legion's ids are unique per run).
      if (type == "UniqueID" && v != 0) r.set(r.names[k], v + 1000);
      if (std::find(event_fields.begin(), event_fields.end(), r.names[k]) != event_fields.end() &&
          (v >> 63))
        r.set(r.names[k], v | (uint64_t{1} << 47));
    }
  }
  const std::string p0 = dir.file("prof_0.gz"), p1 = dir.file("prof_1.gz");
  write_file(p0, gzip(n0.encode()));
  write_file(p1, gzip(n1.encode()));

  const Profile both = legato::load::load_profile({p1, p0});
  CHECK(both.ranks.size() == 2);
  REQUIRE(both.nodes.size() == 2);
  CHECK(both.nodes[0].rank == 0);
  CHECK(both.nodes[1].rank == 1);
  for (const auto& w : both.warnings) UNSCOPED_INFO(w);
  CHECK(both.warnings.empty());
  int c2 = 0;
  for (const auto& l : both.lanes) {
    if (l.name == "c2") {
      ++c2;
      CHECK(l.end - l.begin == 7);
    }
  }
  CHECK(c2 == 2);
  // Node 1's MachineDesc after its items: the ids made for items without an
  // event of their own (calls) still carry node 1, so none is node 0's too.
  std::stable_partition(n1.records.begin(), n1.records.end(),
                        [](const auto& r) { return r.kind != "MachineDesc"; });
  write_file(p1, gzip(n1.encode()));
  const Profile late = legato::load::load_profile({p0, p1});
  for (const auto& w : late.warnings) UNSCOPED_INFO(w);
  CHECK(late.warnings.empty());
  CHECK(summarize(late) == summarize(both));
  const Profile one = legato::load::load_profile({data_file(kA)});
  CHECK(both.items.size() == 2 * one.items.size());
  CHECK(both.pre.size() == 2 * one.pre.size());  // node 1's creators resolve on node 0

  // Node 1 alone: node 0 is missing, and its creator links to node 0 dangle.
  const Profile alone = legato::load::load_profile({p1});
  CHECK(has_warning(alone.warnings, "no file was given for rank(s) 0"));
  CHECK(has_warning(alone.warnings, "dependency edges name items missing"));
  CHECK(alone.pre.size() < one.pre.size());
}

TEST_CASE("record order does not matter: descriptors, waits and names resolve after reading",
          "[legion][robust]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  // Every record in a random order; MaxDimDesc first, as the format needs
  // it before any index-space record.
  std::mt19937_64 rng(7);
  std::shuffle(e.records.begin(), e.records.end(), rng);
  std::stable_partition(e.records.begin(), e.records.end(),
                        [](const auto& r) { return r.kind == "MaxDimDesc"; });
  const std::string path = dir.file("shuffled_records.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  CHECK(p.warnings.empty());
  CHECK(summarize(p) == summarize(a));
  std::vector<std::string> names_p, names_a;
  for (const Item& it : p.items) names_p.push_back(p.str(it.name));
  for (const Item& it : a.items) names_a.push_back(a.str(it.name));
  CHECK(names_p == names_a);
}

TEST_CASE(
    "an fevent two items name (a damaged log) is the first's, and the later gets an id of its own",
    "[legion][robust]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  uint64_t first = 0;
  int repeated = 0;
  for (auto& r : e.records) {
    if (r.kind != "TaskInfo" && r.kind != "MetaInfo") continue;
    if (first == 0) {
      first = r.get("fevent");
    } else if (repeated < 3) {
      r.set("fevent", first);
      ++repeated;
    }
  }
  REQUIRE(repeated == 3);
  const std::string path = dir.file("repeated_fevent.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  for (const auto& w : p.warnings) UNSCOPED_INFO(w);
  CHECK_FALSE(has_warning(p.warnings, "reuse the uid"));
  CHECK(p.items.size() == a.items.size());
  CHECK(p.waits.size() == a.waits.size());
}

TEST_CASE("names and hosts that are not UTF-8 are kept escaped, as text every output can hold",
          "[legion][robust]") {
  using namespace legion::testing;
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1008);
    MachineInfo m;
    m.hostname = std::string("node\xff\x01");
    w.machine(m);
    w.proc(proc_id(0, 1), kCpu);
    w.task_kind(1, std::string("solve\xe9\\x"));  // Latin-1 é, and a backslash
    w.mapper_call_desc(2, std::string("map\x80"));
    w.operation(10, ~uint64_t{0}, 1);
    TaskTimes t;
    t.op = 10;
    t.task_id = 1;
    t.proc = proc_id(0, 1);
    t.start = 100;
    t.stop = 200;
    t.fevent = event_id(0, 1);
    w.task(t);
    w.mapper_call(0, proc_id(0, 1), 2, 10, 120, 150, proc_id(0, 1), event_id(0, 1));
    w.finish();
  }
  const Profile p = legato::load::load_profile({path});
  std::set<std::string> names;
  for (const Item& it : p.items) names.insert(p.str(it.name));
  // Lossless: \xNN for each byte that is not UTF-8, \\ for a backslash.
  CHECK(names.count("solve\\xe9\\\\x") == 1);
  CHECK(names.count("Mapper Call map\\x80") == 1);
  CHECK(p.ranks[0].host == "node\\xff\x01");
  for (const std::string& s : p.strings) CHECK(trace::is_utf8(s));
  // Valid UTF-8 is kept as it is.
  CHECK(trace::is_utf8("caf\xc3\xa9"));
  CHECK_FALSE(trace::is_utf8("caf\xe9"));
  CHECK_FALSE(trace::is_utf8("\xed\xa0\x80"));  // a surrogate
}

TEST_CASE("a FIFO, a socket or a directory given as a log is refused at once, never opened",
          "[legion][robust]") {
  TempDir dir;
  const std::string fifo = dir.file("prof_0.gz");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: a blocking open would wait forever
  const std::string folder = dir.file("prof_1.gz");
  std::filesystem::create_directories(folder);
  for (const auto& [path, kind] : {std::pair<std::string, std::string>{fifo, "a named pipe (FIFO)"},
                                   {folder, "a directory"}}) {
    INFO(path);
    CHECK_FALSE(legion::is_legion_log(path));
    const RankTrace t = legion::import_log(path);
    CHECK_FALSE(t.readable);
    REQUIRE(t.problems.size() == 1);
    CHECK(t.problems[0] == path + ": cannot open: Is " + kind + ", not a regular file");
  }
}
