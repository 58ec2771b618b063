// A trace whose findings are known, written through the public writer API
// (nothing ran): a top-level task on io0 over 10 ms and, from 4 ms to 5 ms,
// 300 tasks of 2 us on c0 and c1 issued by operations at prog.cc:20, so the
// tiny_tasks rule reports them; a utility lane and a memory with an instance.
#pragma once

#include <string>

#include "../analysis/synthetic_trace.hpp"

namespace legato::viewer::testing {

inline void write_findings_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const auto u0 = t.processor(trace::ProcKind::Utility, 0, "u0");
  const auto io = t.processor(trace::ProcKind::Io, 0, "io0");
  const auto mem = t.memory(trace::MemKind::System, 1 << 30, "sysmem");
  const auto top = t.task_kind("TopLevelTask");
  const auto step = t.task_kind("step");
  t.task(io, top, 0, 10'000'000);
  t.instance(mem, 1 << 20, "x", 100'000, 100'000, 9'000'000);
  for (int i = 0; i < 300; ++i) {
    const trace::Time at = 4'000'000 + i * 3'300;
    const auto op = t.operation("step " + std::to_string(i), "prog.cc:20");
    t.meta(u0, "Mapping", at - 1'000, at - 200, op);
    t.task(i % 2 ? c1 : c0, step, at, at + 2'000, op);
  }
  t.finish();
}

// Three long tasks: no rule finds anything to report.
inline void write_quiet_trace(const std::string& path) {
  analysis::testing::SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto k = t.task_kind("work");
  for (int i = 0; i < 3; ++i) t.task(c0, k, i * 2'000'000, i * 2'000'000 + 1'900'000);
  t.finish();
}

}  // namespace legato::viewer::testing
