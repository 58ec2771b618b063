// Synthetic traces written through the public writer API, with known answers
// for the model tests. Nothing here ran: these files exercise the analysis
// code only.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "trace_format/metadata.hpp"
#include "trace_format/writer.hpp"

namespace legato::analysis::testing {

// One rank's file: metadata first, then descriptors and items as added.
class SyntheticTrace {
 public:
  SyntheticTrace(const std::string& path, uint32_t rank = 0, uint32_t ranks = 1,
                 const std::string& run_id = "0123456789abcdef0123456789abcdef",
                 nlohmann::json clock = {{"units", "ns"}, {"zero_unix_ns", 1000000}})
      : w_(path), rank_(rank) {
    trace::RunInfo run;
    run.id = run_id;
    run.rank = rank;
    run.ranks = ranks;
    run.host = "host" + std::to_string(rank);
    run.program = "synthetic";
    w_.write_metadata({{"run", run.to_json()}, {"clock", clock}});
  }

  uint32_t processor(trace::ProcKind kind, uint32_t index, const std::string& name) {
    const uint32_t id = trace::make_resource_id(rank_, next_resource_++);
    w_.add(trace::ProcessorRecord{id, kind, index, w_.intern(name), trace::kNoResource});
    return id;
  }
  uint32_t memory(trace::MemKind kind, uint64_t capacity, const std::string& name) {
    const uint32_t id = trace::make_resource_id(rank_, next_resource_++);
    w_.add(trace::MemoryRecord{id, kind, capacity, w_.intern(name)});
    return id;
  }
  uint32_t channel(uint32_t src, uint32_t dst, const std::string& name) {
    const uint32_t id = trace::make_resource_id(rank_, next_resource_++);
    w_.add(trace::ChannelRecord{id, trace::ChannelKind::HostCopy, src, dst, w_.intern(name)});
    return id;
  }
  uint32_t task_kind(const std::string& name) {
    const uint32_t id = next_kind_++;
    w_.add(trace::TaskKindRecord{id, w_.intern(name)});
    return id;
  }
  trace::Uid operation(const std::string& name, const std::string& provenance,
                       trace::Uid parent = 0) {
    const trace::Uid uid = next_uid();
    w_.add(trace::OperationRecord{uid, parent, trace::OpKind::Task, 0, w_.intern(name),
                                  w_.intern(provenance)});
    return uid;
  }
  trace::Uid task(uint32_t proc, uint32_t kind, trace::Time start, trace::Time stop,
                  trace::Uid op = 0, trace::Time ready = -1, trace::Time create = -1) {
    const trace::Uid uid = next_uid();
    if (ready < 0) ready = start;
    if (create < 0) create = ready;
    w_.add(trace::TaskRecord{uid, op, proc, kind, 1, start, stop, ready, create});
    return uid;
  }
  trace::Uid meta(uint32_t proc, const std::string& name, trace::Time start, trace::Time stop,
                  trace::Uid op = 0) {
    const trace::Uid uid = next_uid();
    w_.add(trace::MetaTaskRecord{uid, proc, w_.intern(name), op, start, stop, start, start});
    return uid;
  }
  trace::Uid instance(uint32_t mem, uint64_t bytes, const std::string& name, trace::Time create,
                      trace::Time ready, trace::Time destroy) {
    const trace::Uid uid = next_uid();
    w_.add(trace::InstanceRecord{uid, mem, 0, bytes, 1, w_.intern(name), w_.intern("prog.cc:1"),
                                 create, ready, destroy, 0});
    return uid;
  }
  trace::Uid copy(uint32_t chan, uint64_t bytes, trace::Time start, trace::Time stop) {
    const trace::Uid uid = next_uid();
    w_.add(trace::CopyRecord{uid, 0, chan, trace::CopyKind::Copy, bytes, 0, 0, start, stop, start,
                             start});
    return uid;
  }
  void wait(trace::Uid task, trace::Time start, trace::Time ready, trace::Time end) {
    w_.add(trace::WaitRecord{task, start, ready, end, 0});
  }
  void edge(trace::Uid item, trace::Uid pre, trace::EdgeKind kind = trace::EdgeKind::Data) {
    w_.add(trace::EdgeRecord{item, pre, kind});
  }
  trace::TraceWriter& writer() { return w_; }
  void finish() { w_.finish(); }

 private:
  trace::Uid next_uid() { return trace::make_uid(rank_, ++seq_); }
  trace::TraceWriter w_;
  uint32_t rank_;
  uint32_t next_resource_ = 0;
  uint32_t next_kind_ = 1;
  uint64_t seq_ = 0;
};

// A trace of 300 "work" tasks on c0 in three frames whose end is then cut
// off, as by a crash: readers must show the first frames and warn.
inline void write_truncated_trace(const std::string& path) {
  {
    SyntheticTrace t(path);
    const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const auto kind = t.task_kind("work");
    for (int frame = 0; frame < 3; ++frame) {
      for (int i = 0; i < 100; ++i) {
        const trace::Time at = (frame * 100 + i) * 1000;
        t.task(c0, kind, at, at + 800);
      }
      t.writer().flush();
    }
    t.finish();
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) * 2 / 3);
}

}  // namespace legato::analysis::testing
