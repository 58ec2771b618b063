// The Legion Prof log writer (legion_log_writer.hpp): records encoded
// through the chosen version's layouts (legion_log_layouts.cpp) into a
// buffered plain or gzip file.
#include "legion_import/testing/legion_log_writer.hpp"

#include "legion_import/testing/legion_log_layouts.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace legato::legion::testing {

// In the order of the header lines below.
enum class LegionLogWriter::Kind : uint8_t {
  MapperName,
  MapperCallDesc,
  RuntimeCallDesc,
  MetaDesc,
  OpDesc,
  ProcDesc,
  MaxDimDesc,
  RuntimeConfig,
  MachineDesc,
  CalibrationErr,
  ZeroTime,
  Provenance,
  MemDesc,
  ProcMDesc,
  IndexSpacePointDesc,
  IndexSpaceRectDesc,
  IndexSpaceEmptyDesc,
  FieldDesc,
  FieldSpaceDesc,
  PartDesc,
  IndexSpaceDesc,
  IndexSubSpaceDesc,
  IndexPartitionDesc,
  IndexSpaceSizeDesc,
  LogicalRegionDesc,
  PhysicalInstRegionDesc,
  PhysicalInstLayoutDesc,
  PhysicalInstDimOrderDesc,
  PhysicalInstanceUsage,
  TaskKind,
  TaskVariant,
  OperationInstance,
  MultiTask,
  SliceOwner,
  TaskWaitInfo,
  MetaWaitInfo,
  TaskInfo,
  ImplicitTaskInfo,
  GPUTaskInfo,
  MetaInfo,
  MessageInfo,
  CopyInfo,
  CopyInstInfo,
  FillInfo,
  FillInstInfo,
  InstTimelineInfo,
  PartitionInfo,
  MapperCallInfo,
  RuntimeCallInfo,
  ApplicationCallInfo,
  BacktraceDesc,
  EventWaitInfo,
  EventMergerInfo,
  EventTriggerInfo,
  EventPoisonInfo,
  BarrierArrivalInfo,
  ReservationAcquireInfo,
  InstanceReadyInfo,
  InstanceRedistrictInfo,
  CompletionQueueInfo,
  ProfTaskInfo,
  // Kinds of other layouts only (kOtherKinds).
  MessageDesc,
  InstCreateInfo,
  InstUsageInfo,
  PhysicalInstanceSpaces,
  PartitionInstInfo,
  MakeValidInfo,
  FetchMetadataInfo,
  ExternalEventInfo,
  Count
};

namespace {

// The kinds of the real logs' 1008 header (layouts_1008()), in its order.
constexpr size_t kKinds1008 = static_cast<size_t>(LegionLogWriter::Kind::MessageDesc);

// The fields each writer call passes, in order, beyond a kind's 1008 fields
// (older layouts name what later ones moved elsewhere, later ones what they
// added), and the kinds only other layouts have, in Kind order after the
// 1008 kinds, with the fields their calls pass.
struct Extra {
  const char* kind;
  std::vector<const char*> fields;
};
const std::vector<Extra>& extra_fields() {
  static const std::vector<Extra> extras = {
      {"CopyInfo", {"src", "dst", "reduction"}},
      {"FillInfo", {"dst"}},
      {"MessageInfo", {"kind"}},
      {"EventWaitInfo", {"provenance"}},
      {"PhysicalInstanceUsage",
       {"fevent", "start", "stop", "index_expr", "field", "index", "mode", "redop"}}};
  return extras;
}
constexpr const char* kOtherKinds[] = {
    "MessageDesc {id:0, kind:unsigned:4, name:string:-1}",
    "InstCreateInfo {id:0, op_id:UniqueID:8, inst_id:InstID:8, create:timestamp_t:8}",
    "InstUsageInfo {id:0, op_id:UniqueID:8, inst_id:InstID:8, mem_id:MemID:8, "
    "size:unsigned long long:8}",
    "PhysicalInstanceSpaces {id:0, inst_uid:unsigned long long:8, union_space:unsigned long "
    "long:8, piece_space:unsigned long long:8}",
    "PartitionInstInfo {id:0, src:MemID:8, fid:unsigned:4, src_inst:unsigned long long:8, "
    "src_expr:unsigned long long:8, fevent:unsigned long long:8}",
    "MakeValidInfo {id:0, result:unsigned long long:8, fevent:unsigned long long:8, "
    "space:unsigned long long:8, created:timestamp_t:8, triggered:timestamp_t:8}",
    "FetchMetadataInfo {id:0, result:unsigned long long:8, fevent:unsigned long long:8, "
    "inst_uid:unsigned long long:8, created:timestamp_t:8, triggered:timestamp_t:8}",
    "ExternalEventInfo {id:0, external:unsigned long long:8, fevent:unsigned long long:8, "
    "created:timestamp_t:8, trigger:timestamp_t:8, prov:unsigned long long:8}"};
static_assert(kKinds1008 + std::size(kOtherKinds) ==
              static_cast<size_t>(LegionLogWriter::Kind::Count));

enum class FieldCode : uint8_t { Int, String, Uuid, Zeros };

struct ParsedField {
  std::string name, type;
  int size = 0;
};
struct ParsedLayout {
  std::string name;
  uint32_t id = 0;
  std::vector<ParsedField> fields;
};

ParsedLayout parse(const std::string& line) {
  ParsedLayout l;
  const size_t brace = line.find(" {id:");
  l.name = line.substr(0, brace);
  size_t pos = brace + 5;
  l.id = static_cast<uint32_t>(std::stoul(line.substr(pos)));
  pos = line.find(", ", pos);
  while (pos != std::string::npos) {
    pos += 2;
    size_t end = line.find(", ", pos);
    const std::string f =
        line.substr(pos, (end == std::string::npos ? line.size() - 1 : end) - pos);
    const size_t a = f.find(':'), b = f.rfind(':');
    l.fields.push_back(
        ParsedField{f.substr(0, a), f.substr(a + 1, b - a - 1), std::stoi(f.substr(b + 1))});
    pos = end;
  }
  return l;
}

}  // namespace

// How a version encodes a kind: each field of its layout, in the layout's
// order, from the writer call's value at `from` (the call's fields: the
// kind's 1008 fields, then extra_fields()), or zeros where the call passes
// no such field.
struct LegionLogWriter::Plan {
  bool present = false;
  uint32_t id = 0;
  struct Field {
    int from = -1;
    FieldCode code = FieldCode::Int;
    uint16_t size = 0;
  };
  std::vector<Field> fields;
  size_t call_fields = 0;  // how many values a call passes
  // From 1011, PhysicalInstanceUsage's last field (redop) is written only
  // where field `last_if` (mode) is LEGION_REDUCE (4); -1: always.
  int last_if = -1;
};

namespace {

struct VersionTables {
  std::vector<LegionLogWriter::Plan> plans;
  std::vector<std::string> lines;
};

// The fields each writer call of a kind passes, by Kind.
const std::vector<std::vector<std::string>>& call_fields() {
  static const std::vector<std::vector<std::string>> fields = [] {
    std::vector<std::vector<std::string>> out;
    std::vector<ParsedLayout> kinds;
    if (layouts_1008().size() != kKinds1008)
      throw std::logic_error("legion log writer: Kind does not list the 1008 kinds");
    for (const std::string& line : layouts_1008()) kinds.push_back(parse(line));
    for (const char* line : kOtherKinds) kinds.push_back(parse(line));
    for (const auto& l : kinds) {
      std::vector<std::string> names;
      for (const auto& f : l.fields) names.push_back(f.name);
      for (const Extra& e : extra_fields())
        if (l.name == e.kind) names.insert(names.end(), e.fields.begin(), e.fields.end());
      out.push_back(std::move(names));
    }
    return out;
  }();
  return fields;
}

size_t kind_index(const std::string& name) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const std::string& line : layouts_1008()) out.push_back(parse(line).name);
    for (const char* line : kOtherKinds) out.push_back(parse(line).name);
    return out;
  }();
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end()) throw std::logic_error("legion log writer: no kind " + name);
  return static_cast<size_t>(at - names.begin());
}

VersionTables make_tables(const std::vector<std::string>& lines, uint32_t format) {
  VersionTables t;
  t.lines = lines;
  t.plans.resize(static_cast<size_t>(LegionLogWriter::Kind::Count));
  for (const std::string& line : lines) {
    const ParsedLayout l = parse(line);
    const size_t k = kind_index(l.name);
    const std::vector<std::string>& given = call_fields()[k];
    LegionLogWriter::Plan& p = t.plans[k];
    p.present = true;
    p.id = l.id;
    p.call_fields = given.size();
    for (const auto& f : l.fields) {
      LegionLogWriter::Plan::Field pf;
      const auto at = std::find(given.begin(), given.end(), f.name);
      pf.from = at == given.end() ? -1 : static_cast<int>(at - given.begin());
      pf.code = f.type == "string" ? FieldCode::String
                : f.type == "uuid" ? FieldCode::Uuid
                                   : FieldCode::Int;
      pf.size = static_cast<uint16_t>(f.size < 0 ? 0 : f.size);
      // Points and arrays (index-space records, never written) and fields
      // of other sizes: zeros of their size.
      if (pf.code == FieldCode::Int && pf.size != 1 && pf.size != 4 && pf.size != 8)
        pf.code = FieldCode::Zeros;
      if (pf.code == FieldCode::Int && pf.from < 0) pf.code = FieldCode::Zeros;
      p.fields.push_back(pf);
    }
    const size_t n = l.fields.size();
    if (format >= 1011 && l.name == "PhysicalInstanceUsage" && n >= 2 &&
        l.fields[n - 1].name == "redop" && l.fields[n - 2].name == "mode")
      p.last_if = static_cast<int>(n - 2);
  }
  return t;
}

const VersionTables& tables(LogVersion v) {
  static const VersionTables v2020 = make_tables(layouts_2020(), 0);
  static const VersionTables v2023 = make_tables(layouts_2023(), 0);
  static const VersionTables v1006 = make_tables(layouts_1006(), 1006);
  static const VersionTables v1008 = make_tables(layouts_1008(), 1008);
  static const VersionTables v1009 = make_tables(layouts_1009(), 1009);
  static const VersionTables v1010 = make_tables(layouts_1010(), 1010);
  static const VersionTables v1011 = make_tables(layouts_1011(), 1011);
  static const VersionTables v1012 = make_tables(layouts_1012(), 1012);
  switch (v) {
    case LogVersion::V2020:
      return v2020;
    case LogVersion::V2023:
      return v2023;
    case LogVersion::V1006:
      return v1006;
    case LogVersion::V1008:
      break;
    case LogVersion::V1009:
      return v1009;
    case LogVersion::V1010:
      return v1010;
    case LogVersion::V1011:
      return v1011;
    case LogVersion::V1012:
      return v1012;
  }
  return v1008;
}

constexpr size_t kFlushAt = size_t{1} << 20;

}  // namespace

struct LegionLogWriter::Sink {
  std::string path;
  FILE* file = nullptr;
  gzFile gz = nullptr;
  bool failed = false;
  void write(const char* data, size_t n) {
    if (n == 0 || failed) return;
    if (gz) {
      failed = gzwrite(gz, data, static_cast<unsigned>(n)) != static_cast<int>(n);
    } else {
      failed = std::fwrite(data, 1, n, file) != n;
    }
  }
  bool close() {
    bool ok = !failed;
    if (gz) ok = gzclose(gz) == Z_OK && ok;
    if (file) ok = std::fclose(file) == 0 && ok;
    gz = nullptr;
    file = nullptr;
    return ok;
  }
};

const std::vector<std::string>& LegionLogWriter::header_lines(LogVersion version) {
  return tables(version).lines;
}

LegionLogWriter::LegionLogWriter(const std::string& path, LogVersion version, bool gzip,
                                 int gzip_level)
    : version_(version), sink_(std::make_unique<Sink>()) {
  sink_->path = path;
  if (gzip) {
    const std::string mode = "wb" + std::to_string(gzip_level);
    sink_->gz = gzopen(path.c_str(), mode.c_str());
    if (sink_->gz) gzbuffer(sink_->gz, 1 << 18);
  } else {
    sink_->file = std::fopen(path.c_str(), "wb");
  }
  if (!sink_->gz && !sink_->file) throw std::runtime_error("cannot write " + path);
  plans_ = &tables(version).plans;
  buf_.reserve(kFlushAt + (64 << 10));
  // "v: 1.0" until 1008; then the format, and Legion's version on a line.
  if (format_of(version) >= 1009) {
    buf_ += "FileType: BinaryLegionProf v: " + std::to_string(format_of(version)) + "\n";
    buf_ += std::string(kWriterLegionVersion) + "\n";
  } else {
    buf_ += "FileType: BinaryLegionProf v: 1.0\n";
  }
  for (const auto& l : header_lines(version)) buf_ += l + "\n";
  buf_ += "\n";
}

LegionLogWriter::~LegionLogWriter() {
  if (sink_ && (sink_->file || sink_->gz)) {
    flush();
    sink_->close();
  }
}

void LegionLogWriter::flush() {
  sink_->write(buf_.data(), buf_.size());
  buf_.clear();
}

void LegionLogWriter::finish() {
  flush();
  if (!sink_->close()) throw std::runtime_error("writing " + sink_->path + " failed");
}

bool LegionLogWriter::put(Kind kind, std::initializer_list<Value> fields) {
  const Plan& p = (*plans_)[static_cast<size_t>(kind)];
  if (!p.present) return false;
  if (fields.size() != p.call_fields)
    throw std::logic_error("legion log writer: wrong field count for kind " +
                           std::to_string(static_cast<int>(kind)));
  char bytes[8];
  std::memcpy(bytes, &p.id, 4);  // little-endian hosts only, as the format
  buf_.append(bytes, 4);
  uint64_t last = 0;  // the previous integer (a uuid's size)
  for (size_t k = 0; k < p.fields.size(); ++k) {
    const Plan::Field& f = p.fields[k];
    const Value* x = f.from < 0 ? nullptr : fields.begin() + f.from;
    if (p.last_if >= 0 && k + 1 == p.fields.size()) {
      const int from = p.fields[static_cast<size_t>(p.last_if)].from;
      if (from < 0 || fields.begin()[from].u != 4) break;  // not a reduction: no redop
    }
    switch (f.code) {
      case FieldCode::Int:
        std::memcpy(bytes, &x->u, 8);
        buf_.append(bytes, f.size);
        last = x->u;
        break;
      case FieldCode::String: {
        // A text field the call gives as an id (a provenance Legion of 2023
        // writes as text): the text provenance() registered for it.
        const char* s = x == nullptr ? "" : x->s;
        if (x != nullptr && s == nullptr) {
          const auto text = provenance_texts_.find(x->u);
          s = text == provenance_texts_.end() ? "" : text->second.c_str();
        }
        buf_.append(s, std::strlen(s) + 1);
        break;
      }
      case FieldCode::Uuid:
        for (uint64_t i = 0; i < last; ++i) buf_.push_back(x && x->s ? x->s[i] : '\0');
        break;
      case FieldCode::Zeros:
        buf_.append(f.size, '\0');
        break;
    }
  }
  ++records_;
  if (buf_.size() >= kFlushAt) flush();
  return true;
}

using K = LegionLogWriter::Kind;

void LegionLogWriter::machine(const MachineInfo& m) {
  put(K::MachineDesc,
      {m.node, m.nodes, static_cast<uint32_t>(version_), m.hostname, m.host_id, m.process_id});
  put(K::ZeroTime, {m.zero_time});
  put(K::CalibrationErr, {m.calibration_err});
  put(K::MaxDimDesc, {int32_t{6}});
}

void LegionLogWriter::runtime_config(bool debug) {
  put(K::RuntimeConfig, {debug, false, false, false, false, false, false, false, false, false});
}

void LegionLogWriter::proc(uint64_t proc_id, int32_t kind) {
  // A GPU's CUDA uuid: 16 bytes (garbage on other processors in real logs).
  static const char kUuid[16] = {'\x5a', '\x11', '\x7e', '\x03', 1, 2,  3,  4,
                                 5,      6,      7,      8,      9, 10, 11, 12};
  static const char kZero[16] = {};
  put(K::ProcDesc, {proc_id, kind, uint32_t{16}, kind == kGpu ? kUuid : kZero});
}

void LegionLogWriter::memory(uint64_t mem_id, int32_t kind, uint64_t capacity) {
  // Realm numbered memory kinds from GLOBAL_MEM = 0 until April 2021.
  put(K::MemDesc, {mem_id, version_ == LogVersion::V2020 ? kind - 1 : kind, capacity});
}

void LegionLogWriter::proc_memory(uint64_t proc_id, uint64_t mem_id, uint32_t bandwidth,
                                  uint32_t latency) {
  put(K::ProcMDesc, {proc_id, mem_id, bandwidth, latency});
}

void LegionLogWriter::task_kind(uint32_t task_id, const std::string& name, bool overwrite) {
  put(K::TaskKind, {task_id, name, overwrite});
}

void LegionLogWriter::task_variant(uint32_t task_id, uint32_t variant_id, const std::string& name) {
  put(K::TaskVariant, {task_id, variant_id, name});
}

void LegionLogWriter::meta_desc(uint32_t lg_id, const std::string& name, bool message) {
  put(K::MetaDesc, {lg_id, message, false, name});
}

void LegionLogWriter::op_desc(uint32_t kind, const std::string& name) {
  put(K::OpDesc, {kind, name});
}

void LegionLogWriter::mapper_call_desc(uint32_t kind, const std::string& name) {
  put(K::MapperCallDesc, {kind, name});
}

void LegionLogWriter::runtime_call_desc(uint32_t kind, const std::string& name) {
  put(K::RuntimeCallDesc, {kind, name});
}

void LegionLogWriter::mapper_name(uint32_t mapper_id, uint64_t mapper_proc,
                                  const std::string& name) {
  put(K::MapperName, {mapper_id, mapper_proc, name});
}

void LegionLogWriter::provenance(uint64_t id, const std::string& text) {
  provenance_texts_[id] = text;
  put(K::Provenance, {id, text});
}

void LegionLogWriter::operation(uint64_t op, uint64_t parent, uint32_t kind, uint64_t prov) {
  put(K::OperationInstance, {op, parent, kind, prov});
}

void LegionLogWriter::multi_task(uint64_t op, uint32_t task_id) {
  put(K::MultiTask, {op, task_id});
}

void LegionLogWriter::task(const TaskTimes& t) {
  put(K::TaskInfo, {t.op, t.task_id, t.variant_id, t.proc, t.create, t.ready, t.start, t.stop,
                    t.creator, t.critical, t.fevent});
}

bool LegionLogWriter::implicit_task(const TaskTimes& t) {
  return put(K::ImplicitTaskInfo, {t.op, t.task_id, t.variant_id, t.proc, t.create, t.ready,
                                   t.start, t.stop, t.creator, t.critical, t.fevent});
}

void LegionLogWriter::gpu_task(const TaskTimes& t) {
  put(K::GPUTaskInfo, {t.op, t.task_id, t.variant_id, t.proc, t.create, t.ready, t.start, t.stop,
                       t.gpu_start, t.gpu_stop, t.creator, t.critical, t.fevent});
}

void LegionLogWriter::meta(const MetaTimes& m) {
  put(K::MetaInfo,
      {m.op, m.lg_id, m.proc, m.create, m.ready, m.start, m.stop, m.creator, m.critical, m.fevent});
}

void LegionLogWriter::message(const MetaTimes& m) {
  put(K::MessageInfo, {m.op, m.lg_id, m.proc, m.spawn, m.create, m.ready, m.start, m.stop,
                       m.creator, m.critical, m.fevent, m.lg_id});
}

bool LegionLogWriter::message_desc(uint32_t kind, const std::string& name) {
  return put(K::MessageDesc, {kind, name});
}

void LegionLogWriter::mapper_call(uint32_t mapper_id, uint64_t mapper_proc, uint32_t kind,
                                  uint64_t op, uint64_t start, uint64_t stop, uint64_t proc,
                                  uint64_t fevent) {
  put(K::MapperCallInfo, {mapper_id, mapper_proc, kind, op, start, stop, proc, fevent});
}

void LegionLogWriter::runtime_call(uint32_t kind, uint64_t start, uint64_t stop, uint64_t proc,
                                   uint64_t fevent) {
  put(K::RuntimeCallInfo, {kind, start, stop, proc, fevent});
}

void LegionLogWriter::application_call(uint64_t prov, uint64_t start, uint64_t stop, uint64_t proc,
                                       uint64_t fevent) {
  put(K::ApplicationCallInfo, {prov, start, stop, proc, fevent});
}

void LegionLogWriter::prof_task(uint64_t proc, uint64_t op, uint64_t start, uint64_t stop,
                                uint64_t creator, uint64_t fevent, bool completion) {
  put(K::ProfTaskInfo, {proc, op, start, stop, creator, fevent, completion});
}

void LegionLogWriter::task_wait(uint64_t op, uint32_t task_id, uint32_t variant_id, uint64_t start,
                                uint64_t ready, uint64_t end, uint64_t event) {
  put(K::TaskWaitInfo, {op, task_id, variant_id, start, ready, end, event});
}

void LegionLogWriter::meta_wait(uint64_t op, uint32_t lg_id, uint64_t start, uint64_t ready,
                                uint64_t end, uint64_t event) {
  put(K::MetaWaitInfo, {op, lg_id, start, ready, end, event});
}

void LegionLogWriter::instance(const InstanceTimes& i) {
  // Before 2022-10: also when it was asked for, and its memory and size.
  put(K::InstCreateInfo, {i.op, i.inst_id, i.create});
  put(K::InstUsageInfo, {i.op, i.inst_id, i.mem, i.size});
  put(K::InstTimelineInfo,
      {i.inst_uid, i.inst_id, i.mem, i.size, i.op, i.create, i.ready, i.destroy, i.creator});
}

void LegionLogWriter::copy(const ChannelTimes& c) {
  put(K::CopyInfo, {c.op, c.size, c.create, c.ready, c.start, c.stop, c.creator, c.critical,
                    c.fevent, c.collective, c.src, c.dst, c.redop});
}

bool LegionLogWriter::copy_inst(uint64_t src, uint64_t dst, uint64_t src_inst, uint64_t dst_inst,
                                uint64_t fevent, bool indirect, uint32_t src_fid, uint32_t dst_fid,
                                uint32_t num_hops) {
  return put(K::CopyInstInfo,
             {src, dst, src_fid, dst_fid, src_inst, dst_inst, fevent, num_hops, indirect});
}

void LegionLogWriter::fill(const ChannelTimes& c) {
  put(K::FillInfo,
      {c.op, c.size, c.create, c.ready, c.start, c.stop, c.creator, c.critical, c.fevent, c.dst});
}

bool LegionLogWriter::fill_inst(uint64_t dst, uint64_t dst_inst, uint64_t fevent, uint32_t fid) {
  return put(K::FillInstInfo, {dst, fid, dst_inst, fevent});
}

void LegionLogWriter::partition(const ChannelTimes& c) {
  put(K::PartitionInfo,
      {c.op, c.part_op, c.create, c.ready, c.start, c.stop, c.creator, c.critical, c.fevent});
}

bool LegionLogWriter::event_merger(uint64_t result, uint64_t fevent, uint64_t performed,
                                   uint64_t pre0, uint64_t pre1, uint64_t pre2, uint64_t pre3) {
  return put(K::EventMergerInfo, {result, fevent, performed, pre0, pre1, pre2, pre3});
}

bool LegionLogWriter::event_trigger(uint64_t result, uint64_t fevent, uint64_t precondition,
                                    uint64_t performed) {
  return put(K::EventTriggerInfo, {result, fevent, precondition, performed});
}

bool LegionLogWriter::event_poison(uint64_t result, uint64_t fevent, uint64_t performed) {
  return put(K::EventPoisonInfo, {result, fevent, performed});
}

bool LegionLogWriter::barrier_arrival(uint64_t result, uint64_t fevent, uint64_t precondition,
                                      uint64_t performed) {
  return put(K::BarrierArrivalInfo, {result, fevent, precondition, performed});
}

bool LegionLogWriter::reservation_acquire(uint64_t result, uint64_t fevent, uint64_t precondition,
                                          uint64_t performed, uint64_t reservation) {
  return put(K::ReservationAcquireInfo, {result, fevent, precondition, performed, reservation});
}

bool LegionLogWriter::instance_ready(uint64_t result, uint64_t precondition, uint64_t inst_uid,
                                     uint64_t performed) {
  return put(K::InstanceReadyInfo, {result, precondition, inst_uid, performed});
}

bool LegionLogWriter::completion_queue(uint64_t result, uint64_t fevent, uint64_t performed,
                                       uint64_t pre0, uint64_t pre1, uint64_t pre2, uint64_t pre3) {
  return put(K::CompletionQueueInfo, {result, fevent, performed, pre0, pre1, pre2, pre3});
}

bool LegionLogWriter::make_valid(uint64_t result, uint64_t fevent, uint64_t space, uint64_t created,
                                 uint64_t triggered) {
  return put(K::MakeValidInfo, {result, fevent, space, created, triggered});
}

bool LegionLogWriter::fetch_metadata(uint64_t result, uint64_t fevent, uint64_t inst_uid,
                                     uint64_t created, uint64_t triggered) {
  return put(K::FetchMetadataInfo, {result, fevent, inst_uid, created, triggered});
}

bool LegionLogWriter::external_event(uint64_t external, uint64_t fevent, uint64_t created,
                                     uint64_t triggered, uint64_t provenance) {
  return put(K::ExternalEventInfo, {external, fevent, created, triggered, provenance});
}

void LegionLogWriter::wait_site(uint64_t proc, uint64_t fevent, uint64_t event,
                                uint64_t backtrace_id, uint64_t provenance) {
  put(K::EventWaitInfo, {proc, fevent, event, backtrace_id, provenance});
}

void LegionLogWriter::backtrace(uint64_t backtrace_id, const std::string& text) {
  put(K::BacktraceDesc, {backtrace_id, text});
}

void LegionLogWriter::instance_usage(uint64_t inst_uid, uint64_t fevent, uint64_t op,
                                     uint64_t start, uint64_t stop, uint32_t field, uint32_t index,
                                     uint32_t mode, uint32_t redop, uint64_t index_expr) {
  // 1008's layout names the index and field as index_id and field_id.
  put(K::PhysicalInstanceUsage,
      {inst_uid, op, index, field, fevent, start, stop, index_expr, field, index, mode, redop});
}

}  // namespace legato::legion::testing
