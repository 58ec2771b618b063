// The rule about ranks that share one GPU without CUDA MPS: the runtime
// records each shared GPU in the trace's metadata ("gpu_sharing": the GPU,
// the ranks, whether MPS was on); this rule shows what those ranks' GPU
// tasks cost against the kernels they ran.
#include <algorithm>
#include <set>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"

namespace legato::analysis::findings {
namespace {

// "0, 1, 2 and 3".
std::string rank_list(const std::vector<uint32_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) out += i + 1 == ranks.size() ? " and " : ", ";
    out += std::to_string(ranks[i]);
  }
  return out;
}

struct Shared {
  std::string gpu;
  std::vector<uint32_t> ranks;
};

// The GPUs shared without MPS, once each, as the loaded ranks recorded them;
// false when a rank with GPU lanes did not record whether its GPU was
// shared (a trace from before the record, or a Legion log).
bool shared_without_mps(const Profile& p, std::vector<Shared>& out) {
  std::set<std::string> seen;
  bool all_recorded = true;
  for (const RankInfo& r : p.ranks) {
    const auto it = r.metadata.find("gpu_sharing");
    if (it == r.metadata.end() || !it->is_array()) {
      all_recorded = all_recorded && lanes_of(p, r.rank, {LaneKind::GpuHost}).empty();
      continue;
    }
    for (const nlohmann::json& s : *it) {
      if (!s.is_object() || !s.contains("gpu") || !s["gpu"].is_string()) continue;
      if (!s.contains("mps") || s["mps"] != false) continue;
      if (!seen.insert(s["gpu"].get<std::string>()).second) continue;
      Shared g{s["gpu"].get<std::string>(), {}};
      if (s.contains("ranks") && s["ranks"].is_array())
        for (const nlohmann::json& k : s["ranks"])
          if (k.is_number_unsigned()) g.ranks.push_back(k.get<uint32_t>());
      if (g.ranks.size() > 1) out.push_back(std::move(g));
    }
  }
  return all_recorded;
}

}  // namespace

void shared_gpu(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  std::vector<Shared> groups;
  const bool recorded = shared_without_mps(p, groups);
  if (!recorded && groups.empty() && p.nodes.size() > 1) {
    out.skip("shared_gpu",
             "the trace does not say whether ranks shared a GPU (Legato records it on runs of "
             "several ranks with GPUs)");
  }
  for (const Shared& g : groups) {
    std::vector<uint32_t> host_lanes, device_lanes, lanes, tasks, loaded;
    for (uint32_t r : g.ranks) {
      const auto h = lanes_of(p, r, {LaneKind::GpuHost});
      if (h.empty()) continue;
      loaded.push_back(r);
      const auto d = lanes_of(p, r, {LaneKind::GpuDevice});
      host_lanes.insert(host_lanes.end(), h.begin(), h.end());
      device_lanes.insert(device_lanes.end(), d.begin(), d.end());
      lanes.insert(lanes.end(), h.begin(), h.end());
      lanes.insert(lanes.end(), d.begin(), d.end());
    }
    if (loaded.empty()) continue;  // none of its ranks' files was given
    Time t0 = INT64_MAX, t1 = INT64_MIN, task_time = 0, kernel_time = 0;
    for (uint32_t l : host_lanes) {
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
        const Item& it = p.items[i];
        if (it.kind != ItemKind::Task) continue;
        tasks.push_back(i);
        task_time += it.duration();
        t0 = std::min<Time>(t0, it.start);
        t1 = std::max<Time>(t1, it.stop());
      }
    }
    for (uint32_t l : device_lanes)
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i)
        if (p.items[i].kind == ItemKind::GpuKernel) kernel_time += p.items[i].duration();
    if (tasks.empty()) continue;
    Time busy = 0;
    for (uint32_t l : host_lanes) busy += lane_busy(ctx, l, t0, t1, TopLevel::Counted);
    const auto n = static_cast<Time>(loaded.size());
    Finding f;
    f.rule = "shared_gpu";
    f.title = "Ranks share a GPU without MPS";
    f.summary = "Ranks " + rank_list(g.ranks) + " used one GPU (" + g.gpu +
                ") without CUDA MPS, so the GPU ran one rank's work at a time. The " +
                grouped(tasks.size()) + " GPU tasks of " +
                (loaded.size() == g.ranks.size() ? "those ranks"
                                                 : "rank(s) " + rank_list(loaded) + " loaded") +
                " took " + short_ns(static_cast<double>(task_time)) + "; their kernels ran " +
                short_ns(static_cast<double>(kernel_time)) +
                " of it. The other findings' times on these ranks include those turns, so start "
                "with this one.";
    f.root_cause = true;
    f.cost = busy / n;
    f.cost_basis = "the time each sharing rank's GPU host lanes were busy (mean over " +
                   std::to_string(n) +
                   " ranks): without MPS that time includes waiting for the other ranks' turns "
                   "on the GPU";
    f.severity = severity_of_share(ctx.share(f.cost));
    f.rank = loaded.size() == 1 ? loaded.front() : kAllNodes;
    f.kinds = {LaneKind::GpuHost, LaneKind::GpuDevice};
    f.lanes = lanes;
    f.t0 = t0;
    f.t1 = t1;
    f.items = spread(p, tasks);
    f.item_kinds = {ItemKind::Task, ItemKind::GpuKernel};
    f.evidence = {{"ranks on the GPU", static_cast<double>(g.ranks.size()), "count"},
                  {"GPU tasks", static_cast<double>(tasks.size()), "count"},
                  {"GPU task time", static_cast<double>(task_time), "ns"},
                  {"kernel time", static_cast<double>(kernel_time), "ns"}};
    f.fix =
        "Start CUDA MPS on the node before the run (nvidia-cuda-mps-control -d; stop it "
        "afterwards with: echo quit | nvidia-cuda-mps-control) so the ranks' kernels run side "
        "by side, or run no more ranks on a node than it has GPUs (--ranks-per-node).";
    out.findings.push_back(std::move(f));
  }
}

}  // namespace legato::analysis::findings
