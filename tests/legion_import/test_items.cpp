// Record kinds the three real logs declare but never use (GPU tasks,
// messages, application calls, copies, fills, dependent partitioning),
// added to log A here, and logs with other ids and older machines.
#include <catch2/catch.hpp>

#include "analysis/utilization.hpp"
#include "legion_import/import.hpp"
#include "load/load.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

constexpr uint64_t kCpu2 = 0x1d00000000000002, kUtil0 = 0x1d00000000000000;
constexpr uint64_t kGpu18 = 0x1d00000000000012;
constexpr uint64_t kSysmem0 = 0x1e00000000000000, kFbmem2 = 0x1e00000000000002;

const Lane* lane_named(const Profile& p, const std::string& name) {
  for (const auto& l : p.lanes) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

std::vector<uint32_t> items_of(const Profile& p, const std::string& lane) {
  std::vector<uint32_t> out;
  if (const Lane* l = lane_named(p, lane)) {
    for (uint32_t i = l->begin; i < l->end; ++i) out.push_back(i);
  }
  return out;
}

// The item of kind on a lane that starts at `start`.
uint32_t item_at(const Profile& p, const std::string& lane, Time start) {
  for (uint32_t i : items_of(p, lane)) {
    if (p.items[i].start == start) return i;
  }
  return kNone;
}

uint64_t field_of_task(const LogEditor& e, uint64_t op, const std::string& field) {
  for (const auto& r : e.records) {
    if (r.kind == "TaskInfo" && r.get("op_id") == op) return r.get(field);
  }
  return 0;
}

}  // namespace

TEST_CASE("GPU tasks, messages, calls, copies, fills and partitions", "[legion][items]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  const auto add = [&](const std::string& kind, std::vector<std::pair<std::string, uint64_t>> v) {
    RawRecord r = e.blank(kind);
    for (const auto& [name, value] : v) r.set(name, value);
    e.records.push_back(r);
    return r;
  };
  const uint64_t ev = 0x8000000000f00000;  // fresh events of node 0
  const uint64_t julia = field_of_task(e, 3, "task_id");
  // A GPU task: the host side on g18h, the kernels on g18d; a second one
  // whose gpu_start is after gpu_stop (clamped to gpu_stop - 1 ns).
  add("GPUTaskInfo", {{"op_id", 3},
                      {"task_id", julia},
                      {"proc_id", kGpu18},
                      {"create", 1000},
                      {"ready", 1100},
                      {"start", 1200},
                      {"stop", 5000},
                      {"gpu_start", 2000},
                      {"gpu_stop", 4000},
                      {"fevent", ev + 1}});
  add("GPUTaskInfo", {{"op_id", 3},
                      {"task_id", julia},
                      {"proc_id", kGpu18},
                      {"create", 6000},
                      {"ready", 6000},
                      {"start", 6000},
                      {"stop", 9000},
                      {"gpu_start", 8500},
                      {"gpu_stop", 8000},
                      {"fevent", ev + 2}});
  // A message handler on u0.
  add("MessageInfo", {{"op_id", 0},
                      {"lg_id", 0},
                      {"proc_id", kUtil0},
                      {"spawn", 900},
                      {"create", 1000},
                      {"ready", 1000},
                      {"start", 1500},
                      {"stop", 1600},
                      {"fevent", ev + 3}});
  // Two application calls inside the Julia task of op 3 (on c2), each
  // named by its own provenance.
  const auto app_call = [&](uint64_t provenance, const std::string& text, uint64_t start) {
    RawRecord prov = e.blank("Provenance");
    prov.set("provenance", provenance);
    prov.set_text("prov", text);
    e.records.push_back(prov);
    add("ApplicationCallInfo", {{"provenance", provenance},
                                {"start", start},
                                {"stop", start + 1000},
                                {"proc_id", kCpu2},
                                {"fevent", field_of_task(e, 3, "fevent")}});
  };
  app_call(77, "solver.jl:12", 2700000000);
  app_call(78, "solver.jl:40", 2700002000);
  // A copy sysmem0 -> fbmem2, a copy with no CopyInstInfo (not drawn, counted), a fill
  // of sysmem0, and a dependent partitioning operation.
  add("CopyInfo", {{"op_id", 5},
                   {"size", 4096},
                   {"create", 10000},
                   {"ready", 10100},
                   {"start", 10200},
                   {"stop", 11000},
                   {"fevent", ev + 4}});
  add("CopyInstInfo", {{"src", kSysmem0},
                       {"dst", kFbmem2},
                       {"src_inst", 0x4000000000000001},
                       {"dst_inst", 0x4000000000000002},
                       {"fevent", ev + 4},
                       {"num_hops", 1}});
  add("CopyInfo",
      {{"op_id", 5}, {"size", 1}, {"start", 12000}, {"stop", 13000}, {"fevent", ev + 5}});
  add("FillInfo", {{"op_id", 5},
                   {"size", 64},
                   {"create", 14000},
                   {"ready", 14000},
                   {"start", 14500},
                   {"stop", 15000},
                   {"fevent", ev + 6}});
  add("FillInstInfo",
      {{"dst", kSysmem0}, {"fid", 1}, {"dst_inst", 0x4000000000000003}, {"fevent", ev + 6}});
  add("PartitionInfo", {{"op_id", 6},
                        {"part_op", 2},
                        {"create", 16000},
                        {"ready", 16000},
                        {"start", 16100},
                        {"stop", 17000},
                        {"fevent", ev + 7}});
  // An instance in the GPU's dynamic pool, whose capacity becomes its size.
  add("InstTimelineInfo", {{"inst_uid", ev + 8},
                           {"inst_id", 0x4000000000000009},
                           {"mem_id", 0x1e00000000000003},
                           {"size", 4000},
                           {"create", 20000},
                           {"ready", 20100},
                           {"destroy", 30000}});
  const std::string path = dir.file("more.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path});
  REQUIRE(p.warnings.size() == 1);
  CHECK(p.warnings[0].find("1 copies name no memories") != std::string::npos);

  const uint32_t host = item_at(p, "g18h", 1200);
  REQUIRE(host != kNone);
  CHECK(p.items[host].kind == ItemKind::Task);
  CHECK(p.items[host].stop() == 5000);
  CHECK(p.str(p.items[host].name) == p.str(p.items[item_at(p, "c2", 2672636469)].name));
  const uint32_t kernel = item_at(p, "g18d", 2000);
  REQUIRE(kernel != kNone);
  CHECK(p.items[kernel].kind == ItemKind::GpuKernel);
  CHECK(p.items[kernel].stop() == 4000);
  CHECK(p.kernel_of(p.items[kernel])->task == host);
  const uint32_t clamped = item_at(p, "g18d", 7999);
  REQUIRE(clamped != kNone);
  CHECK(p.items[clamped].stop() == 8000);

  const uint32_t message = item_at(p, "u0", 1500);
  REQUIRE(message != kNone);
  CHECK(p.items[message].kind == ItemKind::MetaTask);
  CHECK_FALSE(p.str(p.items[message].name).empty());

  const uint32_t call = item_at(p, "c2", 2700000000);
  REQUIRE(call != kNone);
  CHECK(p.str(p.items[call].name) == "solver.jl:12");
  const uint32_t second_call = item_at(p, "c2", 2700002000);
  REQUIRE(second_call != kNone);
  CHECK(p.str(p.items[second_call].name) == "solver.jl:40");
  // The call nests in the task it ran in, a row below it, and is not a
  // wait of it: the task is not shown blocked while the call runs.
  const uint32_t task = item_at(p, "c2", 2672636469);
  CHECK(p.row_of(p.lane_of(call), call) == p.row_of(p.lane_of(task), task) + 1);
  const auto [w, wend] = p.waits_of(task);
  CHECK(wend == w);

  const Lane* copies = lane_named(p, "sysmem0 -> fbmem2");
  REQUIRE(copies != nullptr);
  CHECK(copies->kind == LaneKind::Channel);
  REQUIRE(copies->end - copies->begin == 1);
  const Item& copy = p.items[copies->begin];
  CHECK(copy.kind == ItemKind::Copy);
  CHECK(copy.start == 10200);
  CHECK(p.copy_of(copy)->bytes == 4096);
  CHECK(p.ready_of(copies->begin) == 10100);
  const Lane* fills = lane_named(p, "fill sysmem0");
  REQUIRE(fills != nullptr);
  REQUIRE(fills->end - fills->begin == 1);
  CHECK(p.items[fills->begin].kind == ItemKind::Fill);
  CHECK(p.copy_of(p.items[fills->begin])->bytes == 64);
  size_t channels = 0;
  for (const auto& l : p.lanes) channels += l.kind == LaneKind::Channel;
  CHECK(channels == 2);  // the copy without CopyInstInfo is not drawn
  const Lane* dp = lane_named(p, "dp0");
  REQUIRE(dp != nullptr);
  CHECK(dp->kind == LaneKind::DepPart);
  REQUIRE(dp->end - dp->begin == 1);
  CHECK(p.items[dp->begin].kind == ItemKind::DepPart);
  CHECK(p.items[dp->begin].start == 16100);
  CHECK(p.str(p.items[dp->begin].name) == "Union Reduction");
  const Lane* dyn = lane_named(p, "dynmem3");
  REQUIRE(dyn != nullptr);
  CHECK(dyn->capacity == 4000);  // drawn against its instances: no capacity of its own
  CHECK_FALSE(dyn->capacity_given);
  CHECK(dyn->end - dyn->begin == 1);
}

TEST_CASE("OpenMP and Python processors get lanes of their kinds", "[legion][items]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  const uint64_t omp = 0x1d00000000000014, py = 0x1d00000000000015;
  for (const auto& [id, kind] : {std::pair<uint64_t, uint64_t>{omp, 7}, {py, 8}}) {
    RawRecord r = e.blank("ProcDesc");
    r.set("proc_id", id);
    r.set("kind", kind);
    e.records.push_back(r);
  }
  // The top-level task of a Python program runs on the Python processor.
  RawRecord t = e.blank("TaskInfo");
  t.set("op_id", 1);
  t.set("proc_id", py);
  t.set("create", 100);
  t.set("ready", 100);
  t.set("start", 200);
  t.set("stop", 900);
  t.set("fevent", 0x8000000000d00001);
  e.records.push_back(t);
  const std::string path = dir.file("kinds.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path});
  CHECK(p.warnings.empty());
  const Lane* o = lane_named(p, "omp20");
  const Lane* y = lane_named(p, "py21");
  REQUIRE(o != nullptr);
  REQUIRE(y != nullptr);
  CHECK(o->kind == LaneKind::OpenMp);
  CHECK(y->kind == LaneKind::Python);
  CHECK(y->end - y->begin == 1);
  CHECK(to_string(LaneKind::Python) == "Python");
  // Python is its own utilization group, apart from the CPUs.
  const auto u = utilization(p, LaneKind::Python, 0);
  CHECK(u.capacity() == 1);
  CHECK(u.average(200, 900) == Approx(1.0));
}

TEST_CASE("messages slow from sender to receiver are a warning", "[legion][items]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  for (uint64_t k = 0; k < 10; ++k) {
    RawRecord m = e.blank("MessageInfo");
    m.set("proc_id", kUtil0);
    m.set("spawn", 1000 + k * 10000);
    // One in ten arrives 2 ms after it was sent: over legion_prof's 5%.
    m.set("create", 1000 + k * 10000 + (k == 3 ? 2000000 : 500));
    m.set("ready", m.get("create"));
    m.set("start", m.get("create") + 100);
    m.set("stop", m.get("create") + 200);
    m.set("fevent", 0x8000000000e00000 + k);
    e.records.push_back(m);
  }
  const std::string path = dir.file("messages.prof");
  write_file(path, e.encode());
  const RankTrace t = legion::import_log(path);
  REQUIRE(t.problems.size() == 1);
  CHECK_THAT(t.problems[0], Catch::Contains("1 of 10 messages took over 1 ms"));
}

TEST_CASE("record ids come from the header: renumbered kinds import the same", "[legion][items]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  // As in a 1006 log, every kind has another id (here: reversed).
  const auto n = static_cast<uint32_t>(e.header.layouts.size());
  for (uint32_t i = 0; i < n; ++i) e.header.layouts[i].id = 200 + n - i;
  const std::string path = dir.file("renumbered.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path}),
                a = legato::load::load_profile({data_file(kA)});
  CHECK(p.warnings.empty());
  CHECK(p.items.size() == a.items.size());
  CHECK(p.waits.size() == a.waits.size());
  CHECK(p.pre.size() == a.pre.size());
  for (size_t i = 0; i < p.items.size(); ++i) {
    CHECK(p.items[i].start == a.items[i].start);
    CHECK(p.items[i].stop() == a.items[i].stop());
  }
}

TEST_CASE("a log from before MachineDesc and ZeroTime is node 0 of 1", "[legion][items]") {
  TempDir dir;
  LogEditor e(data_file(kA));
  // No implicit tasks either (2024-08), nor the waits of those.
  for (const char* kind : {"MachineDesc", "ZeroTime", "CalibrationErr", "RuntimeConfig",
                           "ImplicitTaskInfo", "TaskWaitInfo", "ProfTaskInfo"})
    e.drop_kind(kind);
  // InstTimelineInfo before 2023: (op_id, inst_id, create, ready, destroy).
  for (const char* field : {"inst_uid", "mem_id", "size", "creator"})
    e.drop_field("InstTimelineInfo", field);
  const std::string path = dir.file("old.prof");
  write_file(path, e.encode());
  const RankTrace t = legion::import_log(path);
  CHECK(t.readable);
  CHECK(t.problems == std::vector<std::string>{});
  CHECK(t.metadata["legion"].count("version") == 0);
  CHECK(t.run.rank == 0);
  CHECK(t.run.ranks == 1);
  const Profile p = legato::load::load_profile({path});
  size_t tasks = 0;
  for (const Item& it : p.items) tasks += it.kind == ItemKind::Task;
  CHECK(tasks == 4);
  CHECK(p.instances.size() == 4);
}

TEST_CASE("a run with Legion's checks on carries a warning naming them", "[legion][items]") {
  TempDir dir;
  // Log A was run without any: no warning, and the run is named by its host.
  const RankTrace a = legion::import_log(data_file(kA));
  CHECK(a.problems == std::vector<std::string>{});
  CHECK(a.run.program == "Legion run (format 1008), pid 3941588 on dubliner");
  LogEditor e(data_file(kA));
  for (RawRecord& r : e.records) {
    if (r.kind != "RuntimeConfig") continue;
    r.set("debug", 1);
    r.set("bounds_checks", 1);
  }
  const std::string path = dir.file("checked.prof");
  write_file(path, e.encode());
  const Profile p = legato::load::load_profile({path});
  REQUIRE(p.warnings.size() == 1);
  const std::string& w = p.warnings.front();
  CHECK_THAT(w, Catch::Contains("Legion's checking and debugging on (") &&
                    Catch::Contains("a debug build of Legion (DEBUG_LEGION)") &&
                    Catch::Contains("bounds checks (LEGION_BOUNDS_CHECKS)"));
  CHECK_THAT(w, !Catch::Contains("safe_mapper") && !Catch::Contains("mapper checks"));
  const RankTrace t = legion::import_log(path);
  CHECK(t.metadata["config"] == nlohmann::json({{"bounds_checks", true}, {"debug", true}}));
}
