// The three real logs as a profile (data/README.md): lanes,
// items, waits, instances, utilization with legion_prof's definitions, and
// the critical path.
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/utilization.hpp"
#include "load/load.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

const Lane* lane_named(const Profile& p, const std::string& name) {
  for (const auto& l : p.lanes) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// What legion_prof shows on a processor lane (the "of which" of its figures).
std::string entry_kind(const Profile& p, uint32_t i) {
  const Item& it = p.items[i];
  if (it.kind == ItemKind::Task) return "Task";
  const std::string& n = p.str(it.name);
  if (starts_with(n, "Mapper Call ")) return "MapperCall";
  if (starts_with(n, "Runtime Call ")) return "RuntimeCall";
  if (n == "ProfTask") return "ProfTask";
  return "MetaTask";
}

// The measure of {busy} over a kind of lanes on node 0: the sum of its lanes'
// busy time (utilization counts each lane 0 or 1).
double busy_ns(const Profile& p, LaneKind kind) {
  const UtilizationCurve u = utilization(p, kind, 0);
  const Time t0 = -1, t1 = p.stop + 1;
  return u.average(t0, t1) * static_cast<double>(t1 - t0) * u.capacity();
}

uint32_t item_of_op(const Profile& p, ItemKind kind, uint64_t op_uid) {
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const Item& it = p.items[i];
    if (it.kind == kind && it.op != kNone && p.operations[it.op].uid == op_uid) return i;
  }
  return kNone;
}

// The recorded precondition of an item (the importer records one per item).
std::pair<uint32_t, uint8_t> precondition(const Profile& p, uint32_t item) {
  std::pair<uint32_t, uint8_t> out{kNone, 0};
  const auto [first, last] = p.recorded_preconditions(item);
  for (const Precondition* c = first; c != last; ++c) out = {c->item, c->kind};
  return out;
}

struct LaneExpect {
  const char* name;
  size_t items;
  std::map<std::string, size_t> of_which;
  size_t recorded_waits;
  Time task_ns;
  size_t rows;
  Time first_start, last_stop;
};

void check_lane(const Profile& p, const LaneExpect& e) {
  INFO("lane " << e.name);
  const Lane* l = lane_named(p, e.name);
  REQUIRE(l != nullptr);
  CHECK(l->end - l->begin == e.items);
  std::map<std::string, size_t> of_which;
  Time task_ns = 0, first = INT64_MAX, last = INT64_MIN;
  // A recorded wait is a wait of its item and of each call inside that
  // item containing it: each is counted once.
  std::set<std::tuple<Time, Time, Time, uint32_t>> recorded;
  for (uint32_t i = l->begin; i < l->end; ++i) {
    const std::string k = entry_kind(p, i);
    ++of_which[k];
    if (k == "Task") task_ns += p.items[i].duration();
    first = std::min<Time>(first, p.items[i].start);
    last = std::max(last, p.items[i].stop());
    const auto [w, wend] = p.waits_of(i);
    for (const Wait* x = w; x != wend; ++x) recorded.emplace(x->start, x->ready, x->end, x->event);
  }
  CHECK(of_which == e.of_which);
  CHECK(recorded.size() == e.recorded_waits);
  CHECK(task_ns == e.task_ns);
  CHECK(l->rows.size() == e.rows);
  CHECK(first == e.first_start);
  CHECK(last == e.last_stop);
}

}  // namespace

TEST_CASE("machine model of the real logs", "[legion][model]") {
  for (const char* f : {kA, kB, kC}) {
    INFO(f);
    const Profile p = legato::load::load_profile({data_file(f)});
    std::map<LaneKind, int> lanes;
    for (const auto& l : p.lanes) ++lanes[l.kind];
    // 20 processors: 16 CPU, 2 Utility, 1 IO, 1 GPU as two lanes (21).
    CHECK(lanes[LaneKind::Cpu] == 16);
    CHECK(lanes[LaneKind::Utility] == 2);
    CHECK(lanes[LaneKind::Io] == 1);
    CHECK(lanes[LaneKind::GpuHost] == 1);
    CHECK(lanes[LaneKind::GpuDevice] == 1);
    // 6 memories: System 2, Framebuffer 1, GPUDynamic 1 (drawn as a
    // framebuffer), ZeroCopy 1, and File 1, which holds nothing and has no
    // Legato lane kind.
    CHECK(lanes[LaneKind::SystemMemory] == 2);
    CHECK(lanes[LaneKind::Framebuffer] == 2);
    CHECK(lanes[LaneKind::ZeroCopy] == 1);
    CHECK(lanes[LaneKind::Channel] == 0);
    CHECK(p.lanes.size() == 26);
    CHECK(lane_named(p, "g18h") != nullptr);
    CHECK(lane_named(p, "g18d") != nullptr);
    CHECK(lane_named(p, "i19") != nullptr);
    const Lane* sysmem = lane_named(p, "sysmem0");
    REQUIRE(sysmem != nullptr);
    CHECK(sysmem->capacity == 268435456);
    // A GPU's dynamic pool has the capacity its instances take: none here.
    REQUIRE(lane_named(p, "dynmem3") != nullptr);
    CHECK(lane_named(p, "dynmem3")->capacity == 0);
    CHECK(sysmem->end - sysmem->begin == 4);
    uint64_t bytes = 0;
    for (uint32_t i = sysmem->begin; i < sysmem->end; ++i)
      bytes += p.instance_of(p.items[i])->bytes;
    CHECK(bytes == 1600);
    CHECK(sysmem->rows.size() == 4);
    CHECK(p.instances.size() == 4);
    CHECK(p.copies.empty());
    CHECK(p.operations.size() == 12);
    CHECK(p.ranks.size() == 1);
    CHECK(p.ranks[0].host == "dubliner");
    CHECK(p.warnings.empty());
    std::vector<std::string> busy_lanes;
    for (const auto& l : p.lanes) {
      if (l.end > l.begin && !is_memory(l.kind)) busy_lanes.push_back(l.name);
    }
    if (std::string(f) == kC) {
      CHECK(busy_lanes == std::vector<std::string>{"u0", "u1", "c2", "c3", "g18h", "i19"});
    } else {
      CHECK(busy_lanes == std::vector<std::string>{"u0", "u1", "c2", "c3", "i19"});
    }
  }
}

TEST_CASE("items, names and times of log A", "[legion][model]") {
  const Profile p = legato::load::load_profile({data_file(kA)});
  std::map<std::string, int> tasks, metas;
  std::map<std::string, int> entries;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const Item& it = p.items[i];
    if (it.kind == ItemKind::Task) ++tasks[p.str(it.name)];
    if (it.kind == ItemKind::MetaTask) {
      ++entries[entry_kind(p, i)];
      if (entry_kind(p, i) == "MetaTask") ++metas[p.str(it.name)];
    }
  }
  CHECK(tasks == std::map<std::string, int>{
                     {"ufi::JuliaCustomTask", 4}, {"Toplevel Task", 1}, {"External Thread", 1}});
  CHECK(entries["MetaTask"] == 47);
  CHECK(entries["MapperCall"] == 25);
  CHECK(entries["RuntimeCall"] == 28);
  CHECK(entries["ProfTask"] == 4);
  CHECK(metas["Trigger Ready"] == 10);
  CHECK(metas["Trigger Commit"] == 8);
  CHECK(metas["Deferred Completion"] == 7);
  CHECK(metas["Trigger Operation Mapping"] == 7);
  // Every item but the instances lies within the run's first start and last stop.
  CHECK(p.start == 219328978);
  CHECK(p.stop == 2957643870);

  struct Row {
    uint64_t op;
    const char* name;
    Time create, ready, start, stop;
  };
  const Row rows[] = {
      {14, "External Thread", 219328978, 219328978, 219328978, 2957643870},
      {1, "Toplevel Task", 219456591, 219456591, 219456591, 2957379359},
      {3, "ufi::JuliaCustomTask", 2672625810, 2672626010, 2672636469, 2910192273},
      {4, "ufi::JuliaCustomTask", 2672775192, 2910331210, 2910335266, 2916460005},
      {5, "ufi::JuliaCustomTask", 2672997380, 2916554792, 2916569420, 2927259476},
      {6, "ufi::JuliaCustomTask", 2673081645, 2927345660, 2927371797, 2940854161},
  };
  for (const Row& r : rows) {
    INFO("op " << r.op);
    uint32_t i = kNone;  // op 14 has no OperationInstance: found by its start
    for (uint32_t k = 0; k < p.items.size(); ++k) {
      if (p.items[k].kind == ItemKind::Task && p.items[k].start == r.start) i = k;
    }
    REQUIRE(i != kNone);
    if (r.op != 14) CHECK(i == item_of_op(p, ItemKind::Task, r.op));
    CHECK(p.str(p.items[i].name) == r.name);
    CHECK(p.items[i].start == r.start);
    CHECK(p.items[i].stop() == r.stop);
    CHECK(p.ready_of(i) == r.ready);
    CHECK(p.create_of(i) == r.create);
    CHECK(p.lanes[p.lane_of(i)].name == (r.op == 14 || r.op == 1 ? "i19" : "c2"));
  }
}

TEST_CASE("per-lane values and utilization follow legion_prof", "[legion][model]") {
  using M = std::map<std::string, size_t>;
  struct File {
    const char* file;
    std::vector<LaneExpect> lanes;
    double utility_busy, cpu_busy, io_busy, gpu_host_busy;
  };
  const File files[] = {
      {kA,
       {{"u0", 47, M{{"MapperCall", 13}, {"MetaTask", 24}, {"RuntimeCall", 10}}, 3, 0, 3,
         2525704422, 2957402462},
        {"u1", 52, M{{"MapperCall", 11}, {"MetaTask", 23}, {"RuntimeCall", 18}}, 2, 0, 3,
         2525719288, 2957557663},
        {"c2", 7, M{{"ProfTask", 3}, {"Task", 4}}, 0, 267852963, 1, 2672228731, 2940854161},
        {"c3", 1, M{{"ProfTask", 1}}, 0, 0, 1, 2672879506, 2672883373},
        {"i19", 3, M{{"MapperCall", 1}, {"Task", 2}}, 3, 5476237660, 2, 219328978, 2957643870}},
       144009893.0 + 140180526.0,
       267858989.0 + 3867.0,
       2737591127.0,
       0},
      {kB,
       {{"u0", 74, M{{"MapperCall", 16}, {"MetaTask", 30}, {"RuntimeCall", 28}}, 0, 0, 3,
         2555504441, 2924030181},
        {"u1", 27, M{{"MapperCall", 8}, {"MetaTask", 19}}, 0, 0, 2, 2555505049, 2924195131},
        {"c2", 7, M{{"ProfTask", 3}, {"Task", 4}}, 0, 273609077, 1, 2629508051, 2903875958},
        {"c3", 1, M{{"ProfTask", 1}}, 0, 0, 1, 2630338699, 2630340882},
        {"i19", 3, M{{"MapperCall", 1}, {"Task", 2}}, 3, 5406835869, 2, 220688114, 2924303111}},
       74861923.0 + 72493854.0,
       273614028.0 + 2183.0,
       2702829492.0,
       0},
      {kC,
       {{"u0", 56, M{{"MapperCall", 10}, {"MetaTask", 24}, {"RuntimeCall", 22}}, 1, 0, 3,
         2575107913, 2979474953},
        {"u1", 46, M{{"MapperCall", 14}, {"MetaTask", 26}, {"RuntimeCall", 6}}, 0, 0, 3, 2575129507,
         2979636685},
        {"c2", 6, M{{"ProfTask", 2}, {"Task", 4}}, 0, 238966662, 1, 2718330829, 2962905838},
        {"c3", 1, M{{"ProfTask", 1}}, 0, 0, 1, 2724064806, 2724069275},
        {"g18h", 1, M{{"ProfTask", 1}}, 0, 0, 1, 2718651288, 2718671187},
        {"i19", 3, M{{"MapperCall", 1}, {"Task", 2}}, 3, 5510139740, 2, 224487859, 2979754798}},
       148862011.0 + 79416991.0,
       238972725.0 + 4469.0,
       2754635686.0,
       19899.0},
  };
  for (const File& f : files) {
    INFO(f.file);
    const Profile p = legato::load::load_profile({data_file(f.file)});
    for (const auto& l : f.lanes) check_lane(p, l);
    CHECK(std::llround(busy_ns(p, LaneKind::Utility)) == std::llround(f.utility_busy));
    CHECK(std::llround(busy_ns(p, LaneKind::Cpu)) == std::llround(f.cpu_busy));
    CHECK(std::llround(busy_ns(p, LaneKind::Io)) == std::llround(f.io_busy));
    CHECK(std::llround(busy_ns(p, LaneKind::GpuHost)) == std::llround(f.gpu_host_busy));
  }
}

TEST_CASE("critical paths from the event graph and creator links", "[legion][critical]") {
  for (const char* f : {kA, kB, kC}) {
    INFO(f);
    const Profile p = legato::load::load_profile({data_file(f)});
    const auto task = [&](uint64_t op) { return item_of_op(p, ItemKind::Task, op); };
    // op 6 -> op 5 -> op 4 -> op 3: the Julia tasks serialized on c2.
    for (uint64_t op : {4, 5, 6}) {
      INFO("op " << op);
      const auto [pre, kind] = precondition(p, task(op));
      CHECK(pre == task(op - 1));
      CHECK(kind == static_cast<uint8_t>(trace::EdgeKind::Data));
      CHECK(details(p, task(op)).op_id == op);  // Legion's op_id, as the popups show it
    }
    // The meta tasks serving ops 3..6 wait for their task.
    for (uint64_t op : {3, 4, 5, 6}) {
      INFO("meta op " << op);
      bool found = false;
      for (uint32_t i = 0; i < p.items.size(); ++i) {
        const Item& it = p.items[i];
        if (it.kind != ItemKind::MetaTask || it.op == kNone || p.operations[it.op].uid != op)
          continue;
        const auto [pre, kind] = precondition(p, i);
        if (pre == task(op) && kind == static_cast<uint8_t>(trace::EdgeKind::Data)) found = true;
      }
      CHECK(found);
    }
    // Whether a meta task of op `op` (0: none) has `pre` on its path.
    const auto meta_links = [&](uint64_t op, uint32_t pre, trace::EdgeKind kind) {
      for (uint32_t i = 0; i < p.items.size(); ++i) {
        const Item& it = p.items[i];
        if (it.kind != ItemKind::MetaTask || p.str(it.name).rfind("Mapper Call", 0) == 0) continue;
        if ((it.op == kNone ? 0 : p.operations[it.op].uid) != op) continue;
        if (precondition(p, i) == std::pair<uint32_t, uint8_t>{pre, static_cast<uint8_t>(kind)})
          return true;
      }
      return false;
    };
    const uint32_t toplevel = task(1);
    using K = trace::EdgeKind;
    CHECK(meta_links(0, toplevel, K::Data));      // gated by the top-level task
    CHECK(meta_links(7, toplevel, K::Control));   // launched late: its creator
    CHECK(meta_links(13, toplevel, K::Control));  // likewise
    // Op 12: gated by op 7's meta task in A and C, launched late in B.
    bool by_meta7 = false;
    for (uint32_t i = 0; i < p.items.size(); ++i) {
      const Item& it = p.items[i];
      if (it.kind == ItemKind::MetaTask && it.op != kNone && p.operations[it.op].uid == 7)
        by_meta7 = by_meta7 || meta_links(12, i, K::Data);
    }
    if (std::string(f) == kB) {
      CHECK_FALSE(by_meta7);
      CHECK(meta_links(12, toplevel, K::Control));
    } else {
      CHECK(by_meta7);
    }
  }
}

TEST_CASE("waits carry the backtrace of where they waited", "[legion][waits]") {
  // Log A: 8 EventWaitInfo records name 7 backtraces; 7 of the 8 recorded
  // waits have one (the eighth names an event no EventWaitInfo names). The
  // 4 of those that happened inside mapper calls are waits of the call and
  // of the meta task it ran in, each with the note: 2 in the top-level task,
  // 1 in a meta task outside any call, 4 in mapper calls and their meta tasks.
  const Profile p = legato::load::load_profile({data_file(kA)});
  CHECK(p.wait_notes.size() == 11);
  std::set<std::tuple<Time, Time, uint32_t>> noted;
  size_t top = 0, in_mapper_calls = 0, in_meta_tasks = 0;
  for (const auto& [w, text] : p.wait_notes) {
    noted.emplace(p.waits[w].start, p.waits[w].end, text);
    const std::string name = p.label(p.waits[w].item), note = p.str(text);
    if (p.items[p.waits[w].item].kind == ItemKind::MetaTask && name.rfind("Mapper Call", 0) != 0)
      ++in_meta_tasks;
    CHECK_THAT(note, Catch::StartsWith("stack trace: ") && Catch::Contains("LgEvent::wait()"));
    // Frames read as "library: function", without directories or addresses.
    CHECK_THAT(note, !Catch::Contains("/home/") && !Catch::Contains("] = "));
    if (name == "Toplevel Task") {
      ++top;
      CHECK_THAT(note,
                 Catch::Contains("\n  [2] liblegion-legate.so.1: "
                                 "Legion::Internal::FutureImpl::wait(bool, char const*)+0x13b\n") &&
                     Catch::Contains("\n  [9] [0x7f77f4120bbf]\n") &&
                     Catch::Contains("\n  [16] libc.so.6: +0x29d90\n"));
    }
    if (name.rfind("Mapper Call", 0) == 0) {
      ++in_mapper_calls;
      CHECK_THAT(note, Catch::Contains("begin_mapper_call"));
    }
  }
  CHECK(noted.size() == 7);
  CHECK(top == 2);
  CHECK(in_mapper_calls == 4);
  CHECK(in_meta_tasks == 1 + 4);
  // The details of the top-level task list both.
  uint32_t toplevel = kNone;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.label(i) == "Toplevel Task") toplevel = i;
  }
  REQUIRE(toplevel != kNone);
  const ItemDetails d = details(p, toplevel);
  REQUIRE(d.noted_waits.size() == 2);
  CHECK(d.noted_waits[0].start < d.noted_waits[1].start);
  // Without BacktraceDesc records the waits are the same, with no notes.
  TempDir dir;
  LogEditor e(data_file(kA));
  e.drop_kind("BacktraceDesc");
  const std::string path = dir.file("no_backtraces.prof");
  write_file(path, e.encode());
  const Profile q = legato::load::load_profile({path});
  CHECK(q.wait_notes.empty());
  CHECK(q.waits.size() == p.waits.size());
}
