// Traces with one kind of fault each, written through the public writer API
// (nothing ran), and the damage a file can suffer on disk: for the tests of
// what the reader, the model and legate_prof say about them (ctest label
// fault).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/synthetic_trace.hpp"
#include "trace_format/frame.hpp"
#include "trace_format/reader.hpp"
#include "trace_format/trace_test_util.hpp"

namespace legato::analysis::testing {

inline constexpr uint64_t kMiB = uint64_t{1} << 20;

// c0 runs "work" from 100 to 200; a 1 MiB instance "x" lives from 100 to 200
// in `memory`, which no descriptor declares (by default id 77 of rank 0).
inline void write_undeclared_memory_trace(const std::string& path,
                                          uint32_t memory = trace::make_resource_id(0, 77)) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  t.task(c0, t.task_kind("work"), 100, 200);
  t.instance(memory, kMiB, "x", 100, 110, 200);
  t.finish();
}

// A described System memory whose capacity the trace gives as none (0),
// holding 1 MiB from 100 to 200 and 3 MiB from 150 to 300: drawn against
// the 4 MiB of its instances.
inline void write_unsized_memory_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto mem = t.memory(trace::MemKind::System, 0, "sysmem0");
  t.task(c0, t.task_kind("work"), 100, 300);
  t.instance(mem, kMiB, "x", 100, 100, 200);
  t.instance(mem, 3 * kMiB, "y", 150, 150, 300);
  t.finish();
}

// "first" (100 to 200 on c0) and "second" (300 to 400 on c1) share a uid, and
// so do the operations "add" and "mul"; a third task "third" waits for the
// shared uid.
inline void write_duplicate_uid_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto c1 = t.processor(trace::ProcKind::Cpu, 1, "c1");
  const trace::Uid op = t.operation("add", "prog.cc:1");
  t.writer().add(trace::OperationRecord{op, 0, trace::OpKind::Task, 0, t.writer().intern("mul"),
                                        t.writer().intern("prog.cc:2")});
  const trace::Uid shared = t.task(c0, t.task_kind("first"), 100, 200, op);
  t.writer().add(trace::TaskRecord{shared, 0, c1, t.task_kind("second"), 1, 300, 400, 300, 300});
  const trace::Uid third = t.task(c0, t.task_kind("third"), 500, 600);
  t.edge(third, shared);
  t.finish();
}

// "a" (100 to 200) then "b" (300 to 400) on c0: b depends on a and, by a
// damaged record, on itself; so does a.
inline void write_self_edge_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const trace::Uid a = t.task(c0, t.task_kind("a"), 100, 200);
  const trace::Uid b = t.task(c0, t.task_kind("b"), 300, 400);
  t.edge(b, a);
  t.edge(b, b);
  t.edge(a, a);
  t.finish();
}

// A task kind named by string id 999 and an instance whose provenance is
// string id 998: ids the file never defines. The task runs 100 to 200 on c0.
inline void write_dangling_string_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto mem = t.memory(trace::MemKind::System, 64 * kMiB, "sysmem");
  t.writer().add(trace::TaskKindRecord{7, 999});
  t.task(c0, 7, 100, 200);
  t.writer().add(trace::InstanceRecord{trace::make_uid(0, 100), mem, 0, kMiB, 1,
                                       t.writer().intern("x"), 998, 100, 110, 200, 0});
  t.finish();
}

// Two events frames: tasks "work" at 1000 to 1500 and 3000 to 3500 on c0.
inline void write_two_frame_trace(const std::string& path) {
  SyntheticTrace t(path);
  const auto c0 = t.processor(trace::ProcKind::Cpu, 0, "c0");
  const auto kind = t.task_kind("work");
  t.task(c0, kind, 1000, 1500);
  t.writer().flush();
  t.task(c0, kind, 3000, 3500);
  t.finish();
}

// Where each frame of a file starts (index: its sequence number), and its
// header.
inline std::vector<std::pair<uint64_t, trace::FrameHeader>> frames_of(const std::string& path) {
  std::vector<std::pair<uint64_t, trace::FrameHeader>> out;
  const auto reader = trace::TraceReader::open(path);
  trace::Frame f;
  while (reader->next(f)) out.emplace_back(f.offset, f.header);
  return out;
}

// Rewrites the t_min/t_max of frame `sequence`'s header (with a valid header
// checksum, so only the contradiction with its records remains).
inline void set_frame_time_range(const std::string& path, uint32_t sequence, trace::Time t_min,
                                 trace::Time t_max) {
  auto [offset, header] = frames_of(path).at(sequence);
  header.t_min = t_min;
  header.t_max = t_max;
  std::vector<uint8_t> bytes = trace::testing::read_bytes(path);
  trace::encode_frame_header(header, bytes.data() + offset);
  trace::testing::write_bytes(path, bytes);
}

// Flips a byte in the middle of frame `sequence`'s payload: its checksum no
// longer matches and its records are lost.
inline void corrupt_frame_payload(const std::string& path, uint32_t sequence) {
  const auto [offset, header] = frames_of(path).at(sequence);
  std::vector<uint8_t> bytes = trace::testing::read_bytes(path);
  bytes.at(offset + trace::kFrameHeaderSize + header.stored_size / 2) ^= 0x40;
  trace::testing::write_bytes(path, bytes);
}

// Cuts the file in the middle of frame `sequence`'s payload (its records
// are lost), or with `at_start` just before the frame (every frame before
// it is intact: an unfinished file, as a killed writer leaves it).
inline void cut_file_at_frame(const std::string& path, uint32_t sequence, bool at_start = false) {
  const auto [offset, header] = frames_of(path).at(sequence);
  std::filesystem::resize_file(
      path, at_start ? offset : offset + trace::kFrameHeaderSize + header.stored_size / 2);
}

}  // namespace legato::analysis::testing
