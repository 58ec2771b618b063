// The GPU sample traces (sample_traces/gpu/, recorded on an H100 and an
// H200 with --gpus 1; sample_traces/README.md says what each shows) keep opening into
// the lanes a GPU run has: GPU Host tasks with their kernels on the GPU
// Device lane, inside them on the fitted clock; Framebuffer and Zero-Copy
// memories with their instances; copies on channels between them; on 4
// ranks, the all-reduces and the transfers between nodes.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "analysis/findings.hpp"
#include "load/load.hpp"

using namespace legato;
using analysis::ItemKind;
using analysis::LaneKind;

namespace {

std::vector<std::string> sample(const std::string& name, int ranks) {
  std::vector<std::string> files;
  for (int r = 0; r < ranks; ++r) {
    files.push_back(std::string(LEGATO_SOURCE_DIR) + "/sample_traces/gpu/" + name + "/legate_" +
                    std::to_string(r) + ".prof");
  }
  return files;
}

// Per rank: items of each kind on lanes of each kind, and copies per channel name.
struct Counts {
  std::map<std::pair<LaneKind, ItemKind>, int> items;
  std::map<LaneKind, int> lanes;
  std::map<std::string, int> copies;
};

std::vector<Counts> count(const analysis::Profile& p) {
  std::vector<Counts> out(p.ranks.size());
  for (const analysis::Lane& lane : p.lanes) {
    Counts& c = out.at(lane.rank);
    ++c.lanes[lane.kind];
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      ++c.items[{lane.kind, p.items[i].kind}];
      if (p.items[i].kind == ItemKind::Copy) ++c.copies[lane.name];
    }
  }
  return out;
}

// Every kernel is tied to the item of its rank that launched it (a GPU Host
// task, or a copy or fill on a channel: gather, scatter and fill kernels)
// and runs inside it, within the fitted clock's stated error.
void check_kernels(const analysis::Profile& p) {
  std::vector<uint32_t> lane_of(p.items.size(), analysis::kNone);
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) lane_of[i] = l;
  }
  int kernels = 0;
  for (uint32_t i = 0; i < p.items.size(); ++i) {
    const analysis::Item& k = p.items[i];
    if (k.kind != ItemKind::GpuKernel) continue;
    ++kernels;
    const analysis::Lane& lane = p.lanes[lane_of[i]];
    const uint32_t task = p.kernel_of(k)->task;
    REQUIRE(task != analysis::kNone);
    const analysis::Lane& launcher = p.lanes[lane_of[task]];
    CHECK((launcher.kind == LaneKind::GpuHost || launcher.kind == LaneKind::Channel));
    CHECK(launcher.rank == lane.rank);
    const nlohmann::json& activity = p.ranks.at(lane.rank).metadata.at("gpu_activity");
    const auto slack = static_cast<analysis::Time>(
        activity.at("clock_fit").at("max_error_ns").get<double>() + 1000);
    const analysis::Item& t = p.items[task];
    CHECK(analysis::Time{k.start} + slack >= analysis::Time{t.start});
    CHECK(k.stop() <= t.stop() + slack);
    // Shown by its short name ("binary_kernel<double, double, AddOp>"),
    // with CUPTI's whole signature kept for the details.
    const std::string name = p.label(i);
    INFO(name);
    CHECK(name.find('(') == std::string::npos);
    CHECK(name.find("::") == std::string::npos);
    CHECK(name.find("_kernel") != std::string::npos);
    const std::string signature = p.str(p.kernel_signature(k.name));
    CHECK(signature.find(name.substr(0, name.find('<'))) != std::string::npos);
    CHECK(signature.back() == ')');
  }
  CHECK(kernels > 0);
}

void check_gpu_lanes(const std::vector<Counts>& counts) {
  for (const Counts& c : counts) {
    CHECK(c.lanes.at(LaneKind::GpuHost) == 1);
    CHECK(c.lanes.at(LaneKind::GpuDevice) == 1);
    CHECK(c.lanes.at(LaneKind::Framebuffer) == 1);
    CHECK(c.lanes.at(LaneKind::ZeroCopy) == 1);
  }
}

// A sample as loaded: no warnings, `records` records, a GPU's lanes on
// every rank; its counts per rank.
std::vector<Counts> opened(const analysis::Profile& p, uint64_t records) {
  CHECK(p.warnings.empty());
  CHECK(p.records == records);
  const std::vector<Counts> c = count(p);
  check_gpu_lanes(c);
  return c;
}

}  // namespace

TEST_CASE("the vectorized_update GPU sample", "[gpu_samples]") {
  const analysis::Profile p = load::load_profile(sample("vectorized_update", 1));
  const std::vector<Counts> c = opened(p, 334);
  CHECK(c[0].items.at({LaneKind::GpuHost, ItemKind::Task}) == 14);
  CHECK(c[0].items.at({LaneKind::GpuDevice, ItemKind::GpuKernel}) == 15);
  CHECK(c[0].items.at({LaneKind::Framebuffer, ItemKind::Instance}) == 10);
  // The random inputs are made on the GPU, in the framebuffer: nothing is
  // made in zero-copy memory or copied into the framebuffer.
  CHECK(c[0].items.count({LaneKind::ZeroCopy, ItemKind::Instance}) == 0);
  CHECK(c[0].copies.count("zcmem to fbmem0") == 0);
  check_kernels(p);
}

TEST_CASE("the chunked_update GPU sample", "[gpu_samples]") {
  const analysis::Profile p = load::load_profile(sample("chunked_update", 1));
  const std::vector<Counts> c = opened(p, 11162);
  CHECK(c[0].items.at({LaneKind::GpuHost, ItemKind::Task}) == 817);
  CHECK(c[0].items.at({LaneKind::GpuDevice, ItemKind::GpuKernel}) == 1566);
  CHECK(c[0].items.at({LaneKind::Framebuffer, ItemKind::Instance}) == 694);
  // The gathers and scatters of the masked updates run in the framebuffer.
  CHECK(c[0].copies.at("fbmem0 to fbmem0") == 250);
  std::map<trace::CopyKind, int> kinds;
  for (const analysis::CopyInfo& copy : p.copies) ++kinds[copy.kind];
  CHECK(kinds[trace::CopyKind::Gather] > 0);
  CHECK(kinds[trace::CopyKind::Scatter] > 0);
  check_kernels(p);
}

TEST_CASE("the cg GPU sample of 4 ranks sharing one GPU", "[gpu_samples]") {
  const analysis::Profile p = load::load_profile(sample("cg_4ranks", 4));
  CHECK(p.ranks.size() == 4);
  const std::vector<Counts> c = opened(p, 53330);
  for (uint32_t r = 0; r < 4; ++r) {
    INFO("rank " << r);
    CHECK(c[r].items.at({LaneKind::GpuHost, ItemKind::Task}) == 519);
    CHECK(c[r].copies.at("all-reduce over 4 nodes") == 114);  // cg's dots and norms
    for (uint32_t from = 0; from < 4; ++from) {
      if (from == r) continue;
      // The transfers land in zero-copy memory, and their channels say so.
      const std::string node = "node " + std::to_string(from);
      const std::string here = " to node " + std::to_string(r);
      CHECK(c[r].copies.at(node + " zcmem" + here + " zcmem") > 0);
      CHECK(c[r].copies.count(node + " sysmem" + here + " sysmem") == 0);
    }
  }
  check_kernels(p);
  // The ranks shared the GPU without MPS: that finding leads, ahead of the
  // tiny tasks and idle processors whose times the sharing stretched.
  const analysis::Findings f = analysis::find(p);
  REQUIRE(f.findings.size() > 1);
  CHECK(f.findings.front().rule == "shared_gpu");
  CHECK(f.findings.front().severity == analysis::Severity::High);
}

TEST_CASE("the Python example1_efficient GPU sample", "[gpu_samples]") {
  const analysis::Profile p = load::load_profile(sample("example1_efficient_py", 1));
  const std::vector<Counts> c = opened(p, 337);
  CHECK(c[0].items.at({LaneKind::GpuHost, ItemKind::Task}) == 14);
  CHECK(c[0].items.at({LaneKind::GpuDevice, ItemKind::GpuKernel}) == 15);
  // Every GPU task names the line of the Python program that launched it.
  int named = 0;
  for (const analysis::Lane& lane : p.lanes) {
    if (lane.kind != LaneKind::GpuHost) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      const analysis::Item& t = p.items[i];
      REQUIRE(t.op != analysis::kNone);
      const std::string& where = p.str(p.operations[t.op].provenance);
      INFO(where);
      CHECK(where.find("examples/python/example1_efficient.py:") != std::string::npos);
      ++named;
    }
  }
  CHECK(named == 14);
  check_kernels(p);
}
