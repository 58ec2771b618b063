// Legion Prof logs written by the test-only writer (synthetic logs, not
// real runs): the writer's layouts against the real log A's header, and a
// 2-node GPU run (gpu_run_fixture.hpp) in the 1006 and 1008 layouts with
// the answers the fixture put in: GPU host and device lanes, Framebuffer and
// Zero-Copy memories, channels of each kind, waits in mapper calls, and
// critical-path links between nodes. The real logs have none of these.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <catch2/catch.hpp>

#include "analysis/details.hpp"
#include "analysis/utilization.hpp"
#include "gpu_run_fixture.hpp"
#include "legion_import/import.hpp"
#include "legion_import/legato_ids.hpp"
#include "legion_import/log_reader.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "log_editor.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;
using legion::LogReader;
using trace::CopyKind;
using trace::testing::TempDir;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

const Lane& lane(const Profile& p, uint32_t rank, const std::string& name) {
  for (const auto& l : p.lanes) {
    if (l.rank == rank && l.name == name) return l;
  }
  FAIL("no lane " << name << " on node " << rank);
  throw 0;
}

// The item of a lane that starts at `start` (and is of `kind`).
uint32_t item_at(const Profile& p, const Lane& l, Time start, ItemKind kind) {
  for (uint32_t i = l.begin; i < l.end; ++i) {
    if (p.items[i].start == start && p.items[i].kind == kind) return i;
  }
  FAIL("no item at " << start << " on " << l.name);
  return kNone;
}

std::vector<std::pair<uint32_t, uint8_t>> preconditions(const Profile& p, uint32_t item) {
  std::vector<std::pair<uint32_t, uint8_t>> out;
  const auto [first, last] = p.recorded_preconditions(item);
  for (const Precondition* c = first; c != last; ++c) out.emplace_back(c->item, c->kind);
  return out;
}

// Decodes a whole file; returns the records, failing on any problem.
uint64_t decode_all(const std::string& path) {
  auto r = LogReader::open(path);
  legion::Record rec;
  while (r->next(rec)) {
  }
  INFO(path);
  CHECK(r->problems().empty());
  CHECK(r->clean_end());
  CHECK_FALSE(r->damaged());
  return r->records();
}

std::string layout_text(const legion::RecordLayout& l) {
  std::string s = std::to_string(l.id) + " " + l.name;
  for (const auto& f : l.fields) s += " " + f.name + ":" + f.type + ":" + std::to_string(f.size);
  return s;
}

const char* version_name(LogVersion v) {
  return v == LogVersion::V1008 ? "1008" : "1006";
}

}  // namespace

TEST_CASE("the writer's 1008 layouts are the real logs' layouts", "[legion][writer]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1008);
    w.machine(MachineInfo{});
    w.finish();
  }
  const auto ours = LogReader::open(path);
  const auto real = LogReader::open(data_file(kA));
  REQUIRE(ours->header().layouts.size() == real->header().layouts.size());
  for (const auto& l : real->header().layouts) {
    const legion::RecordLayout* o = ours->header().find(l.name);
    REQUIRE(o != nullptr);
    CHECK(layout_text(*o) == layout_text(l));
  }
  // Byte for byte: the same header lines in the same order.
  CHECK(ours->header().size == real->header().size);
  CHECK(ours->header().first_line == "FileType: BinaryLegionProf v: 1.0");
}

TEST_CASE("the writer's 1006 layouts follow the version table", "[legion][writer]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1006);
    w.machine(MachineInfo{});
    CHECK_FALSE(w.event_merger(event_id(0, 2), event_id(0, 1), 10, event_id(0, 3)));
    CHECK_FALSE(w.implicit_task(TaskTimes{}));
    CHECK(w.records() == 4);
    w.finish();
  }
  const auto r = LogReader::open(path);
  const legion::Header& h = r->header();
  CHECK(h.layouts.size() == 52);
  for (const char* gone : {"ImplicitTaskInfo", "EventMergerInfo", "EventTriggerInfo",
                           "EventPoisonInfo", "BarrierArrivalInfo", "ReservationAcquireInfo",
                           "InstanceReadyInfo", "InstanceRedistrictInfo", "CompletionQueueInfo"})
    CHECK(h.find(gone) == nullptr);
  for (const auto& l : h.layouts) {
    INFO(l.name);
    CHECK(l.field("critical") < 0);
  }
  CHECK(h.find("PartitionInfo")->field("fevent") < 0);
  CHECK(h.find("ProfTaskInfo")->field("completion") < 0);
  CHECK(h.find("TaskInfo")->field("fevent") >= 0);
  // Ids of the version table (legion_prof_logs.md §1.6).
  const std::map<std::string, uint32_t> ids = {
      {"GPUTaskInfo", 28},    {"ProcMDesc", 29},    {"CopyInstInfo", 46},
      {"EventWaitInfo", 49},  {"ProfTaskInfo", 50}, {"ZeroTime", 51},
      {"CalibrationErr", 52}, {"Provenance", 53},   {"TaskInfo", 18}};
  for (const auto& [name, id] : ids) {
    INFO(name);
    CHECK(h.find(name)->id == id);
  }
}

TEST_CASE("the synthetic GPU run decodes with the real logs' rules", "[legion][writer]") {
  for (const LogVersion v : {LogVersion::V1006, LogVersion::V1008}) {
    for (const bool gz : {false, true}) {
      INFO(version_name(v) << (gz ? " gzip" : " plain"));
      TempDir dir;
      const GpuRunFiles f = write_gpu_run(dir.path().string(), v, gz);
      const auto bytes = read_file(f.node0);
      REQUIRE(bytes.size() > 2);
      CHECK((bytes[0] == 0x1f && bytes[1] == 0x8b) == gz);
      CHECK(LogReader::open(f.node0)->compressed() == gz);
      const uint64_t n0 = decode_all(f.node0), n1 = decode_all(f.node1);
      // Node 0 has the network copy and the partition, node 1 a merge
      // (1008); 1008 adds the event graph.
      CHECK(n0 == n1 + (v == LogVersion::V1008 ? 2 : 3));
      CHECK(n1 == (v == LogVersion::V1008 ? 66u : 57u));
    }
  }
}

TEST_CASE("a 2-node GPU run: lanes, busy times, memories and channels", "[legion][writer]") {
  for (const LogVersion v : {LogVersion::V1006, LogVersion::V1008}) {
    INFO(version_name(v));
    TempDir dir;
    const GpuRunFiles f = write_gpu_run(dir.path().string(), v);
    const Profile p = legato::load::load_profile({f.node0, f.node1});
    INFO([&] {
      std::string w;
      for (const auto& x : p.warnings) w += x + "\n";
      return w;
    }());
    CHECK(p.warnings.empty());
    CHECK(p.ranks.size() == 2);
    CHECK(p.ranks_expected == 2);
    CHECK(p.nodes.size() == 2);
    for (uint32_t n = 0; n < 2; ++n) {
      INFO("node " << n);
      // A GPU is two lanes: task bodies on the host, kernels on the device.
      const Lane& host = lane(p, n, "g3h");
      const Lane& dev = lane(p, n, "g3d");
      CHECK(host.kind == LaneKind::GpuHost);
      CHECK(dev.kind == LaneKind::GpuDevice);
      CHECK(host.end - host.begin == 2);
      CHECK(dev.end - dev.begin == 2);
      for (uint32_t i = dev.begin; i < dev.end; ++i) CHECK(p.items[i].kind == ItemKind::GpuKernel);
      CHECK(busy_time(p, host) == 11000);
      CHECK(busy_time(p, dev) == 13000);
      CHECK(busy_time(p, lane(p, n, "c1")) == 8000);
      CHECK(busy_time(p, lane(p, n, "c2")) == 6000);
      CHECK(busy_time(p, lane(p, n, "u0")) == 1700);
      // Memories.
      const Lane& fb = lane(p, n, "fbmem2");
      const Lane& zc = lane(p, n, "zcmem1");
      CHECK(fb.kind == LaneKind::Framebuffer);
      CHECK(zc.kind == LaneKind::ZeroCopy);
      CHECK(lane(p, n, "sysmem0").kind == LaneKind::SystemMemory);
      CHECK(fb.end - fb.begin == 3);
      CHECK(zc.end - zc.begin == 2);
      CHECK(peak_bytes(p, fb) == 96 * kMiB);
      CHECK(peak_bytes(p, zc) == 3 * kMiB);
      CHECK(fb.capacity == uint64_t{16} << 30);
      CHECK(zc.capacity == 64 * kMiB);
      // Channels: copies, a gather, a scatter and a fill.
      std::map<std::string, std::vector<CopyKind>> chans;
      for (const auto& l : p.lanes) {
        if (l.rank != n || l.kind != LaneKind::Channel) continue;
        for (uint32_t i = l.begin; i < l.end; ++i) {
          const Item& it = p.items[i];
          chans[l.name].push_back(it.kind == ItemKind::Fill ? trace::CopyKind::Fill
                                                            : p.copy_of(it)->kind);
        }
      }
      std::map<std::string, std::vector<CopyKind>> want = {
          {"zcmem1 -> fbmem2", {CopyKind::Copy}},
          {"fbmem2 -> zcmem1", {CopyKind::Copy}},
          {"gather zcmem1 -> fbmem2", {CopyKind::Gather}},
          {"scatter -> zcmem1", {CopyKind::Scatter}},
          {"fill fbmem2", {CopyKind::Fill}}};
      for (const auto& [name, kinds] : want) {
        INFO(name);
        CHECK(chans[name] == kinds);
      }
      CHECK(chans.size() == (n == 0 ? 6u : 5u));
    }
    // Node 0's dependent partitioning, and no such lane on node 1.
    const Lane& dp = lane(p, 0, "dp0");
    CHECK(dp.kind == LaneKind::DepPart);
    REQUIRE(dp.end - dp.begin == 1);
    CHECK(p.str(p.items[dp.begin].name) == "Partition by Field");
    CHECK(p.items[dp.begin].duration() == 2000);
    for (const auto& l : p.lanes) CHECK_FALSE((l.rank == 1 && l.kind == LaneKind::DepPart));
  }
}

TEST_CASE("a copy's details give its effective bandwidth", "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  const Profile p = legato::load::load_profile({f.node0, f.node1});
  // Node 0's first copy: 1 MiB from zcmem1 to fbmem2 in 1,000 ns.
  size_t copies = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    if (p.items[i].kind != ItemKind::Copy && p.items[i].kind != ItemKind::Fill) {
      CHECK(details(p, i).bandwidth == 0);
      continue;
    }
    const ItemDetails d = details(p, i);
    CHECK(d.bandwidth ==
          Approx(static_cast<double>(d.bytes) * 1e9 / static_cast<double>(p.items[i].duration())));
    if (p.lanes[p.lane_of(i)].rank == 0 && p.items[i].start == 10500 &&
        p.lanes[p.lane_of(i)].name == "zcmem1 -> fbmem2") {
      ++copies;
      CHECK(d.bytes == 1024 * 1024);
      CHECK(d.bandwidth == Approx(1048576e9 / 1000));
    }
  }
  CHECK(copies == 1);
}

TEST_CASE("channel kinds of the synthetic run's copies", "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  const RankTrace t = legion::import_log(f.node0);
  std::map<std::string, trace::ChannelKind> kinds;
  for (const auto& c : t.all.get<trace::ChannelRecord>())
    kinds[t.strings.at(c.name)] = c.channel_kind;
  CHECK(kinds.at("zcmem1 -> fbmem2") == trace::ChannelKind::HostToDevice);
  CHECK(kinds.at("fbmem2 -> zcmem1") == trace::ChannelKind::DeviceToHost);
  CHECK(kinds.at("gather zcmem1 -> fbmem2") == trace::ChannelKind::HostToDevice);
  CHECK(kinds.at("fill fbmem2") == trace::ChannelKind::Fill);
  // The copy to node 1's Framebuffer goes over the network; node 0's file
  // does not describe node 1's memories, so it is named by node and index.
  size_t network = 0;
  for (const auto& [name, kind] : kinds) {
    if (kind == trace::ChannelKind::Network) {
      ++network;
      CHECK(name == "fbmem2 -> node 1 mem 2");
    }
  }
  CHECK(network == 1);
}

TEST_CASE("a wait in a mapper call blocks the call and the meta task it ran in",
          "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  const Profile p = legato::load::load_profile({f.node0, f.node1});
  const Lane& u0 = lane(p, 0, "u0");
  REQUIRE(u0.end - u0.begin == 3);
  const uint32_t meta = item_at(p, u0, 500, ItemKind::MetaTask);
  const uint32_t call = item_at(p, u0, 600, ItemKind::MetaTask);
  const uint32_t inner = item_at(p, u0, 2000, ItemKind::MetaTask);
  CHECK(p.str(p.items[call].name) == "Mapper Call map_task");
  CHECK(p.str(p.items[inner].name) == "Runtime Call create_region");
  const auto starts = [&](uint32_t i) {
    std::vector<std::pair<Time, Time>> v;
    const auto [b, e] = p.waits_of(i);
    for (const Wait* w = b; w != e; ++w) v.emplace_back(w->start, w->end);
    return v;
  };
  // The recorded wait blocks the meta task and the call that contains it,
  // not the runtime call that ran after it; calls are not waits.
  CHECK(starts(meta) == std::vector<std::pair<Time, Time>>{{1000, 1800}});
  CHECK(starts(call) == std::vector<std::pair<Time, Time>>{{1000, 1800}});
  CHECK(starts(inner).empty());
  CHECK(busy_time(p, u0) == 1700);  // 2500 of meta task minus the 800 of the wait
}

// A task holding many calls, some nested, with waits at each depth: each
// wait blocks the task and exactly the calls that contain it, in whatever
// order the log records them.
TEST_CASE("waits go to the task and to each call containing them", "[legion][writer]") {
  TempDir dir;
  const std::string path = dir.file("calls.prof");
  {
    LegionLogWriter w(path, LogVersion::V1008);
    MachineInfo m;
    w.machine(m);
    const uint64_t c1 = proc_id(0, 1);
    w.proc(c1, kCpu);
    w.task_kind(1, "solver");
    w.task_variant(1, 1, "cpu");
    w.runtime_call_desc(3, "create_region");
    w.operation(10, ~uint64_t{0}, 30);
    TaskTimes t;
    t.op = 10;
    t.task_id = t.variant_id = 1;
    t.proc = c1;
    t.create = t.ready = t.start = 1000;
    t.stop = 100000;
    t.fevent = event_id(0, 1);
    w.task(t);
    w.task_wait(10, 1, 1, 10000, 10500, 11000);  // in the task only, recorded first
    for (const auto& [a, b] : std::vector<std::pair<uint64_t, uint64_t>>{
             {2000, 3000}, {4000, 9000}, {5000, 6000}, {20000, 21000}})
      w.runtime_call(3, a, b, c1, t.fevent);
    for (uint64_t k = 0; k < 1000; ++k)  // calls that hold no wait
      w.runtime_call(3, 30000 + 50 * k, 30040 + 50 * k, c1, t.fevent);
    w.task_wait(10, 1, 1, 5100, 5150, 5200);     // in 4000..9000 and 5000..6000
    w.task_wait(10, 1, 1, 2200, 2400, 2500);     // in 2000..3000
    w.task_wait(10, 1, 1, 7000, 7500, 8000);     // in 4000..9000
    w.task_wait(10, 1, 1, 20000, 20900, 21000);  // exactly 20000..21000
    w.task_wait(10, 1, 1, 80000, 80100, 80200);  // after every call
    w.finish();
  }
  const Profile p = legato::load::load_profile({path});
  const Lane& c = lane(p, 0, "c1");
  const auto waits = [&](uint32_t i) {
    std::vector<std::pair<Time, Time>> v;
    const auto [b, e] = p.waits_of(i);
    for (const Wait* x = b; x != e; ++x) v.emplace_back(x->start, x->end);
    return v;
  };
  using V = std::vector<std::pair<Time, Time>>;
  CHECK(
      waits(item_at(p, c, 1000, ItemKind::Task)) ==
      V{{2200, 2500}, {5100, 5200}, {7000, 8000}, {10000, 11000}, {20000, 21000}, {80000, 80200}});
  CHECK(waits(item_at(p, c, 2000, ItemKind::MetaTask)) == V{{2200, 2500}});
  CHECK(waits(item_at(p, c, 4000, ItemKind::MetaTask)) == V{{5100, 5200}, {7000, 8000}});
  CHECK(waits(item_at(p, c, 5000, ItemKind::MetaTask)) == V{{5100, 5200}});
  CHECK(waits(item_at(p, c, 20000, ItemKind::MetaTask)) == V{{20000, 21000}});
  size_t blocked_calls = 0;
  for (uint32_t i = c.begin; i < c.end; ++i)
    blocked_calls += p.items[i].kind == ItemKind::MetaTask && !waits(i).empty();
  CHECK(blocked_calls == 4);
  CHECK(p.waits.size() == 6 + 5);
  // 99,000 of task minus 3,600 of waits; its calls inside count once.
  CHECK(busy_time(p, c) == 95400);
}

TEST_CASE("critical-path links of the synthetic run, across nodes", "[legion][writer]") {
  for (const LogVersion v : {LogVersion::V1006, LogVersion::V1008}) {
    INFO(version_name(v));
    TempDir dir;
    const GpuRunFiles f = write_gpu_run(dir.path().string(), v);
    const Profile p = legato::load::load_profile({f.node0, f.node1});
    for (uint32_t n = 0; n < 2; ++n) {
      INFO("node " << n);
      const uint32_t gpu1 = item_at(p, lane(p, n, "g3h"), 13500, ItemKind::Task);
      const uint32_t cpu1 = item_at(p, lane(p, n, "c1"), 3100, ItemKind::Task);
      const uint32_t meta = item_at(p, lane(p, n, "u0"), 500, ItemKind::MetaTask);
      const uint32_t meta0 = item_at(p, lane(p, 0, "u0"), 500, ItemKind::MetaTask);
      using E = std::vector<std::pair<uint32_t, uint8_t>>;
      const auto data = static_cast<uint8_t>(trace::EdgeKind::Data);
      const auto control = static_cast<uint8_t>(trace::EdgeKind::Control);
      if (v == LogVersion::V1008) {
        // The merge's later precondition (cpu_task op 10+n) held it back.
        CHECK(preconditions(p, gpu1) == E{{cpu1, data}});
      } else {
        // Without the event graph: the creator, never an event-graph link.
        CHECK(preconditions(p, gpu1) == E{{meta, control}});
      }
      // Node 1's cpu_task was created by node 0's meta task (1008: created
      // after its precondition triggered, so its creator is the path).
      CHECK(preconditions(p, cpu1) == E{{n == 1 ? meta0 : meta, control}});
    }
  }
}

TEST_CASE("a generated multi-node run loads as one run", "[legion][writer]") {
  for (const bool gz : {false, true}) {
    INFO((gz ? "gzip" : "plain"));
    TempDir dir;
    const uint64_t written = write_synthetic_run(dir.path().string(), 3, 2000, gz);
    CHECK(written >= 3 * 2000);
    CHECK(written < 3 * 2000 + 3 * 64);
    const std::string ext = gz ? ".gz" : ".prof";
    std::vector<std::string> files;
    uint64_t decoded = 0;
    for (int n = 0; n < 3; ++n) {
      files.push_back(dir.file("prof_" + std::to_string(n) + ext));
      decoded += decode_all(files.back());
    }
    CHECK(decoded == written);
    const Profile p = legato::load::load_profile(files);
    INFO([&] {
      std::string w;
      for (const auto& x : p.warnings) w += x + "\n";
      return w;
    }());
    CHECK(p.warnings.empty());
    CHECK(p.ranks.size() == 3);
    CHECK(p.nodes.size() == 3);
    CHECK(p.ranks_expected == 3);
    CHECK(p.records == written);
    size_t kernels = 0, tasks = 0, copies = 0;
    for (const Item& it : p.items) {
      kernels += it.kind == ItemKind::GpuKernel;
      tasks += it.kind == ItemKind::Task;
      copies += it.kind == ItemKind::Copy;
    }
    CHECK(kernels > 0);
    CHECK(tasks > kernels);
    CHECK(copies > 0);
    // Tasks never overlap on a processor.
    for (const auto& l : p.lanes) {
      if (l.kind != LaneKind::Cpu && l.kind != LaneKind::GpuHost) continue;
      std::vector<std::pair<Time, Time>> spans;
      for (uint32_t i = l.begin; i < l.end; ++i) {
        if (p.items[i].kind == ItemKind::Task)
          spans.emplace_back(p.items[i].start, p.items[i].stop());
      }
      std::sort(spans.begin(), spans.end());
      for (size_t i = 1; i < spans.size(); ++i) {
        INFO(l.name << " task " << i);
        CHECK(spans[i - 1].second <= spans[i].first);
      }
    }
  }
}

// The model's steps split their work over threads (lanes placed, each
// node's edges and waits resolved, in parallel); the profile must not
// depend on how many there are, nor on which thread finished first.
TEST_CASE("a run merges into the same profile on one thread or several", "[legion][writer]") {
  TempDir dir;
  write_synthetic_run(dir.path().string(), 3, 3000, false);
  std::vector<std::string> files;
  for (int n = 0; n < 3; ++n) files.push_back(dir.file("prof_" + std::to_string(n) + ".prof"));
  const Profile one = legato::load::load_profile(files, legato::load::LoadOptions::with_threads(1));
  const auto wait = [](const Wait& w) {
    return std::tie(w.item, w.event, w.start, w.ready, w.end);
  };
  const auto pre = [](const Precondition& c) {
    return std::make_tuple(uint32_t{c.item}, uint8_t{c.kind}, uint8_t{c.at});
  };
  REQUIRE(one.waits.size() > 300);
  REQUIRE(one.pre.size() > 1000);
  for (const unsigned threads : {2u, 5u}) {
    INFO(threads << " threads");
    const Profile many =
        legato::load::load_profile(files, legato::load::LoadOptions::with_threads(threads));
    CHECK(many.warnings == one.warnings);
    REQUIRE(many.items.size() == one.items.size());
    size_t items_differ = 0;
    for (size_t i = 0; i < one.items.size(); ++i)
      items_differ += many.items[i] != one.items[i];  // every field
    CHECK(items_differ == 0);
    REQUIRE(many.lanes.size() == one.lanes.size());
    for (size_t l = 0; l < one.lanes.size(); ++l) {
      INFO("lane " << one.lanes[l].name);
      CHECK(many.lanes[l].begin == one.lanes[l].begin);
      CHECK(many.lanes[l].end == one.lanes[l].end);
      CHECK(many.lanes[l].rows.size() == one.lanes[l].rows.size());
    }
    REQUIRE(many.waits.size() == one.waits.size());
    size_t waits_differ = 0;
    for (size_t k = 0; k < one.waits.size(); ++k)
      waits_differ += wait(many.waits[k]) != wait(one.waits[k]);
    CHECK(waits_differ == 0);
    CHECK(many.pre_block == one.pre_block);
    REQUIRE(many.pre.size() == one.pre.size());
    size_t pre_differ = 0;
    for (size_t k = 0; k < one.pre.size(); ++k) pre_differ += pre(many.pre[k]) != pre(one.pre[k]);
    CHECK(pre_differ == 0);
    CHECK(many.wait_notes == one.wait_notes);
    for (uint32_t i = 0; i < one.items.size(); i += 97) {
      INFO("item " << i);
      CHECK(many.ready_of(i) == one.ready_of(i));
      CHECK(many.mapped_by(i) == one.mapped_by(i));
    }
  }
}

// The loader reads a run's links where the critical path left them
// (the late edges of its reader); a log imported alone writes them as edge records,
// as `legate_prof info` and `dump` read them. Both give the model the same
// preconditions.
TEST_CASE("a log's links are the same read in place or as edge records", "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  write_synthetic_run(dir.path().string(), 2, 3000, false);
  for (const std::string& file : {f.node1, dir.file("prof_0.prof"), dir.file("prof_1.prof")}) {
    INFO(file);
    const Profile in_place = legato::load::load_profile({file});
    std::vector<RankTrace> alone;
    alone.push_back(legion::import_log(file));
    const size_t records = alone.front().all.get<trace::EdgeRecord>().size();
    CHECK(alone.front().late_edges == nullptr);
    const Profile from_records = build_profile(std::move(alone));
    CHECK(in_place.pre.size() <= records);  // less those naming another node's items
    REQUIRE(in_place.pre.size() > 10);
    CHECK(in_place.pre_block == from_records.pre_block);
    REQUIRE(in_place.pre.size() == from_records.pre.size());
    size_t differ = 0;
    for (size_t k = 0; k < in_place.pre.size(); ++k) {
      const Precondition &a = in_place.pre[k], &b = from_records.pre[k];
      differ += a.item != b.item || a.kind != b.kind || a.at != b.at;
    }
    CHECK(differ == 0);
  }
}

// The event graphs of a run's files are resolved together: node 1's GPU
// task waited on a merge whose latest precondition node 0's GPU task
// triggered, so that remote task is its critical predecessor (as legion_prof
// finds with both files). Read alone, node 1's file can only name a local one.
TEST_CASE("a critical precondition from another node's file", "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  const Profile p = legato::load::load_profile({f.node0, f.node1});
  const uint32_t gpu2 = item_at(p, lane(p, 1, "g3h"), 21500, ItemKind::Task);
  const uint32_t remote = item_at(p, lane(p, 0, "g3h"), 13500, ItemKind::Task);
  CHECK(preconditions(p, gpu2) == std::vector<std::pair<uint32_t, uint8_t>>{
                                      {remote, static_cast<uint8_t>(trace::EdgeKind::Data)}});
  const Profile alone = legato::load::load_profile({f.node1});
  const uint32_t local = item_at(alone, lane(alone, 1, "g3h"), 21500, ItemKind::Task);
  const auto pre = preconditions(alone, local);
  REQUIRE(pre.size() == 1);
  CHECK(alone.items[pre[0].first].start < 21500);
  CHECK(p.items[remote].start == 13500);
}

TEST_CASE("a copy naming a task's fevent (a damaged log) keeps its own id", "[legion][writer]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V1008);
  const RankTrace before = legion::import_log(f.node0);
  // Node 0's first copy (fevent 20) made to name cpu_task op 10's (fevent 2).
  LogEditor e(f.node0);
  size_t edited = 0;
  for (auto& r : e.records) {
    if ((r.kind == "CopyInfo" || r.kind == "CopyInstInfo") && r.get("fevent") == event_id(0, 20)) {
      r.set("fevent", event_id(0, 2));
      ++edited;
    }
  }
  REQUIRE(edited == 2);
  const std::string path = dir.file("copy_names_task_event.prof");
  write_file(path, e.encode());
  const RankTrace t = legion::import_log(path);
  const Uid task_uid = legion::event_uid(event_id(0, 2));
  size_t tasks_with_it = 0;
  for (const auto& r : t.all.get<trace::TaskRecord>()) tasks_with_it += r.uid == task_uid;
  CHECK(tasks_with_it == 1);
  const auto& copies = t.all.get<trace::CopyRecord>();
  REQUIRE(copies.size() == before.all.get<trace::CopyRecord>().size());
  std::set<Uid> uids;
  for (const auto& c : copies) {
    CHECK(c.uid != task_uid);
    uids.insert(c.uid);
  }
  CHECK(uids.size() == copies.size());
  // The other copies keep the ids of their own events.
  CHECK(uids.count(legion::event_uid(event_id(0, 21))) == 1);
  const Profile p = legato::load::load_profile({path, f.node1});
  for (const auto& w : p.warnings) CHECK(w.find("reuse the uid") == std::string::npos);
}
