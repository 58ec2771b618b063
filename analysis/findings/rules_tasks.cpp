// Rules about tasks: tiny tasks, processors waiting for the runtime, and the
// top-level task blocked on results.
#include <algorithm>

#include "analysis/findings/rule_context.hpp"
#include "analysis/units.hpp"
#include "analysis/utilization.hpp"

namespace legato::analysis::findings {
namespace {

// GPU devices before GPU hosts: a GPU's kernels are the device side of its
// host tasks, so where the kernels are found tiny, their tasks are not a
// second finding.
constexpr LaneKind kTaskKinds[] = {LaneKind::Cpu, LaneKind::GpuDevice, LaneKind::GpuHost,
                                   LaneKind::OpenMp, LaneKind::Python};

// What a processor kind's lanes run: kernels on GPU devices, tasks elsewhere.
ItemKind work_kind(LaneKind k) {
  return k == LaneKind::GpuDevice ? ItemKind::GpuKernel : ItemKind::Task;
}

std::string plural_kind(LaneKind k) {
  switch (k) {
    case LaneKind::Cpu:
      return "CPUs";
    case LaneKind::GpuDevice:
      return "GPUs";
    case LaneKind::GpuHost:
      return "GPU host threads";
    case LaneKind::OpenMp:
      return "OpenMP processors";
    case LaneKind::Python:
      return "Python processors";
    default:
      return std::string(to_string(k)) + " lanes";
  }
}

// "the 4 CPUs", "the GPU host thread".
std::string counted_kind(LaneKind k, Time n) {
  std::string kinds = plural_kind(k);
  if (n != 1) return "the " + std::to_string(n) + " " + kinds;
  kinds.pop_back();  // every plural of plural_kind ends in its "s"
  return "the " + kinds;
}

constexpr std::string_view kWholeArrayFix =
    "Work on whole arrays instead of slices in a loop: one operation over N elements is a few "
    "large tasks, one per processor, instead of one task (and one round of runtime work) per "
    "slice. Where a loop updates part of an array by a condition, use a boolean mask over the "
    "whole array (putmask, where, a[mask] = ...).";

}  // namespace

void tiny_tasks(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  const Time max_ns = ctx.param_us_as_ns("tiny_tasks", "max_task_us");
  for (const Node& node : p.nodes) {
    bool kernels_found = false;
    for (const LaneKind kind : kTaskKinds) {
      const auto lanes = lanes_of(p, node.rank, {kind});
      if (lanes.empty() || (kind == LaneKind::GpuHost && kernels_found)) continue;
      const ItemKind want = work_kind(kind);
      uint64_t total = 0;
      std::vector<uint32_t> tiny;
      std::vector<Time> durations;
      Time tiny_time = 0, t0 = INT64_MAX, t1 = INT64_MIN;
      for (uint32_t l : lanes) {
        for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
          const Item& it = p.items[i];
          if (it.kind != want || ctx.top_level(i)) continue;
          ++total;
          if (it.duration() >= max_ns) continue;
          tiny.push_back(i);
          durations.push_back(it.duration());
          tiny_time += it.duration();
          t0 = std::min<Time>(t0, it.start);
          t1 = std::max(t1, it.stop());
        }
      }
      if (tiny.empty() || static_cast<double>(tiny.size()) < ctx.param("tiny_tasks", "min_tasks") ||
          static_cast<double>(tiny.size()) <
              ctx.param("tiny_tasks", "min_share") * static_cast<double>(total))
        continue;
      // Runtime work on their operations, each operation counted once.
      std::vector<uint8_t> seen(p.operations.size(), 0);
      Time runtime = 0;
      LineTally lines;
      for (uint32_t i : tiny) {
        const uint32_t op = ctx.op_of(i);
        lines.add(ctx.provenance(i), 1);
        if (op == kNone || seen[op]) continue;
        seen[op] = 1;
        runtime += ctx.op_runtime[op];
      }
      const auto n = static_cast<Time>(lanes.size());
      Time busy = 0;
      for (uint32_t l : lanes) busy += lane_busy(ctx, l, t0, t1, TopLevel::Counted);
      const Time idle = n * (t1 - t0) - busy;
      Finding f;
      f.rule = "tiny_tasks";
      f.cost = std::max<Time>(0, idle / n);
      f.cost_basis = "the time " + counted_kind(kind, n) +
                     " sat idle between the first and the last tiny task" +
                     (n == 1 ? "" : " (idle processor time / " + std::to_string(n) + ")");
      const Time med = median(durations);
      const double per_task = static_cast<double>(runtime) / static_cast<double>(tiny.size());
      f.title = "Many tiny " + std::string(want == ItemKind::GpuKernel ? "GPU kernels" : "tasks") +
                " on the " + plural_kind(kind) + where_node(p, node.rank);
      f.summary = grouped(tiny.size()) + " of " + grouped(total) + " " +
                  std::string(to_string(kind)) + " " +
                  (want == ItemKind::GpuKernel ? "kernels" : "tasks") + " ran shorter than " +
                  short_ns(static_cast<double>(max_ns)) + " (median " +
                  short_ns(static_cast<double>(med)) + "); the runtime spent " +
                  short_ns(per_task) + " on each, and the " + plural_kind(kind) + " were idle " +
                  short_percent(static_cast<double>(idle) /
                                static_cast<double>(std::max<Time>(1, n * (t1 - t0)))) +
                  " of the " + short_ns(static_cast<double>(t1 - t0)) + " between them.";
      f.severity = severity_of_share(ctx.share(f.cost));
      f.rank = node.rank;
      f.kinds = {kind};
      f.lanes = lanes;
      f.t0 = t0;
      f.t1 = t1;
      f.lines = lines.ranked(p, 8, f.cost);
      f.evidence = {
          {"tiny tasks", static_cast<double>(tiny.size()), "count"},
          {"tasks of the kind", static_cast<double>(total), "count"},
          {"median duration", static_cast<double>(med), "ns"},
          {"time in tiny tasks", static_cast<double>(tiny_time), "ns"},
          {"runtime work per task", per_task, "ns"},
          {"runtime work over task time",
           tiny_time > 0 ? static_cast<double>(runtime) / static_cast<double>(tiny_time) : 0,
           "ratio"},
          {"processors", static_cast<double>(n), "count"}};
      f.items = spread(p, tiny);
      f.fix = std::string(kWholeArrayFix);
      f.item_kinds = {want};
      f.provenances = lines.ids();
      out.findings.push_back(std::move(f));
      kernels_found = kernels_found || kind == LaneKind::GpuDevice;
    }
  }
}

namespace {

// Processor time of one kind's lanes idle because the program was still
// issuing the next task's operation (its thread running, not blocked on a
// result), and because the runtime was still preparing it (dependence
// analysis, mapping) after its preconditions had finished.
struct RuntimeWaits {
  Time issuing = 0, preparing = 0, t0 = INT64_MAX, t1 = INT64_MIN;
  std::vector<uint32_t> tasks;
  LineTally lines;
};

RuntimeWaits runtime_waits(const Context& ctx, const Context::Program& program,
                           const std::vector<uint32_t>& lanes) {
  const Profile& p = ctx.p;
  RuntimeWaits w;
  for (uint32_t l : lanes) {
    Time free_at = INT64_MIN;  // when the processor finished what it ran before
    for (uint32_t i : in_start_order(p, p.lanes[l])) {
      const Item& it = p.items[i];
      const Time prev = free_at;
      free_at = std::max(free_at, it.stop());
      if (it.kind != ItemKind::Task || ctx.top_level(i) || prev == INT64_MIN || it.start <= prev)
        continue;
      const Time issued = std::clamp<Time>(p.create_of(i), prev, it.start);
      const Time by_program = program.running.covered(prev, issued);
      Time by_runtime = 0;
      if (it.op != kNone && p.operations[it.op].last_meta != kNone) {
        Time deps = issued;
        const auto [first, last] = p.recorded_preconditions(i);
        for (const Precondition* c = first; c != last; ++c)
          deps = std::max(deps, p.items[c->item].stop());
        const Time to = std::min<Time>(it.start, p.items[p.operations[it.op].last_meta].stop());
        by_runtime = std::max<Time>(0, to - deps);
      }
      if (by_program + by_runtime == 0) continue;
      w.issuing += by_program;
      w.preparing += by_runtime;
      w.tasks.push_back(i);
      w.lines.add(ctx.provenance(i), by_program + by_runtime);
      w.t0 = std::min(w.t0, prev);
      w.t1 = std::max<Time>(w.t1, it.start);
    }
  }
  return w;
}

// The finding for one kind of a node whose waits passed the thresholds.
Finding runtime_bound_finding(const Context& ctx, const Node& node, LaneKind kind,
                              const std::vector<uint32_t>& lanes, const RuntimeWaits& w) {
  const Profile& p = ctx.p;
  const Context::Program& program = ctx.program(node.rank);
  const auto n = static_cast<Time>(lanes.size());
  const auto utility = lanes_of(p, node.rank, {LaneKind::Utility});
  uint64_t meta_count = 0;
  Time meta_time = 0;
  for (uint32_t l : utility)
    for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i) {
      const Item& it = p.items[i];
      if (it.kind != ItemKind::MetaTask || it.stop() <= w.t0 || it.start >= w.t1) continue;
      ++meta_count;
      meta_time += it.duration();
    }
  const double utility_busy =
      utility.empty() ? 0 : utilization(p, LaneKind::Utility, node.rank).average(w.t0, w.t1);
  const double per_op = program.operations ? static_cast<double>(program.running.total()) /
                                                 static_cast<double>(program.operations)
                                           : 0;
  Finding f;
  f.rule = "runtime_bound";
  f.cost = (w.issuing + w.preparing) / n;
  f.cost_basis = "the time the " + plural_kind(kind) +
                 " sat idle while their next task was being issued by the program or "
                 "prepared by the runtime, over the " +
                 std::to_string(n) + " processors";
  f.title = "The runtime is the bottleneck for the " + plural_kind(kind) + where_node(p, node.rank);
  f.summary = grouped(w.tasks.size()) +
              " tasks kept an idle processor waiting while the "
              "program issued them (" +
              short_ns(static_cast<double>(w.issuing)) + " of processor time; the program spends " +
              short_ns(per_op) + " issuing each operation) or the runtime prepared them (" +
              short_ns(static_cast<double>(w.preparing)) + "; " + grouped(meta_count) +
              " pieces of runtime work kept the utility lanes " + short_percent(utility_busy) +
              " busy). The work is too small for what each operation costs to launch.";
  f.severity = severity_of_share(ctx.share(f.cost));
  f.rank = node.rank;
  f.kinds = {kind, LaneKind::Utility};
  f.lanes = lanes;
  f.lanes.insert(f.lanes.end(), utility.begin(), utility.end());
  f.t0 = w.t0;
  f.t1 = w.t1;
  f.lines = w.lines.ranked(p);
  f.evidence = {{"tasks that waited", static_cast<double>(w.tasks.size()), "count"},
                {"waiting for the program to issue them", static_cast<double>(w.issuing), "ns"},
                {"waiting for runtime work", static_cast<double>(w.preparing), "ns"},
                {"processors", static_cast<double>(n), "count"},
                {"issuing time per operation", per_op, "ns"},
                {"runtime work in the window", static_cast<double>(meta_count), "count"},
                {"runtime work time", static_cast<double>(meta_time), "ns"},
                {"utility lanes busy", utility_busy, "share"}};
  f.items = spread(p, w.tasks);
  f.fix =
      "Issue fewer, larger operations: every operation costs the program's thread and the "
      "runtime (dependence analysis, mapping) the same whatever its size. Replace loops "
      "over slices with whole-array operations and write results in place (out=, +=) "
      "instead of through temporaries. When operations are already large and the utility "
      "lanes stay saturated, give the runtime more utility threads (--utility).";
  f.item_kinds = {ItemKind::Task, ItemKind::MetaTask};
  f.provenances = w.lines.ids();
  return f;
}

}  // namespace

void runtime_bound(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  for (const Node& node : p.nodes) {
    for (const LaneKind kind : kTaskKinds) {
      if (kind == LaneKind::GpuDevice) continue;  // kernels wait for their task, not the runtime
      const auto lanes = lanes_of(p, node.rank, {kind});
      if (lanes.empty()) continue;
      const RuntimeWaits w = runtime_waits(ctx, ctx.program(node.rank), lanes);
      const auto n = static_cast<Time>(lanes.size());
      if (w.tasks.empty() ||
          static_cast<double>(w.tasks.size()) < ctx.param("runtime_bound", "min_tasks") ||
          static_cast<double>(w.issuing + w.preparing) <
              ctx.param("runtime_bound", "min_share") * static_cast<double>(n * (w.t1 - w.t0)))
        continue;
      out.findings.push_back(runtime_bound_finding(ctx, node, kind, lanes, w));
    }
  }
}

void blocked_top_level(const Context& ctx, Found& out) {
  const Profile& p = ctx.p;
  for (uint32_t l = 0; l < p.lanes.size(); ++l) {
    const Lane& lane = p.lanes[l];
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (p.items[i].kind != ItemKind::Task || !ctx.top_level(i)) continue;
      const auto [w, wend] = p.waits_of(i);
      const auto count = static_cast<uint64_t>(wend - w);
      if (count == 0) continue;
      Time blocked = 0;
      std::vector<Time> lengths;
      std::vector<uint32_t> waited_for;
      LineTally lines;
      Time t0 = INT64_MAX, t1 = INT64_MIN;
      for (const Wait* x = w; x != wend; ++x) {
        const Time len = std::max<Time>(0, x->end - x->start);
        blocked += len;
        lengths.push_back(len);
        t0 = std::min(t0, x->start);
        t1 = std::max(t1, x->end);
        if (x->event == kNone) continue;
        waited_for.push_back(x->event);
        lines.add(ctx.provenance(x->event), len);
      }
      if (static_cast<double>(count) < ctx.param("blocked_top_level", "min_waits") ||
          ctx.share(blocked) < ctx.param("blocked_top_level", "min_share"))
        continue;
      Finding f;
      f.rule = "blocked_top_level";
      f.cost = blocked;
      f.cost_basis = "the time the top-level task was blocked, from each wait until it resumed";
      f.title = "The program waits for results again and again" + where_node(p, lane.rank);
      const Time med = median(lengths);
      const Time longest = *std::max_element(lengths.begin(), lengths.end());
      f.summary = "The top-level task (" + p.label(i) + ") blocked " + grouped(count) +
                  " times for " + short_ns(static_cast<double>(blocked)) + " in all (median " +
                  short_ns(static_cast<double>(med)) +
                  "): each time it needed a value the tasks had not produced yet, and issued "
                  "nothing new meanwhile.";
      f.severity = severity_of_share(ctx.share(f.cost));
      f.rank = lane.rank;
      f.kinds = {lane.kind};
      f.lanes = {l};
      f.t0 = t0;
      f.t1 = t1;
      f.lines = lines.ranked(p);
      f.evidence = {{"waits", static_cast<double>(count), "count"},
                    {"time blocked", static_cast<double>(blocked), "ns"},
                    {"median wait", static_cast<double>(med), "ns"},
                    {"longest wait", static_cast<double>(longest), "ns"}};
      f.items = spread(p, waited_for);
      f.items.insert(f.items.begin(), i);
      f.fix =
          "Read values back (item(), float(), printing, if on an array element, the size of a "
          "nonzero or a boolean-mask result) after the loop, not inside it: every read waits "
          "for all the work before it. Keep data-dependent sizes out of loops: a boolean mask "
          "(putmask, where) keeps the shape fixed, where nonzero and a[mask] need the count "
          "first.";
      f.item_kinds = {ItemKind::Task};
      out.findings.push_back(std::move(f));
    }
  }
}

}  // namespace legato::analysis::findings
