#include "run_trace.hpp"

#include <algorithm>
#include <filesystem>

#include "trace_format/metadata.hpp"
#include "trace_format/writer.hpp"

namespace legato::bench {
namespace {

constexpr int kCpus = 4, kUtils = 2;
const char* const kKindNamesText[] = {"AddTask",     "MulTask",     "DotTask",     "CopyTask",
                                      "FillTask",    "ReduceTask",  "WhereTask",   "GatherTask",
                                      "ScatterTask", "ConvertTask", "StencilTask", "MatVecTask"};

// The text of string id `id` in the stream's numbering (task_stream.hpp).
std::string text_of(uint32_t id) {
  if (id == 1) return "Dependence analysis";
  if (id == 2) return "Mapping";
  if (id > kKindNames && id <= kKindNames + std::size(kKindNamesText))
    return kKindNamesText[id - kKindNames - 1];
  if (id >= kProvenances && id < kProvenances + 40)
    return "solver.cpp:" + std::to_string(20 + 3 * (id - kProvenances));
  if (id == kInstanceName) return "x";
  if (id == kProcessorNames) return "io0";
  if (id > kProcessorNames && id <= kProcessorNames + kUtils)
    return "u" + std::to_string(id - kProcessorNames - 1);
  if (id > kProcessorNames + kUtils && id <= kProcessorNames + kUtils + kCpus)
    return "c" + std::to_string(id - kProcessorNames - kUtils - 1);
  return "unused " + std::to_string(id);
}

// Records and point tasks per operation in the mixed shape, from a sample.
std::pair<double, double> per_op() {
  static const std::pair<double, double> ratio = [] {
    const TaskStream s = make_task_stream(kMixedShape, 20000, kCpus, kUtils, 99);
    return std::pair{s.total() / 20000.0, s.task_count() / 20000.0};
  }();
  return ratio;
}

int ops_for(double count, double per_op_count, int ranks) {
  return static_cast<int>(std::max(1.0, count / per_op_count / ranks));
}

}  // namespace

int ops_for_records(uint64_t records, int ranks) {
  return ops_for(static_cast<double>(records), per_op().first, ranks);
}

int ops_for_tasks(uint64_t tasks, int ranks) {
  return ops_for(static_cast<double>(tasks), per_op().second, ranks);
}

RunTrace write_run_trace(const std::string& dir, int ops, int ranks, uint64_t seed) {
  std::filesystem::create_directories(dir);
  const int kinds = kMixedShape.task_kinds;
  const std::string run_id = "b0" + std::string(30, 'e');
  RunTrace out;
  for (int r = 0; r < ranks; ++r) {
    const auto rank = static_cast<uint32_t>(r);
    const TaskStream s = make_task_stream(kMixedShape, ops, kCpus, kUtils, seed + rank, rank);
    const std::string path = dir + "/bench_" + std::to_string(r) + ".prof";
    TraceWriter w(path);
    RunInfo run;
    run.id = run_id;
    run.rank = r;
    run.ranks = ranks;
    run.host = "node" + std::to_string(r);
    run.program = "bench_run";
    w.write_metadata(
        {{"run", run.to_json()},
         {"clock", {{"units", "ns"}, {"zero_unix_ns", 0}, {"offset_to_reference_ns", 0}}}});
    for (uint32_t id = 1; id <= kProcessorNames + kUtils + kCpus; ++id) w.intern(text_of(id));
    for (int k = 1; k <= kinds; ++k) {
      w.add(TaskKindRecord{static_cast<uint32_t>(k), kKindNames + static_cast<uint32_t>(k)});
    }
    const uint32_t top_kind = static_cast<uint32_t>(kinds) + 1;
    w.add(TaskKindRecord{top_kind, w.intern("TopLevelTask")});
    const uint32_t mem = make_resource_id(rank, kStreamMemory);
    w.add(MemoryRecord{mem, MemKind::System, uint64_t{64} << 30, w.intern("sysmem")});
    w.add(ChannelRecord{make_resource_id(rank, kStreamChannel), ChannelKind::HostCopy, mem, mem,
                        w.intern("sysmem to sysmem")});
    write_stream(w, s, 64, false);
    Time end = 0;
    for (const auto& per_cpu : s.tasks)
      end = std::max(end, per_cpu.empty() ? 0 : per_cpu.back().stop);
    w.add(TaskRecord{s.ops.front().parent, 0, s.processors.front().id, top_kind, 1, 0, end, 0, 0});
    w.finish();
    out.files.push_back(path);
    out.records += s.total() + 1;
    out.tasks += s.task_count() + 1;
    out.bytes += std::filesystem::file_size(path);
  }
  return out;
}

}  // namespace legato::bench
