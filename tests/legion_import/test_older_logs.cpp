// Legion Prof logs of older Legion versions, written by the test-only writer
// in the layouts real logs of those versions have (synthetic logs, with the
// answers gpu_run_fixture.hpp put in): Legion of December 2023, whose every
// node's file describes the whole machine and gives provenances as text, and
// Legion of May 2020 (no MachineDesc or ZeroTime, instances in three records,
// copies and fills naming their memories, memory kinds numbered from
// GLOBAL_MEM = 0, messages named by MessageDesc).
#include <algorithm>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "analysis/utilization.hpp"
#include "gpu_run_fixture.hpp"
#include "legion_import/import.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::analysis;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string warnings(const Profile& p) {
  std::string w;
  for (const auto& x : p.warnings) w += x + "\n";
  return w;
}

// node -> lane names, each as often as the node has such a lane.
std::map<uint32_t, std::multiset<std::string>> lanes_by_node(const Profile& p) {
  std::map<uint32_t, std::multiset<std::string>> out;
  for (const Lane& l : p.lanes) out[l.rank].insert(l.name);
  return out;
}

const Lane& lane(const Profile& p, uint32_t rank, const std::string& name) {
  for (const auto& l : p.lanes)
    if (l.rank == rank && l.name == name) return l;
  FAIL("no lane " << name << " on node " << rank);
  throw 0;
}

// Channel name -> (items, bytes) on a node.
std::map<std::string, std::pair<size_t, uint64_t>> channels(const Profile& p, uint32_t rank) {
  std::map<std::string, std::pair<size_t, uint64_t>> out;
  for (const Lane& l : p.lanes) {
    if (l.rank != rank || l.kind != LaneKind::Channel) continue;
    for (uint32_t i = l.begin; i < l.end; ++i) {
      auto& [n, bytes] = out[l.name];
      ++n;
      bytes += p.items[i].kind == ItemKind::Fill || p.items[i].kind == ItemKind::Copy
                   ? p.copy_of(p.items[i])->bytes
                   : 0;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a 2-node run whose files each describe the whole machine: every lane on its own node",
          "[legion][older]") {
  for (const LogVersion v : {LogVersion::V2023, LogVersion::V2020}) {
    INFO(static_cast<uint32_t>(v));
    TempDir dir;
    const GpuRunFiles f = write_gpu_run(dir.path().string(), v);
    const Profile p = legato::load::load_profile({f.node0, f.node1});
    INFO(warnings(p));
    CHECK(p.warnings.empty());
    REQUIRE(p.nodes.size() == 2);
    CHECK(p.ranks_expected == 2);
    const auto by_node = lanes_by_node(p);
    for (uint32_t n = 0; n < 2; ++n) {
      INFO("node " << n);
      // Each processor and memory once, on the node its id names, whichever
      // file described it and however often.
      for (const char* name : {"u0", "c1", "c2", "g3h", "g3d", "sysmem0", "zcmem1", "fbmem2"})
        CHECK(by_node.at(n).count(name) == 1);
      // The node's own GPU work.
      CHECK(busy_time(p, lane(p, n, "g3d")) == 13000);
      CHECK(busy_time(p, lane(p, n, "g3h")) == 11000);
      CHECK(busy_time(p, lane(p, n, "c2")) == 6000);
      // Memories with their kinds, capacities and instances.
      const Lane& fb = lane(p, n, "fbmem2");
      const Lane& zc = lane(p, n, "zcmem1");
      const Lane& sys = lane(p, n, "sysmem0");
      CHECK(fb.kind == LaneKind::Framebuffer);
      CHECK(zc.kind == LaneKind::ZeroCopy);
      CHECK(sys.kind == LaneKind::SystemMemory);
      CHECK(fb.capacity == uint64_t{16} << 30);
      CHECK(zc.capacity == 64 * kMiB);
      CHECK(sys.capacity == 256 * kMiB);
      CHECK(fb.capacity_given);
      CHECK(fb.end - fb.begin == 3);
      CHECK(peak_bytes(p, fb) == 96 * kMiB);
      CHECK(peak_bytes(p, zc) == 3 * kMiB);
      // Copies on their channels, with their bytes; an older log's gather
      // and scatter are copies between their memories.
      const auto chans = channels(p, n);
      CHECK(chans.at("zcmem1 -> fbmem2").second == (v == LogVersion::V2020 ? 2 : 1) * kMiB);
      CHECK(chans.at("fbmem2 -> zcmem1").second == (v == LogVersion::V2020 ? 2 : 1) * kMiB);
      // FillInfo of 2020 gives no size.
      CHECK(chans.at("fill fbmem2") ==
            std::pair<size_t, uint64_t>{1, v == LogVersion::V2020 ? 0 : 64 * kMiB});
    }
    // Node 0's copy to node 1's Framebuffer: node 0's file describes it, so
    // the channel names it by its node.
    CHECK(channels(p, 0).at("fbmem2 -> node 1 fbmem2").second == 8 * kMiB);
    for (const Lane& l : p.lanes) CHECK(l.name.find('?') == std::string::npos);
  }
}

TEST_CASE("Legion of 2023: provenances given as text name the program's lines", "[legion][older]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V2023);
  const Profile p = legato::load::load_profile({f.node0, f.node1});
  std::set<std::string> provenances;
  for (const Operation& op : p.operations) provenances.insert(p.str(op.provenance));
  // The part a user reads, before Legate's machine-readable "$...".
  CHECK(provenances == std::set<std::string>{"prog.py:10", "prog.py:20", "prog.py:30", "prog.py:40",
                                             "prog.py:50"});
}

TEST_CASE("Legion of 2020: instances, copies, fills and memory kinds of the older records",
          "[legion][older]") {
  TempDir dir;
  const GpuRunFiles f = write_gpu_run(dir.path().string(), LogVersion::V2020);
  const analysis::RankTrace t = legion::import_log(f.node0);
  INFO([&] {
    std::string s;
    for (const auto& x : t.problems) s += x + "\n";
    return s;
  }());
  CHECK(t.problems.empty());  // no kind skipped, no copy left out
  CHECK(t.run.rank == 0);
  CHECK(t.run.ranks == 2);  // from the processors it describes
  CHECK(t.metadata["legion"]["memory_kinds"].get<std::string>().find("GLOBAL_MEM") !=
        std::string::npos);
  // Six instances, each on the memory its InstUsageInfo names.
  std::map<uint32_t, size_t> per_memory;
  for (const auto& in : t.all.get<trace::InstanceRecord>()) {
    CHECK(in.bytes > 0);
    ++per_memory[in.memory];
  }
  CHECK(per_memory.size() == 3);
  CHECK(t.all.get<trace::InstanceRecord>().size() == 6);
  // Every copy and fill placed: four copies, the network copy and a fill.
  CHECK(t.all.get<trace::CopyRecord>().size() == 6);
  // Node 1's file is node 1 from the processors its items ran on.
  CHECK(legion::import_log(f.node1).run.rank == 1);
}

TEST_CASE("Legion of 2020: messages are named by MessageDesc", "[legion][older]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.gz");
  {
    LegionLogWriter w(path, LogVersion::V2020, true);
    const uint64_t u0 = proc_id(0, 0);
    w.proc(u0, kUtility);
    w.memory(mem_id(0, 0), kSystemMem, 512 * kMiB);
    CHECK(w.message_desc(7, "Send Remote Task"));
    w.meta_desc(7, "Not a message name");
    MetaTimes m;
    m.lg_id = 7;
    m.proc = u0;
    m.start = 1000;
    m.stop = 3000;
    w.message(m);
    w.finish();
  }
  const Profile p = legato::load::load_profile({path});
  INFO(warnings(p));
  CHECK(p.warnings.empty());
  const Lane& u0 = lane(p, 0, "u0");
  REQUIRE(u0.end - u0.begin == 1);
  CHECK(p.str(p.items[u0.begin].name) == "Send Remote Task");
  CHECK(lane(p, 0, "sysmem0").kind == LaneKind::SystemMemory);
  CHECK(lane(p, 0, "sysmem0").capacity == 512 * kMiB);
}

TEST_CASE("memory kinds numbered from GLOBAL_MEM are told apart by the memories a log describes",
          "[legion][older]") {
  // A log of 2020 with registered memory (then kind 2, today's System) and
  // a GPU: the Framebuffer without a kind 6 says which numbering it is.
  TempDir dir;
  const std::string path = dir.file("prof_0.gz");
  {
    LegionLogWriter w(path, LogVersion::V2020, true);
    w.proc(proc_id(0, 0), kCpu);
    w.proc(proc_id(0, 1), kGpu);
    w.memory(mem_id(0, 0), kSystemMem, 512 * kMiB);
    w.memory(mem_id(0, 1), kRegisteredMem, 64 * kMiB);
    w.memory(mem_id(0, 2), kFramebufferMem, 256 * kMiB);
    w.memory(mem_id(0, 3), kZeroCopyMem, 32 * kMiB);
    w.finish();
  }
  const Profile p = legato::load::load_profile({path});
  CHECK(lane(p, 0, "sysmem0").kind == LaneKind::SystemMemory);
  CHECK(lane(p, 0, "sysmem0").capacity == 512 * kMiB);
  CHECK(lane(p, 0, "regmem1").capacity == 64 * kMiB);
  CHECK(lane(p, 0, "fbmem2").kind == LaneKind::Framebuffer);
  CHECK(lane(p, 0, "zcmem3").kind == LaneKind::ZeroCopy);
  // The same memories in today's numbering are read as they are.
  const std::string today = dir.file("today.gz");
  {
    LegionLogWriter w(today, LogVersion::V1008, true);
    w.machine(MachineInfo{});
    w.proc(proc_id(0, 0), kCpu);
    w.proc(proc_id(0, 1), kGpu);
    w.memory(mem_id(0, 0), kSystemMem, 512 * kMiB);
    w.memory(mem_id(0, 2), kFramebufferMem, 256 * kMiB);
    w.finish();
  }
  const Profile q = legato::load::load_profile({today});
  CHECK(lane(q, 0, "sysmem0").kind == LaneKind::SystemMemory);
  CHECK(lane(q, 0, "fbmem2").kind == LaneKind::Framebuffer);
}

TEST_CASE("copies and fills that name no memories are counted in a warning, never dropped silently",
          "[legion][older]") {
  TempDir dir;
  const std::string path = dir.file("prof_0.prof");
  {
    LegionLogWriter w(path, LogVersion::V1008);
    w.machine(MachineInfo{});
    w.proc(proc_id(0, 1), kCpu);
    w.memory(mem_id(0, 0), kSystemMem, 512 * kMiB);
    ChannelTimes c;
    c.op = 5;
    c.size = 4096;
    c.start = 100;
    c.stop = 200;
    for (uint64_t k = 1; k <= 3; ++k) {
      c.fevent = event_id(0, k);
      w.copy(c);  // no CopyInstInfo: the log was cut before them
    }
    c.fevent = event_id(0, 9);
    w.fill(c);
    w.finish();
  }
  const analysis::RankTrace t = legion::import_log(path);
  std::string all;
  for (const auto& x : t.problems) all += x + "\n";
  CHECK(all.find("3 copies name no memories") != std::string::npos);
  CHECK(all.find("1 fills name no memories") != std::string::npos);
}
