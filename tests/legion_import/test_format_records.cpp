// What the records of formats 1010 to 1012 mean on screen (a wait's
// provenance, reduction copies, the critical path through make_valid,
// metadata fetches, external events and handshakes), header first lines,
// records whose bytes differ from their declaration, and logs of a format
// newer than the newest known. Logs written by the test-only writer.
#include <string>

#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/findings.hpp"
#include "legion_import/import.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::legion;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

const uint64_t kC0 = proc_id(0, 0), kC1 = proc_id(0, 1), kG2 = proc_id(0, 2);
const uint64_t kSys = mem_id(0, 0), kFb = mem_id(0, 1);
uint64_t E(uint64_t seq) {
  return event_id(0, seq);
}

// A one-node log with two CPUs and a GPU, a system memory and a
// framebuffer, and the task kind "work" (task 1, variant 1).
void machine(LegionLogWriter& w) {
  MachineInfo m;
  w.machine(m);
  w.proc(kC0, kCpu);
  w.proc(kC1, kCpu);
  w.proc(kG2, kGpu);
  w.memory(kSys, kSystemMem, uint64_t{1} << 30);
  w.memory(kFb, kFramebufferMem, uint64_t{1} << 30);
  w.task_kind(1, "work");
  w.task_variant(1, 1, "cpu");
  w.op_desc(30, "Task");
}

// Task `op` of `node` (its fevent event_id(node, op)) on `proc`, ready when
// it starts.
TaskTimes times(uint64_t op, uint64_t proc, uint64_t create, uint64_t start, uint64_t stop,
                uint64_t critical = 0, uint64_t creator = 0, uint32_t node = 0) {
  TaskTimes t;
  t.op = op;
  t.task_id = 1;
  t.variant_id = 1;
  t.proc = proc;
  t.create = create;
  t.ready = start;
  t.start = start;
  t.stop = stop;
  t.critical = critical;
  t.creator = creator;
  t.fevent = event_id(node, op);
  return t;
}

// Writes a CPU task and its operation.
void task(LegionLogWriter& w, const TaskTimes& t) {
  w.operation(t.op, ~uint64_t{0}, 30);
  w.task(t);
}
void task(LegionLogWriter& w, uint64_t op, uint64_t proc, uint64_t create, uint64_t start,
          uint64_t stop, uint64_t critical = 0, uint64_t creator = 0) {
  task(w, times(op, proc, create, start, stop, critical, creator));
}

uint32_t item_of_op(const analysis::Profile& p, uint64_t op) {
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const auto& it = p.items[i];
    if (it.kind == analysis::ItemKind::Task && it.op != analysis::kNone &&
        p.operations[it.op].uid == op)
      return i;
  }
  return analysis::kNone;
}

std::string warnings(const analysis::RankTrace& t) {
  std::string w;
  for (const auto& p : t.problems) w += p + "\n";
  return w;
}

}  // namespace

TEST_CASE("1012: the critical path goes through make_valid, metadata fetches and external events",
          "[legion][formats][critical]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1012);
    machine(w);
    task(w, 9, kC1, 0, 0, 150);       // Z: the creator of the tasks below
    task(w, 1, kC0, 100, 100, 1000);  // A
    // A asks for an index space's make_valid and an instance's metadata.
    REQUIRE(w.make_valid(E(100), E(1), 77, 500, 3000));
    REQUIRE(w.fetch_metadata(E(101), E(1), E(50), 600, 5000));
    task(w, 2, kC1, 200, 3000, 4000, E(100), E(9));   // B waited for the make_valid
    task(w, 3, kC0, 1100, 5000, 6000, E(101), E(9));  // C for the metadata
    // G, a GPU task, starts CUDA work that triggers an external event.
    task(w, 4, kG2, 5000, 6000, 7000);
    REQUIRE(w.external_event(E(102), E(4), 6500, 9000, 5));
    task(w, 5, kC1, 6200, 9000, 9500, E(102), E(9));  // D waited for the CUDA work
    // F waited for a merge of the external event (9000) and C (6000).
    REQUIRE(w.event_merger(E(103), E(3), 8000, E(102), E(3)));
    task(w, 6, kC0, 7000, 9100, 9900, E(103), E(9));
    // H waited for a handshake from outside Legion: no item held it back.
    const uint64_t barrier = E(104);
    REQUIRE(w.barrier_arrival(barrier, barrier, 0, 9950));
    task(w, 7, kC1, 9800, 9960, 10000, barrier, E(9));
    // K waited for an item's own arrival at a barrier: that item is its step.
    REQUIRE(w.barrier_arrival(E(105), E(2), 0, 4100));
    task(w, 8, kC0, 3500, 6100, 6200, E(105), E(9));
    w.finish();
  }
  const analysis::Profile p = load::load_profile({path});
  const auto step = [&](uint64_t op) {
    const analysis::ItemDetails d = analysis::details(p, item_of_op(p, op));
    return std::make_pair(d.critical, static_cast<trace::EdgeKind>(d.critical_kind));
  };
  using K = trace::EdgeKind;
  CHECK(step(2) == std::make_pair(item_of_op(p, 1), K::MakeValid));
  CHECK(step(3) == std::make_pair(item_of_op(p, 1), K::FetchMetadata));
  CHECK(step(5) == std::make_pair(item_of_op(p, 4), K::External));
  CHECK(step(6) == std::make_pair(item_of_op(p, 4), K::External));
  CHECK(step(7).first == analysis::kNone);  // not its creator Z
  // ... and no link to the barrier as if it were an item (left unresolved).
  std::string shown;
  for (const std::string& w : p.warnings) shown += w + "\n";
  INFO(shown);
  CHECK(p.warnings.empty());
  CHECK(step(8) == std::make_pair(item_of_op(p, 2), K::Data));
  // The chain names each step.
  CHECK(analysis::precondition_name(static_cast<uint8_t>(K::MakeValid)) ==
        "index space make_valid");
  CHECK(analysis::precondition_name(static_cast<uint8_t>(K::FetchMetadata)) ==
        "instance fetch_metadata");
  CHECK(analysis::precondition_name(static_cast<uint8_t>(K::External)) == "external event");
  const std::vector<uint32_t> chain = analysis::critical_path(p, item_of_op(p, 6));
  REQUIRE(chain.size() >= 2);
  CHECK(chain[1] == item_of_op(p, 4));
}

TEST_CASE("the critical path's time names the Realm work it waited for", "[legion][critical]") {
  // G, a GPU task, ends at 1000; its CUDA work triggers an external event
  // at 5000; D, created at 500 and ready at 5000, waited for it and ends the
  // run at 6000: 4 of its 6 us were spent waiting for the CUDA work.
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1012);
    machine(w);
    TaskTimes g = times(1, kG2, 0, 0, 1000);
    g.gpu_start = 100;
    g.gpu_stop = 5000;
    w.operation(1, ~uint64_t{0}, 30);
    w.gpu_task(g);
    REQUIRE(w.external_event(E(100), E(1), 100, 5000, 0));
    TaskTimes d = times(2, kC0, 500, 5100, 6000, E(100));
    d.ready = 5000;
    task(w, d);
    w.finish();
  }
  const analysis::Profile p = load::load_profile({path});
  const analysis::Findings found = analysis::find(p);
  const analysis::Finding* path_finding = nullptr;
  for (const auto& f : found.findings)
    if (f.rule == "critical_path") path_finding = &f;
  REQUIRE(path_finding != nullptr);
  INFO(path_finding->summary);
  CHECK_THAT(path_finding->summary,
             Catch::Contains("waiting for asynchronous work (an external event: CUDA's, say) 67%"));
}

TEST_CASE("a barrier's arrivals from every node: the last to arrive is on the critical path",
          "[legion][critical]") {
  // Node 0's item X arrives at 1000, node 1's item Y at 3000 (in the other
  // file); node 0's task T, created at 500, waited for the barrier. Node 1's
  // U waited for a second barrier whose last arrival (4000, by X) came
  // before the item Z that node 1's arrival waited for (Z ended at 5000).
  TempDir dir;
  const uint64_t barrier = event_id(0, 500), barrier2 = event_id(1, 501);
  std::vector<std::string> files;
  for (uint32_t n = 0; n < 2; ++n) {
    files.push_back(dir.file("prof_" + std::to_string(n) + ".prof"));
    LegionLogWriter w(files.back(), LogVersion::V1008);
    MachineInfo m;
    m.node = n;
    m.nodes = 2;
    w.machine(m);
    w.proc(proc_id(n, 0), kCpu);
    w.task_kind(1, "work");
    w.task_variant(1, 1, "cpu");
    const auto item = [&](uint64_t op, uint64_t start, uint64_t stop, uint64_t critical) {
      const uint64_t create = op == 4 || op == 5 ? 500 : start;
      task(w, times(op, proc_id(n, 0), create, start, stop, critical, 0, n));
    };
    if (n == 0) {
      item(1, 100, 900, 0);  // X
      REQUIRE(w.barrier_arrival(barrier, event_id(0, 1), 0, 1000));
      item(4, 3100, 3200, barrier);  // T
      item(3, 4100, 5000, 0);        // Z
      REQUIRE(w.barrier_arrival(barrier2, event_id(0, 1), 0, 4000));
    } else {
      item(2, 200, 2900, 0);  // Y
      REQUIRE(w.barrier_arrival(barrier, event_id(1, 2), 0, 3000));
      REQUIRE(w.barrier_arrival(barrier2, event_id(1, 2), event_id(0, 3), 2950));
      item(5, 5100, 5200, barrier2);  // U
    }
    w.finish();
  }
  const analysis::Profile p = load::load_profile(files);
  const auto critical = [&](uint64_t op) {
    return analysis::details(p, item_of_op(p, op)).critical;
  };
  CHECK(critical(4) == item_of_op(p, 2));  // Y, the last arrival, not X, the first record
  CHECK(critical(5) == item_of_op(p, 3));  // Z, the precondition an arrival waited for
}

TEST_CASE("a barrier's phase waits for its previous phase", "[legion][critical]") {
  // Realm's barrier ids: 0b0010 in bits 63..60, the node in 59..44, the
  // phase (generation) below. X arrived at phase 1 at 5000, Y at phase 2 at
  // 1000; T waited for phase 2, which could not trigger before phase 1.
  const auto phase = [](uint64_t g) { return (uint64_t{2} << 60) | (uint64_t{0} << 44) | g; };
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1008);
    machine(w);
    task(w, 1, kC0, 0, 100, 4900);  // X
    task(w, 2, kC1, 0, 100, 900);   // Y
    REQUIRE(w.barrier_arrival(phase(1), E(1), 0, 5000));
    REQUIRE(w.barrier_arrival(phase(2), E(2), 0, 1000));
    task(w, 3, kC1, 500, 5100, 5200, phase(2));  // T
    w.finish();
  }
  const analysis::Profile p = load::load_profile({path});
  CHECK(analysis::details(p, item_of_op(p, 3)).critical == item_of_op(p, 1));
}

TEST_CASE("1010: a wait's note names the program's call it waited in, then the backtrace",
          "[legion][formats][waits]") {
  for (const LogVersion v : {LogVersion::V1008, LogVersion::V1010, LogVersion::V1012}) {
    INFO("format " << format_of(v));
    TempDir dir;
    const std::string path = dir.file("prof_0.prof");
    {
      LegionLogWriter w(path, v);
      machine(w);
      w.provenance(7, "prog.py:42$OpCode,ADD|Provenance,prog.py:42");
      w.backtrace(3, "  [0] = /usr/lib/libfoo.so(bar+0x10) [0x7f00]");
      task(w, 1, kC0, 0, 100, 5000);
      w.task_wait(1, 1, 1, 1000, 2000, 2100, E(200));
      w.wait_site(kC0, E(1), E(200), 3, 7);
      w.finish();
    }
    const analysis::Profile p = load::load_profile({path});
    REQUIRE(p.wait_notes.size() == 1);
    const std::string note = p.str(p.wait_notes.front().second);
    if (v == LogVersion::V1008) {  // no provenance field yet
      CHECK(note == "  [0] libfoo.so: bar+0x10");
    } else {
      CHECK(note == "in prog.py:42\n  [0] libfoo.so: bar+0x10");
    }
  }
}

TEST_CASE("1011: reduction copies are reduction copies, on their memories' channel",
          "[legion][formats][copies]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1011);
    machine(w);
    w.operation(20, ~uint64_t{0}, 30);
    for (uint32_t redop : {3u, 0u}) {
      ChannelTimes c;
      c.op = 20;
      c.size = 4096;
      c.create = c.ready = 100 + redop * 1000;
      c.start = c.create + 10;
      c.stop = c.start + 500;
      c.fevent = E(300 + redop);
      c.redop = redop;
      w.copy(c);
      w.copy_inst(kSys, kFb, 0, 0, c.fevent);
    }
    w.finish();
  }
  const analysis::RankTrace t = import_log(path);
  const auto& copies = t.all.get<trace::CopyRecord>();
  REQUIRE(copies.size() == 2);
  CHECK(copies[0].copy_kind == trace::CopyKind::Reduce);
  CHECK(copies[1].copy_kind == trace::CopyKind::Copy);
  CHECK(copies[0].channel == copies[1].channel);
  const analysis::Profile p = load::load_profile({path});
  int reductions = 0, plain = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != analysis::ItemKind::Copy) continue;
    const std::string d = analysis::describe(p, i);
    reductions += d.find("(reduction copy) on sysmem0 -> fbmem1") != std::string::npos;
    plain += d.find("(copy) on sysmem0 -> fbmem1") != std::string::npos;
  }
  CHECK(reductions == 1);
  CHECK(plain == 1);
}

TEST_CASE("header first lines: 1.0, a format number and Legion's version, or an error",
          "[legion][formats][header]") {
  const std::vector<std::string> layout = {"TaskKind {id:11, task_id:TaskID:4, name:string:-1}"};
  const auto parse = [&](std::vector<std::string> lines) {
    lines.insert(lines.end(), layout.begin(), layout.end());
    return parse_header_lines(lines, "f.prof");
  };
  Header h = parse({"FileType: BinaryLegionProf v: 1.0"});
  CHECK(h.format == 0);
  CHECK(h.legion_version.empty());
  CHECK(h.layouts.size() == 1);
  h = parse({"FileType: BinaryLegionProf v: 1011", "legion-25.12.0-57-g7b770cff5"});
  CHECK(h.format == 1011);
  CHECK(h.legion_version == "legion-25.12.0-57-g7b770cff5");
  CHECK(h.layouts.size() == 1);
  h = parse({"FileType: BinaryLegionProf v: 1012", "unknown"});
  CHECK(h.legion_version == "unknown");
  // A writer that named its format and left Legion's version out.
  h = parse({"FileType: BinaryLegionProf v: 1010"});
  CHECK(h.format == 1010);
  CHECK(h.legion_version.empty());
  CHECK(h.layouts.size() == 1);
  CHECK_THROWS_WITH(parse({"FileType: BinaryLegionProf v: 2.0"}),
                    Catch::Contains("f.prof:1: ") &&
                        Catch::Contains("names version \"2.0\", which is neither 1.0"));
  CHECK_THROWS_WITH(
      parse({"FileType: BinaryLegionProf v: 99"}),
      Catch::Contains("f.prof:1: ") && Catch::Contains("impossible format number 99"));
  CHECK_THROWS_WITH(parse({"FileType: BinaryLegionProf v:1.0"}),
                    Catch::Contains("does not start \"FileType: BinaryLegionProf v: \""));
  // A bad layout line after a version line is named by its own line number.
  CHECK_THROWS_WITH(parse_header_lines({"FileType: BinaryLegionProf v: 1011", "legion-x",
                                        "TaskKind {id:11, task_id}"},
                                       "f.prof"),
                    Catch::Contains("f.prof:3: "));
}

TEST_CASE("a log of a format newer than the newest known loads, with one warning",
          "[legion][formats][newer]") {
  TempDir dir;
  const std::string v1012 = dir.file("v1012.prof");
  {
    LegionLogWriter w(v1012, LogVersion::V1012);
    machine(w);
    task(w, 1, kC0, 0, 100, 5000);
    task(w, 2, kC1, 0, 200, 3000);
    w.finish();
  }
  for (const bool unknown_kind : {true, false}) {
    INFO(unknown_kind);
    LogEditor e(v1012);
    e.header.first_line = "FileType: BinaryLegionProf v: 1013";
    if (unknown_kind) {
      e.add_layout("FutureInfo {id:200, a:unsigned long long:8, b:string:-1}");
      RawRecord r = e.blank("FutureInfo");
      r.set("a", 5);
      r.set_text("b", "new");
      e.records.insert(e.records.begin() + 3, r);
      e.records.push_back(r);
    } else {
      e.add_layout("Unused {id:201, a:unsigned:4}");  // reparses: format 1013, no record of it
    }
    const std::string path = dir.file("v1013.prof");
    write_file(path, e.encode());
    const analysis::RankTrace t = import_log(path);
    REQUIRE(t.readable);
    CHECK_FALSE(t.data_lost);
    CHECK(t.all.get<trace::TaskRecord>().size() == 2);
    REQUIRE(t.problems.size() == 1);
    CHECK_THAT(t.problems[0],
               Catch::Contains("Legion Prof format 1013 is newer than the newest this importer "
                               "knows (1012): read by the layouts its header declares"));
    if (unknown_kind) {
      CHECK_THAT(t.problems[0], Catch::EndsWith("record kinds not interpreted: FutureInfo (2), "
                                                "2 records skipped"));
    } else {
      CHECK_THAT(t.problems[0], Catch::EndsWith("it holds no record kind this importer does not "
                                                "interpret"));
    }
    CHECK(t.metadata["legion"]["format"] == 1013);
  }
}

TEST_CASE("records Legion writes otherwise than declared: read as written, or not guessed at",
          "[legion][formats][deviations]") {
  TempDir dir;
  const std::string v1011 = dir.file("v1011.prof");
  {
    LegionLogWriter w(v1011, LogVersion::V1011);
    machine(w);
    task(w, 1, kC0, 0, 100, 5000);
    w.instance_usage(E(50), E(1), 1, 100, 5000, 3, 0, 1);     // read: no redop written
    w.instance_usage(E(50), E(1), 1, 100, 5000, 3, 0, 4, 9);  // a reduction: redop written
    task(w, 2, kC1, 0, 200, 3000);
    w.finish();
  }
  {
    const analysis::RankTrace t = import_log(v1011);
    CHECK(t.all.get<trace::TaskRecord>().size() == 2);
    CHECK(t.problems.empty());
    CHECK(t.finished_cleanly);
  }
  SECTION("a PhysicalInstanceUsage of a shape whose bytes are not known stops decoding") {
    LogEditor e(v1011);
    e.layout("PhysicalInstanceUsage")
        ->fields.push_back(FieldLayout{"extra", "unsigned", FieldType::U32, 4});
    e.add_layout("Unused {id:300, a:unsigned:4}");  // reparses the header
    const std::string path = dir.file("other_shape.prof");
    write_file(path, e.encode());
    const analysis::RankTrace t = import_log(path);
    CHECK(t.data_lost);
    CHECK(t.all.get<trace::TaskRecord>().size() == 1);  // the one before it
    CHECK_THAT(warnings(t),
               Catch::Contains(": byte offset ") &&
                   Catch::Contains("PhysicalInstanceUsage's redop only for reductions") &&
                   Catch::Contains("so the rest of the file cannot be decoded"));
  }
  SECTION("PRealm's SpawnInfo: `create` declared, never written") {
    LogEditor e(v1011);
    e.add_layout(
        "SpawnInfo {id:300, fevent:unsigned long long:8, spawn:timestamp_t:8, "
        "create:timestamp_t:8}");
    RawRecord s = e.blank("SpawnInfo");
    s.set("fevent", E(1));
    s.set("spawn", 50);
    s.set("create", 60);  // never written
    e.records.insert(e.records.end() - 1, s);
    const std::string path = dir.file("spawn.prof");
    write_file(path, e.encode());
    CHECK(read_file(path).size() ==
          read_file(v1011).size() + 4 + 16 +
              std::string("SpawnInfo {id:300, fevent:unsigned long long:8, "
                          "spawn:timestamp_t:8, create:timestamp_t:8}\n")
                  .size());
    const analysis::RankTrace t = import_log(path);
    CHECK(t.all.get<trace::TaskRecord>().size() == 2);
    CHECK(t.problems.empty());
    CHECK_FALSE(t.data_lost);
  }
}
