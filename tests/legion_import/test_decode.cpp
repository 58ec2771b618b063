// Decoding the three real Legion Prof logs (data/README.md): the
// header, every record, the machine, and the header grammar's errors.
#include <set>

#include <catch2/catch.hpp>

#include "legion_import/collect.hpp"
#include "legion_import/log_reader.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::legion;
using namespace legato::legion::testing;
using legato::trace::testing::TempDir;

namespace {

struct Decoded {
  uint64_t records = 0, bytes = 0, header_bytes = 0;
  size_t layouts = 0;
  std::string first_line;
  bool clean = false, compressed = false;
  LogData data;
};

Decoded decode(const std::string& path) {
  auto reader = LogReader::open(path);
  Collector c(reader->header());
  Record r;
  while (reader->next(r)) c.add(r);
  Decoded d;
  d.records = reader->records();
  d.bytes = reader->offset();
  d.header_bytes = reader->header().size;
  d.layouts = reader->header().layouts.size();
  d.first_line = reader->header().first_line;
  d.clean = reader->clean_end() && reader->problems().empty();
  d.compressed = reader->compressed();
  d.data = std::move(c.data());
  return d;
}

}  // namespace

TEST_CASE("the three real logs decode completely", "[legion][decode]") {
  struct Expect {
    const char* file;
    uint64_t size, records;
    const char* host;
    uint32_t pid;
    int64_t zero, calibration;
    uint64_t meta, meta_waits, event_triggers, event_waits, event_graph;
  };
  const Expect cases[] = {
      {kA, 100304, 2167, "dubliner", 3941588, 1769621188808901136, -39494, 47, 5, 35, 8, 49},
      {kB, 88923, 2150, "dubliner", 3926932, 1769620858276529273, -21395, 49, 0, 30, 3, 44},
      {kC, 95963, 2154, "dubliner", 4024707, 1769622906828537529, -24752, 50, 1, 30, 4, 44},
  };
  for (const Expect& e : cases) {
    INFO(e.file);
    const Decoded d = decode(data_file(e.file));
    CHECK(d.first_line == "FileType: BinaryLegionProf v: 1.0");
    CHECK(d.layouts == 61);
    CHECK(d.header_bytes == 8202);
    CHECK(d.records == e.records);
    CHECK(d.bytes == e.size);  // every byte consumed
    CHECK(d.clean);
    CHECK_FALSE(d.compressed);
    CHECK(d.data.version == 1008);
    CHECK(d.data.node == 0);
    CHECK(d.data.nodes == 1);
    CHECK(d.data.hostname == e.host);
    CHECK(d.data.process_id == e.pid);
    CHECK(d.data.zero_time == e.zero);
    CHECK(d.data.calibration_err == e.calibration);
    CHECK(d.data.max_dim == 6);
    CHECK(d.data.host_id == 0xffffffff8da9452aULL);
    CHECK(d.data.unknown_kinds.empty());
    const auto& n = d.data.counts;
    CHECK(n.at("MetaInfo") == e.meta);
    CHECK(n.count("MetaWaitInfo") == (e.meta_waits ? 1u : 0u));
    if (e.meta_waits) CHECK(n.at("MetaWaitInfo") == e.meta_waits);
    CHECK(n.at("EventTriggerInfo") == e.event_triggers);
    CHECK(n.at("EventWaitInfo") == e.event_waits);
    // The same in every file.
    CHECK(n.at("MetaDesc") == 422);
    CHECK(n.at("ProcMDesc") == 1010);
    CHECK(n.at("MemDesc") == 57);
    CHECK(n.at("ProcDesc") == 20);
    CHECK(n.at("TaskKind") == 45);
    CHECK(n.at("TaskVariant") == 47);
    CHECK(n.at("RuntimeCallDesc") == 227);
    CHECK(n.at("MapperCallDesc") == 53);
    CHECK(n.at("OpDesc") == 31);
    CHECK(n.at("OperationInstance") == 12);
    CHECK(n.at("TaskInfo") == 4);
    CHECK(n.at("ImplicitTaskInfo") == 2);
    CHECK(n.at("MapperCallInfo") == 25);
    CHECK(n.at("RuntimeCallInfo") == 28);
    CHECK(n.at("ProfTaskInfo") == 4);
    CHECK(n.at("TaskWaitInfo") == 3);
    CHECK(n.at("InstTimelineInfo") == 4);
    CHECK(n.at("EventMergerInfo") == 10);
    CHECK(n.at("CompletionQueueInfo") == 4);
    CHECK(n.at("PhysicalInstDimOrderDesc") == 12);
    CHECK(n.at("IndexSpaceRectDesc") == 1);
    // The event graph: its records, 41 precondition edges, and 11 items
    // gated by a recorded event, every one produced in the file.
    CHECK(d.data.events.size() == e.event_graph);
    size_t edges = 0;
    std::set<uint64_t> produced;
    for (const auto& ev : d.data.events) {
      produced.insert(ev.result);
      for (uint64_t p : ev.pre) edges += p != 0;
    }
    CHECK(edges == 41);
    size_t critical = 0, resolved = 0, creators = 0, creators_resolved = 0;
    std::set<uint64_t> fevents;
    // The items that own their event (the critical path's), with their source.
    const ItemTables& items = d.data.items;
    for (const auto& it : items.path.items) fevents.insert(it.fevent);
    for (size_t k = 0; k < items.path.items.size(); ++k) {
      const TimedItem& it = items.path.items[k];
      const ItemRef ref = items.path_refs[k];
      const bool task_or_meta =
          !(ref & kMetaRef) || items.name_of(items.metas[ref & ~kMetaRef]).source == Source::Meta;
      if (it.critical != 0) {
        ++critical;
        resolved += produced.count(it.critical) + fevents.count(it.critical) > 0;
      }
      if (task_or_meta && it.creator != 0) {
        ++creators;
        creators_resolved += fevents.count(it.creator);
      }
    }
    CHECK(critical == 11);
    CHECK(resolved == 11);
    CHECK(creators_resolved == creators);
    if (std::string(e.file) == kA) CHECK(creators == 51);
    // Descriptors deduplicated, names overwritten (LEGION_FORMAT.md §5).
    CHECK(d.data.procs.size() == 20);
    CHECK(d.data.mems.size() == 6);
    CHECK(d.data.task_names.size() == 23);
    CHECK(d.data.variants.size() == 47);
    for (const auto& [id, name] : d.data.task_names) {
      if (name.first.rfind("unnamed_task_", 0) == 0) CHECK_FALSE(name.second);
    }
  }
}

TEST_CASE("the records' size is known before decoding, plain or gzip", "[legion][decode]") {
  TempDir dir;
  const auto bytes = read_file(data_file(kA));
  const std::string gz = dir.file("a.gz"), hostile = dir.file("cut.gz");
  write_file(gz, testing::gzip(bytes));
  // A stream cut before its trailer (a killed run): its last bytes are
  // compressed data, believed only up to 16 times the file's size.
  auto cut = testing::gzip(bytes);
  cut.resize(cut.size() - 8);
  write_file(hostile, cut);
  const auto plain = LogReader::open(data_file(kA));
  CHECK(plain->size_hint() == bytes.size() - plain->header().size);
  CHECK(LogReader::open(gz)->size_hint() == plain->size_hint());
  CHECK(LogReader::open(hostile)->size_hint() <= cut.size() * 16);
  // Tables reserved from the hint hold the same records as tables grown.
  Collector c(plain->header());
  c.expect(plain->size_hint());
  Record r;
  while (plain->next(r)) c.add(r);
  const Decoded grown = decode(data_file(kA));
  CHECK(c.data().items.tasks.size() == grown.data.items.tasks.size());
  CHECK(c.data().items.metas.size() == grown.data.items.metas.size());
  CHECK(c.data().items.metas.capacity() >= c.data().items.metas.size());
  CHECK(c.data().items.path.items.capacity() >= c.data().items.path.items.size());
  CHECK(c.data().events.size() == grown.data.events.size());
  CHECK(c.data().counts == grown.data.counts);
}

TEST_CASE("a big file's tables are reserved once its first records show their rate",
          "[legion][decode]") {
  TempDir dir;
  testing::write_synthetic_run(dir.path().string(), 1, 100000, false);
  const std::string path = dir.file("prof_0.prof");
  // Where the biggest tables lie: a table that grows by copying moves.
  const auto places = [](const LogData& d) {
    return std::vector<const void*>{d.ops.data(),         d.items.tasks.data(),
                                    d.items.metas.data(), d.items.path.items.data(),
                                    d.items.calls.data(), d.events.data()};
  };
  // Room for the most records these 6.4 MB could hold is about 80 MB; at
  // the rate of the first Collector::kSample records, twice what the file
  // gives each table is about 20 MB.
  const auto reader = LogReader::open(path);
  Collector c(reader->header());
  c.expect(reader->size_hint(), uint64_t{40} << 20);
  CHECK(c.data().items.metas.capacity() == 0);  // waiting for the sample
  std::vector<const void*> at_sample;
  uint64_t n = 0;
  for (Record r; reader->next(r);) {
    c.add(r);
    if (++n == Collector::kSample) at_sample = places(c.data());
  }
  REQUIRE(n > Collector::kSample);
  CHECK(c.data().items.metas.capacity() > 0);
  CHECK(places(c.data()) == at_sample);  // none grew by copying after the sample
  // The same records as tables reserved for the most, and as tables grown
  // with no budget at all.
  const Decoded most = decode(path);
  const auto grown_reader = LogReader::open(path);
  Collector grown(grown_reader->header());
  grown.expect(grown_reader->size_hint(), 1);
  for (Record r; grown_reader->next(r);) grown.add(r);
  for (const LogData* d : {&c.data(), &grown.data()}) {
    CHECK(d->items.metas.size() == most.data.items.metas.size());
    CHECK(d->items.tasks.size() == most.data.items.tasks.size());
    CHECK(d->items.path.items.size() == most.data.items.path.items.size());
    CHECK(d->events.size() == most.data.events.size());
    CHECK(d->counts == most.data.counts);
  }
}

TEST_CASE("header lines that do not fit the grammar are errors naming file and line",
          "[legion][decode]") {
  const std::vector<std::string> good = {"FileType: BinaryLegionProf v: 1.0",
                                         "ZeroTime {id:60, zero_time:long long:8}"};
  const Header h = parse_header_lines(good, "f.prof");
  REQUIRE(h.layouts.size() == 1);
  CHECK(h.find(60)->name == "ZeroTime");
  CHECK(h.find(60)->fields[0].kind == FieldType::I64);
  CHECK(h.find(61) == nullptr);

  const auto error_of = [](std::vector<std::string> lines) -> std::string {
    try {
      parse_header_lines(lines, "f.prof");
    } catch (const ImportError& e) {
      return e.what();
    }
    return "";
  };
  const std::string first = "FileType: BinaryLegionProf v: 1.0";
  // Malformed lines of 2023-09..2024-01 development snapshots.
  CHECK_THAT(error_of({first, "MachineDesc {id:10, hostid::uint64_t8}"}),
             Catch::Contains("f.prof:2:"));
  CHECK_THAT(error_of({first, "ProcDesc {id:6, proc_id:ProcID:8, uuid:array1}"}),
             Catch::Contains("f.prof:2:"));
  CHECK_THAT(error_of({first, "ZeroTime {id:60, zero_time:long long:8}", "no id here"}),
             Catch::Contains("f.prof:3:"));
  CHECK_THAT(error_of({first, "A {id:1, x:unsigned:4}", "B {id:1, y:unsigned:4}"}),
             Catch::Contains("two kinds the id 1"));
  CHECK_THAT(error_of({first, "A {id:1, x:mystery:-1}"}), Catch::Contains("variable size"));
  CHECK_THAT(error_of({first, "A {id:1, x:string:8}"}), Catch::Contains("fixed size"));
  CHECK_THAT(error_of({first, "A {id:99999999, x:unsigned:4}"}), Catch::Contains("absurd"));
  CHECK_THAT(error_of({"FileType: Something"}), Catch::Contains("f.prof:1:"));
  // A type it does not know, with a fixed size, is skipped by its size.
  const Header odd = parse_header_lines({first, "A {id:1, x:Gizmo:12}"}, "f.prof");
  CHECK(odd.find(1)->fields[0].kind == FieldType::Opaque);
  CHECK(odd.find(1)->fields[0].size == 12);
}
