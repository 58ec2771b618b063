#include "task_stream.hpp"

#include <algorithm>

namespace legato::bench {

uint64_t TaskStream::total() const {
  uint64_t n = ops.size() + edges.size() + waits.size() + instances.size() + copies.size() +
               processors.size();
  for (const auto& v : tasks) n += v.size();
  for (const auto& v : meta) n += v.size();
  return n;
}

uint64_t TaskStream::task_count() const {
  uint64_t n = 0;
  for (const auto& v : tasks) n += v.size();
  return n;
}

TaskStream make_task_stream(const StreamShape& shape, int nops, int cpus, int utils, uint64_t seed,
                            uint32_t rank) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> task_us(std::log(shape.task_median_us), shape.task_sigma);
  std::lognormal_distribution<double> meta_us(std::log(4.0), 0.5);
  std::uniform_int_distribution<int> jitter(50, 400);
  TaskStream s;
  s.tasks.resize(cpus);
  s.meta.resize(utils);
  const uint32_t io = make_resource_id(rank, 0);
  s.processors.push_back({io, ProcKind::Io, 0, kProcessorNames, kNoResource});
  for (int u = 0; u < utils; ++u) {
    s.processors.push_back({make_resource_id(rank, 1 + u), ProcKind::Utility,
                            static_cast<uint32_t>(u),
                            kProcessorNames + 1 + static_cast<uint32_t>(u), kNoResource});
  }
  for (int c = 0; c < cpus; ++c) {
    s.processors.push_back({make_resource_id(rank, 1 + utils + c), ProcKind::Cpu,
                            static_cast<uint32_t>(c),
                            kProcessorNames + 1 + static_cast<uint32_t>(utils + c), kNoResource});
  }
  std::vector<Time> cpu_free(cpus, 0), util_free(utils, 0);
  uint64_t seq = 1;
  const Uid top = make_uid(rank, seq++);
  Time issue = 1000;
  std::vector<std::vector<Uid>> op_tasks;
  for (int k = 0; k < nops; ++k) {
    const Uid op = make_uid(rank, seq++);
    const uint32_t kind =
        1 + static_cast<uint32_t>(rng() % static_cast<uint64_t>(shape.task_kinds));
    s.ops.push_back({op, top, OpKind::Task, kind, kKindNames + kind,
                     kProvenances + static_cast<uint32_t>(rng() % 40)});
    issue += 800 + jitter(rng) * 3;
    // Dependence analysis, then mapping, on the next free utility processor.
    Time t = issue;
    for (int phase = 0; phase < 2; ++phase) {
      const int u = static_cast<int>(std::min_element(util_free.begin(), util_free.end()) -
                                     util_free.begin());
      MetaTaskRecord m{make_uid(rank, seq++),
                       make_resource_id(rank, 1 + u),
                       1u + static_cast<uint32_t>(phase),
                       op,
                       0,
                       0,
                       0,
                       0};
      m.create = t;
      m.ready = t + jitter(rng);
      m.start = std::max(m.ready, util_free[u]) + jitter(rng);
      m.stop = m.start + static_cast<Time>(meta_us(rng) * 1000);
      util_free[u] = m.stop;
      s.meta[u].push_back(m);
      t = m.stop;
    }
    // Point tasks: whole-array operations split across the CPUs.
    const int points =
        std::uniform_real_distribution<double>(0, 1)(rng) < shape.single_point ? 1 : cpus;
    std::vector<Uid> mine;
    const Time deps_done = t;
    for (int p = 0; p < points; ++p) {
      const int c = points == 1 ? static_cast<int>(k % cpus) : p;
      TaskRecord task{
          make_uid(rank, seq++), op, make_resource_id(rank, 1 + utils + c), kind, 1, 0, 0, 0, 0};
      task.create = t + p * 120;
      task.ready = std::max(task.create, deps_done) + jitter(rng);
      task.start = std::max(task.ready, cpu_free[c]) + jitter(rng);
      task.stop = task.start + static_cast<Time>(task_us(rng) * 1000);
      cpu_free[c] = task.stop;
      s.tasks[c].push_back(task);
      mine.push_back(task.uid);
    }
    // Each point task waited on the matching point of a recent operation.
    if (!op_tasks.empty()) {
      const auto& prev =
          op_tasks[op_tasks.size() - 1 - rng() % std::min<size_t>(op_tasks.size(), 3)];
      for (size_t p = 0; p < mine.size(); ++p)
        s.edges.push_back({mine[p], prev[p % prev.size()], EdgeKind::Data});
    }
    if (rng() % 3 == 0) {
      InstanceRecord inst{make_uid(rank, seq++),
                          make_resource_id(rank, kStreamMemory),
                          op,
                          8u << (rng() % 20),
                          1 + static_cast<uint64_t>(k),
                          kInstanceName,
                          kProvenances + static_cast<uint32_t>(rng() % 40),
                          t,
                          t + jitter(rng),
                          t + 50000,
                          0};
      s.instances.push_back(inst);
    }
    if (rng() % 10 == 0) {
      CopyRecord copy{make_uid(rank, seq++),
                      op,
                      make_resource_id(rank, kStreamChannel),
                      CopyKind::Copy,
                      8u << (rng() % 20),
                      s.instances.empty() ? 0 : s.instances.back().uid,
                      0,
                      0,
                      0,
                      0,
                      0};
      copy.create = t;
      copy.ready = t + jitter(rng);
      copy.start = copy.ready + jitter(rng);
      copy.stop = copy.start + 2000 + jitter(rng) * 10;
      s.copies.push_back(copy);
    }
    if (k % 50 == 49) {
      // The program reads a value back: the top-level task blocks.
      const Time end = *std::max_element(cpu_free.begin(), cpu_free.end());
      s.waits.push_back({top, issue, end, end + jitter(rng), mine.back()});
      issue = end + 2000;
    }
    op_tasks.push_back(std::move(mine));
    s.ends.push_back({s.edges.size(), s.waits.size(), s.instances.size(), s.copies.size()});
  }
  return s;
}

void write_stream(TraceWriter& w, const TaskStream& s, int burst, bool tasks_only) {
  if (!tasks_only) {
    for (const auto& p : s.processors) w.add(p);
  }
  const size_t nops = s.ops.size();
  std::vector<size_t> ti(s.tasks.size(), 0), mi(s.meta.size(), 0);
  TaskStream::Ends done{};
  for (size_t k0 = 0; k0 < nops; k0 += static_cast<size_t>(burst)) {
    const size_t k1 = std::min(nops, k0 + static_cast<size_t>(burst));
    const Uid last_op = s.ops[k1 - 1].uid;
    for (size_t c = 0; c < s.tasks.size(); ++c) {
      for (; ti[c] < s.tasks[c].size() && s.tasks[c][ti[c]].op <= last_op; ++ti[c])
        w.add(s.tasks[c][ti[c]]);
    }
    if (tasks_only) continue;
    for (size_t k = k0; k < k1; ++k) w.add(s.ops[k]);
    for (size_t u = 0; u < s.meta.size(); ++u) {
      for (; mi[u] < s.meta[u].size() && s.meta[u][mi[u]].op <= last_op; ++mi[u])
        w.add(s.meta[u][mi[u]]);
    }
    const TaskStream::Ends& end = s.ends[k1 - 1];
    for (; done.edges < end.edges; ++done.edges) w.add(s.edges[done.edges]);
    for (; done.waits < end.waits; ++done.waits) w.add(s.waits[done.waits]);
    for (; done.instances < end.instances; ++done.instances) w.add(s.instances[done.instances]);
    for (; done.copies < end.copies; ++done.copies) w.add(s.copies[done.copies]);
  }
}

}  // namespace legato::bench
