#include "legion_import/collect.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <initializer_list>
#include <string_view>

namespace legato::legion {

enum class Collector::Kind : uint8_t {
  Ignored,  // known, not needed for the timeline (shapes, affinities, backtraces)
  Unknown,
  MachineDesc,
  ZeroTime,
  CalibrationErr,
  MaxDimDesc,
  RuntimeConfig,
  ProcDesc,
  MemDesc,
  TaskKind,
  TaskVariant,
  MetaDesc,
  MapperCallDesc,
  RuntimeCallDesc,
  MapperName,
  OpDesc,
  Provenance,
  OperationInstance,
  MultiTask,
  ProcItem,  // with a Source
  TaskWait,
  MetaWait,
  Instance,
  InstCreate,  // before 2022-10
  InstUsage,   // before 2022-10
  MessageDesc,
  ChannelItem,  // with a ChannelItem::Type
  CopyInst,
  FillInst,
  Event,  // with an EventNode::Type
  Backtrace,
  WaitSite,
};

namespace {

// Every name the field lookups below use, in one list.
constexpr std::array kFieldNames = {
    "op_id",      "task_id",     "variant_id",   "proc_id",    "create",
    "ready",      "start",       "stop",         "gpu_start",  "gpu_stop",
    "creator",    "critical",    "fevent",       "lg_id",      "kind",
    "mapper_id",  "mapper_proc", "mapper",       "wait_start", "wait_ready",
    "wait_end",   "wait_event",  "inst_uid",     "inst_id",    "mem_id",
    "size",       "destroy",     "src",          "dst",        "src_inst",
    "dst_inst",   "indirect",    "part_op",      "result",     "performed",
    "pre0",       "pre1",        "pre2",         "pre3",       "precondition",
    "name",       "overwrite",   "message",      "capacity",   "parent_id",
    "provenance", "prov",        "node_id",      "num_nodes",  "version",
    "hostname",   "host_id",     "process_id",   "zero_time",  "calibration_err",
    "max_dim",    "spawn",       "backtrace_id", "backtrace",  "reduction",
    "external",   "triggered",   "trigger"};
constexpr size_t kNumFields = kFieldNames.size();

consteval size_t ix(std::string_view name) {
  for (size_t i = 0; i < kNumFields; ++i) {
    if (kFieldNames[i] == name) return i;
  }
  throw "unknown field name";  // a compile-time error
}

}  // namespace

struct Collector::Fields {
  std::array<int, kNumFields> at{};
};

struct Collector::Handler {
  Kind kind = Kind::Unknown;
  uint8_t sub = 0;  // Source, ChannelItem::Type or EventNode::Type
  Fields f;
};

namespace {

// A record kind's name, its Collector::Kind and its sub.
struct Named {
  std::string_view name;
  uint8_t kind;
  uint8_t sub;
};

// Record kinds known, and not needed for the timeline: instance shapes and
// fields, processor-memory affinity, index launches' slices, Realm-only
// (prealm) records, kinds of older versions.
constexpr std::string_view kIgnored[] = {
    "ProcMDesc",
    "IndexSpacePointDesc",
    "IndexSpaceRectDesc",
    "IndexSpaceEmptyDesc",
    "FieldDesc",
    "FieldSpaceDesc",
    "PartDesc",
    "IndexSpaceDesc",
    "IndexSubSpaceDesc",
    "IndexPartitionDesc",
    "IndexSpaceSizeDesc",
    "LogicalRegionDesc",
    "PhysicalInstRegionDesc",
    "PhysicalInstLayoutDesc",
    "PhysicalInstDimOrderDesc",
    "PhysicalInstanceUsage",
    "PhysicalInstanceSpaces",
    "PartitionInstInfo",
    "SliceOwner",
    "LocalLockAcquireInfo",
    "SpawnInfo",
    "ProcMemDesc",
};

}  // namespace

Collector::Collector(const Header& header) : header_(header) {
  handlers_.resize(header.layouts.size());
  counts_.assign(header.layouts.size(), 0);
  for (size_t i = 0; i < header.layouts.size(); ++i) {
    const RecordLayout& l = header.layouts[i];
    Handler& h = handlers_[i];
    recognise(l.name, h);
    for (size_t f = 0; f < kNumFields; ++f) h.f.at[f] = l.field(kFieldNames[f]);
    if (l.name == "MessageInfo" && l.field("lg_id") < 0 && l.field("kind") >= 0)
      data_.messages_by_kind = true;
  }
  read_layout_versions(header);
}

void Collector::recognise(std::string_view name, Handler& h) {
  using K = Kind;
  constexpr auto k = [](K x) { return static_cast<uint8_t>(x); };
  constexpr auto s = [](auto x) { return static_cast<uint8_t>(x); };
  static constexpr Named known[] = {
      {"MachineDesc", k(K::MachineDesc), 0},
      {"ZeroTime", k(K::ZeroTime), 0},
      {"CalibrationErr", k(K::CalibrationErr), 0},
      {"MaxDimDesc", k(K::MaxDimDesc), 0},
      {"RuntimeConfig", k(K::RuntimeConfig), 0},
      {"ProcDesc", k(K::ProcDesc), 0},
      {"MemDesc", k(K::MemDesc), 0},
      {"TaskKind", k(K::TaskKind), 0},
      {"TaskVariant", k(K::TaskVariant), 0},
      {"MetaDesc", k(K::MetaDesc), 0},
      {"MapperCallDesc", k(K::MapperCallDesc), 0},
      {"RuntimeCallDesc", k(K::RuntimeCallDesc), 0},
      {"MapperName", k(K::MapperName), 0},
      {"OpDesc", k(K::OpDesc), 0},
      {"Provenance", k(K::Provenance), 0},
      {"OperationInstance", k(K::OperationInstance), 0},
      {"MultiTask", k(K::MultiTask), 0},
      {"TaskInfo", k(K::ProcItem), s(Source::Task)},
      {"ImplicitTaskInfo", k(K::ProcItem), s(Source::ImplicitTask)},
      {"GPUTaskInfo", k(K::ProcItem), s(Source::GpuTask)},
      {"MetaInfo", k(K::ProcItem), s(Source::Meta)},
      {"MessageInfo", k(K::ProcItem), s(Source::Message)},
      {"MapperCallInfo", k(K::ProcItem), s(Source::MapperCall)},
      {"RuntimeCallInfo", k(K::ProcItem), s(Source::RuntimeCall)},
      {"ApplicationCallInfo", k(K::ProcItem), s(Source::ApplicationCall)},
      {"ProfTaskInfo", k(K::ProcItem), s(Source::ProfTask)},
      {"TaskWaitInfo", k(K::TaskWait), 0},
      {"MetaWaitInfo", k(K::MetaWait), 0},
      {"InstTimelineInfo", k(K::Instance), 0},
      {"InstCreateInfo", k(K::InstCreate), 0},
      {"InstUsageInfo", k(K::InstUsage), 0},
      {"MessageDesc", k(K::MessageDesc), 0},
      {"CopyInfo", k(K::ChannelItem), s(ChannelItem::Copy)},
      {"FillInfo", k(K::ChannelItem), s(ChannelItem::Fill)},
      {"PartitionInfo", k(K::ChannelItem), s(ChannelItem::DepPart)},
      {"CopyInstInfo", k(K::CopyInst), 0},
      {"FillInstInfo", k(K::FillInst), 0},
      {"EventMergerInfo", k(K::Event), s(EventNode::Merge)},
      {"EventTriggerInfo", k(K::Event), s(EventNode::Trigger)},
      {"EventPoisonInfo", k(K::Event), s(EventNode::Poison)},
      {"BarrierArrivalInfo", k(K::Event), s(EventNode::Barrier)},
      {"ReservationAcquireInfo", k(K::Event), s(EventNode::Reservation)},
      {"InstanceReadyInfo", k(K::Event), s(EventNode::Instance)},
      {"InstanceRedistrictInfo", k(K::Event), s(EventNode::Instance)},
      {"CompletionQueueInfo", k(K::Event), s(EventNode::CompletionQueue)},
      {"MakeValidInfo", k(K::Event), s(EventNode::MakeValid)},
      {"FetchMetadataInfo", k(K::Event), s(EventNode::FetchMetadata)},
      {"ExternalEventInfo", k(K::Event), s(EventNode::External)},
      {"BacktraceDesc", k(K::Backtrace), 0},
      {"EventWaitInfo", k(K::WaitSite), 0},
  };
  for (const Named& n : known) {
    if (n.name == name) {
      h.kind = static_cast<Kind>(n.kind);
      h.sub = n.sub;
    }
  }
  for (const std::string_view n : kIgnored) {
    if (n == name) h.kind = Kind::Ignored;
  }
}

void Collector::read_layout_versions(const Header& header) {
  if (const RecordLayout* ops = header.find("OperationInstance"))
    data_.ops_name_parents = ops->field("parent_id") >= 0;
  // Layouts that only Legion from 2022 on writes say the memory kinds are
  // numbered from NO_MEMKIND (April 2021): MachineDesc (2023-03) and a
  // MetaDesc with message and ordered_vc (2022-01). Older headers leave it
  // to the memories the records describe (convert.cpp).
  const RecordLayout* meta = header.find("MetaDesc");
  if (header.find("MachineDesc") ||
      (meta && (meta->field("message") >= 0 || meta->field("ordered_vc") >= 0)))
    data_.mem_kinds = MemKindNumbering::Current;
}

Collector::~Collector() = default;

template <class F>
void Collector::each_table(F&& f) {
  const auto of = [](std::initializer_list<Kind> kinds) {
    return [kinds](const Handler& h) {
      return std::find(kinds.begin(), kinds.end(), h.kind) != kinds.end();
    };
  };
  const auto items = [](bool (*source)(Source)) {
    return [source](const Handler& h) {
      return h.kind == Kind::ProcItem && source(static_cast<Source>(h.sub));
    };
  };
  const auto meta = [](Source s) { return !is_task(s); };
  const auto gpu = [](Source s) { return s == Source::GpuTask; };
  LogData& d = data_;
  ItemTables& it = d.items;
  f(d.ops, of({Kind::OperationInstance}));
  f(it.tasks, items(is_task));
  f(it.metas, items(meta));
  f(it.kernels, items(gpu));
  f(it.kernel_tasks, items(gpu));
  f(it.path.items, items(owns_event));
  f(it.path.uids, items(owns_event));
  f(it.path_refs, items(owns_event));
  f(it.path_keys, items(owns_event));
  f(it.calls, items(is_call));
  f(d.waits, of({Kind::TaskWait, Kind::MetaWait}));
  f(d.wait_sites, of({Kind::WaitSite}));
  f(d.instances, of({Kind::Instance}));
  f(d.channel_items, of({Kind::ChannelItem}));
  f(d.inst_refs, of({Kind::CopyInst, Kind::FillInst}));
  f(d.events, of({Kind::Event}));
}

void Collector::table_ends(std::vector<base::PagesAhead::Table>& out) {
  out.clear();
  each_table([&](const auto& table, auto&&) { out.push_back(base::PagesAhead::Table::of(table)); });
}

void Collector::expect(uint64_t bytes, uint64_t budget) {
  budget_ = budget > 0 ? static_cast<double>(budget) : base::reservation_budget();
  // The fewest bytes a record of each layout takes.
  std::vector<uint64_t> least(handlers_.size(), 4);  // the record id
  for (size_t i = 0; i < handlers_.size(); ++i) {
    for (const FieldLayout& f : header_.layouts[i].fields) {
      const bool variable = f.kind == FieldType::String || f.kind == FieldType::Point ||
                            f.kind == FieldType::Array || f.kind == FieldType::Uuid;
      least[i] += variable ? 1 : f.size;
    }
  }
  // The most records of the layouts that `fill` picks those bytes can
  // hold, 0 where none is in the header.
  const auto count = [&](auto&& fill) -> size_t {
    uint64_t size = UINT64_MAX;
    for (size_t i = 0; i < handlers_.size(); ++i)
      if (fill(handlers_[i])) size = std::min(size, least[i]);
    return size == UINT64_MAX ? 0 : static_cast<size_t>(bytes / size);
  };
  most_.clear();
  each_table([&](auto&, auto&& fill) { most_.push_back(count(fill)); });
  if (!reserve(most_)) sample_bytes_ = bytes;
}

bool Collector::reserve(const std::vector<size_t>& counts) {
  size_t k = 0;
  return base::reserve_tables([&](auto&& f) { each_table([&](auto& table, auto&&) { f(table); }); },
                              [&](const auto&) { return counts[k++]; }, budget_);
}

void Collector::reserve_from_sample(uint64_t offset) {
  if (offset <= header_.size) return;
  const double scale =
      static_cast<double>(sample_bytes_) / static_cast<double>(offset - header_.size);
  std::vector<size_t> want;
  size_t k = 0;
  each_table([&](auto& table, auto&&) {
    const double rate = 2 * scale * static_cast<double>(table.size()) + 4096;
    want.push_back(std::min(most_[k++], static_cast<size_t>(std::min(rate, 1e18))));
  });
  reserve(want);
}

uint64_t Collector::provenance_id(const std::string& text) {
  if (text.empty()) return 0;
  const auto [it, added] = inline_provenances_.try_emplace(text, 0);
  if (added) {
    // Ids no Provenance record of the same log uses (they count from 1).
    it->second = (uint64_t{1} << 62) + inline_provenances_.size();
    data_.provenances[it->second] = text;
  }
  return it->second;
}

LogData& Collector::data() {
  data_.counts.clear();
  data_.unknown_kinds.clear();
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    const std::string& name = header_.layouts[i].name;
    data_.counts[name] = counts_[i];
    if (handlers_[i].kind == Kind::Unknown) data_.unknown_kinds[name] = counts_[i];
  }
  return data_;
}

// The record's fields by their names' indices (ix), with the defaults of
// Record::get for fields its layout does not have.
struct Collector::In {
  const Record& r;
  const std::array<int, kNumFields>& f;
  uint64_t u(size_t field, uint64_t fallback = 0) const { return r.get(f[field], fallback); }
  uint32_t u32(size_t field) const { return static_cast<uint32_t>(r.get(f[field])); }
  int32_t i32(size_t field) const { return static_cast<int32_t>(r.get(f[field])); }
  const std::string& text(size_t field) const { return r.text(f[field]); }
  bool has(size_t field) const { return f[field] >= 0; }
};

inline void Collector::add_machine(Kind kind, In in) {
  LogData& d = data_;
  switch (kind) {
    case Kind::MachineDesc:
      d.has_machine = true;
      d.node = in.u32(ix("node_id"));
      d.nodes = in.u32(ix("num_nodes"));
      d.version = in.u32(ix("version"));
      d.hostname = in.text(ix("hostname"));
      d.host_id = in.u(ix("host_id"));
      d.process_id = in.u32(ix("process_id"));
      break;
    case Kind::ZeroTime:
      d.has_zero_time = true;
      d.zero_time = static_cast<int64_t>(in.u(ix("zero_time")));
      break;
    case Kind::CalibrationErr:
      d.calibration_err = static_cast<int64_t>(in.u(ix("calibration_err")));
      break;
    case Kind::MaxDimDesc:
      d.max_dim = in.u32(ix("max_dim"));
      break;
    case Kind::RuntimeConfig:
      for (size_t i = 0; i < in.r.layout->fields.size(); ++i)
        d.runtime_config[in.r.layout->fields[i].name] = in.r.values[i] != 0;
      break;
    case Kind::ProcDesc:
      d.procs[in.u(ix("proc_id"))] = in.i32(ix("kind"));
      break;
    case Kind::MemDesc:
      d.mems[in.u(ix("mem_id"))] = {in.i32(ix("kind")), in.u(ix("capacity"))};
      break;
    default:
      break;
  }
}

inline void Collector::add_name(Kind kind, In in) {
  LogData& d = data_;
  switch (kind) {
    case Kind::TaskKind: {
      // Logged first as "unnamed_task_<id>" without overwrite, later with
      // the real name and overwrite (LEGION_FORMAT.md §5).
      const uint32_t id = in.u32(ix("task_id"));
      const bool overwrite = !in.has(ix("overwrite")) || in.u(ix("overwrite")) != 0;
      const auto it = d.task_names.find(id);
      if (it == d.task_names.end() || overwrite)
        d.task_names[id] = {in.text(ix("name")), overwrite};
      break;
    }
    case Kind::TaskVariant:
      d.variants[{in.u32(ix("task_id")), in.u32(ix("variant_id"))}] = in.text(ix("name"));
      break;
    case Kind::MetaDesc:
      d.meta_names[in.u32(ix("kind"))] = {in.text(ix("name")), in.u(ix("message")) != 0};
      break;
    case Kind::MessageDesc:
      d.message_names[in.u32(ix("kind"))] = in.text(ix("name"));
      break;
    case Kind::MapperCallDesc:
      d.mapper_calls[in.u32(ix("kind"))] = in.text(ix("name"));
      break;
    case Kind::RuntimeCallDesc:
      d.runtime_calls[in.u32(ix("kind"))] = in.text(ix("name"));
      break;
    case Kind::MapperName:
      d.mapper_names[{in.u32(ix("mapper_id")), in.u(ix("mapper_proc"))}] = in.text(ix("name"));
      break;
    case Kind::OpDesc:
      d.op_kinds[in.u32(ix("kind"))] = in.text(ix("name"));
      break;
    case Kind::Provenance:
      d.provenances[in.u(ix("provenance"))] = in.text(ix("prov"));
      break;
    case Kind::Backtrace:
      d.backtraces[in.u(ix("backtrace_id"))] = in.text(ix("backtrace"));
      break;
    default:
      break;
  }
}

inline void Collector::add_operation(In in) {
  // Legion of 2023 writes the provenance text in the record itself;
  // later ones a Provenance record's id.
  const int prov = in.f[ix("provenance")];
  const bool inline_text =
      prov >= 0 && in.r.layout->fields[static_cast<size_t>(prov)].kind == FieldType::String;
  data_.ops.push_back(
      OpInfo{in.u(ix("op_id")), in.u(ix("parent_id"), ~uint64_t{0}),
             inline_text ? provenance_id(in.text(ix("provenance"))) : in.u(ix("provenance")),
             in.u32(ix("kind"))});
}

inline void Collector::add_proc_item(Source source, In in) {
  ProcItem it;
  it.source = source;
  it.proc = in.u(ix("proc_id"));
  it.op = in.u(ix("op_id"));
  it.fevent = in.u(ix("fevent"));
  it.creator = in.u(ix("creator"));
  it.critical = in.u(ix("critical"));
  it.start = in.u(ix("start"));
  it.stop = in.u(ix("stop"));
  // Calls and prof tasks have no create/ready: they start when created.
  it.ready = in.u(ix("ready"), it.start);
  it.create = in.u(ix("create"), it.ready);
  switch (it.source) {
    case Source::Task:
    case Source::ImplicitTask:
    case Source::GpuTask:
      it.kind = in.u32(ix("task_id"));
      it.variant = in.u32(ix("variant_id"));
      if (it.source == Source::GpuTask) {
        it.gpu_start = in.u(ix("gpu_start"));
        it.gpu_stop = in.u(ix("gpu_stop"));
      }
      break;
    case Source::Meta:
    case Source::Message:
      // An older MessageInfo names its MessageDesc kind instead.
      it.kind = in.has(ix("lg_id")) ? in.u32(ix("lg_id")) : in.u32(ix("kind"));
      it.extra = in.u(ix("spawn"));  // messages: when the sender sent it
      break;
    case Source::MapperCall:
      it.kind = in.u32(ix("kind"));
      it.variant = in.has(ix("mapper_id")) ? in.u32(ix("mapper_id")) : in.u32(ix("mapper"));
      it.extra = in.u(ix("mapper_proc"));
      break;
    case Source::RuntimeCall:
      it.kind = in.u32(ix("kind"));
      break;
    case Source::ApplicationCall:
      it.extra = in.u(ix("provenance"));
      break;
    case Source::ProfTask:
      break;
  }
  data_.items.add(it, data_.node);
}

inline void Collector::add_wait(bool meta, In in) {
  WaitInfo w;
  w.meta = meta;
  w.op = in.u(ix("op_id"));
  w.kind = w.meta ? in.u32(ix("lg_id")) : in.u32(ix("task_id"));
  w.start = in.u(ix("wait_start"));
  w.ready = in.u(ix("wait_ready"));
  w.end = in.u(ix("wait_end"));
  w.event = in.u(ix("wait_event"));
  data_.waits.push_back(w);
}

inline void Collector::add_old_instance(Kind kind, In in) {
  if (kind == Kind::InstCreate) {
    data_.inst_creates.emplace_back(in.u(ix("inst_id")), in.u(ix("create")));
  } else {
    data_.inst_usages.push_back(
        InstUsage{in.u(ix("inst_id")), in.u(ix("mem_id")), in.u(ix("size")), in.u(ix("op_id"))});
  }
}

inline void Collector::add_instance(In in) {
  data_.instances.push_back(InstInfo{in.u(ix("inst_uid")), in.u(ix("inst_id")), in.u(ix("mem_id")),
                                     in.u(ix("size")), in.u(ix("op_id")), in.u(ix("create")),
                                     in.u(ix("ready"), in.u(ix("create"))), in.u(ix("destroy")),
                                     in.u(ix("creator"))});
}

inline void Collector::add_channel_item(ChannelItem::Type type, In in) {
  ChannelItem c;
  c.type = type;
  c.op = in.u(ix("op_id"));
  c.size = in.u(ix("size"));
  c.fevent = in.u(ix("fevent"));
  c.creator = in.u(ix("creator"));
  c.critical = in.u(ix("critical"));
  c.start = in.u(ix("start"));
  c.stop = in.u(ix("stop"));
  c.ready = in.u(ix("ready"), c.start);
  c.create = in.u(ix("create"), c.ready);
  c.part_op = in.u32(ix("part_op"));
  c.src = in.u(ix("src"));
  c.dst = in.u(ix("dst"));
  c.redop = in.u32(ix("reduction"));  // 1011 on: a reduction copy's operator
  data_.channel_items.push_back(c);
}

inline void Collector::add_event(EventNode::Type type, In in) {
  EventNode e;
  e.type = type;
  // ExternalEventInfo names its event `external` and its time `trigger`;
  // MakeValidInfo and FetchMetadataInfo theirs `triggered`.
  e.result = in.has(ix("result")) ? in.u(ix("result")) : in.u(ix("external"));
  e.performer = in.u(ix("fevent"));
  e.performed = in.has(ix("performed"))   ? in.u(ix("performed"))
                : in.has(ix("triggered")) ? in.u(ix("triggered"))
                                          : in.u(ix("trigger"));
  // An arrival whose fevent is the barrier itself is a handshake from
  // outside Legion (since 25.06), not an item's arrival.
  if (e.type == EventNode::Barrier && e.performer == e.result && e.result != 0) {
    e.type = EventNode::Handshake;
    e.performer = 0;
  }
  if (in.has(ix("pre0"))) {
    e.pre[0] = in.u(ix("pre0"));
    e.pre[1] = in.u(ix("pre1"));
    e.pre[2] = in.u(ix("pre2"));
    e.pre[3] = in.u(ix("pre3"));
  } else {
    e.pre[0] = in.u(ix("precondition"));
  }
  data_.events.push_back(e);
}

void Collector::add(const Record& r) {
  const auto layout = static_cast<size_t>(r.layout - header_.layouts.data());
  const Handler& h = handlers_[layout];
  ++counts_[layout];
  if (++added_ == kSample && sample_bytes_ > 0) reserve_from_sample(r.offset);
  const In in{r, h.f.at};
  LogData& d = data_;
  switch (h.kind) {
    case Kind::Ignored:
    case Kind::Unknown:
      break;
    case Kind::MachineDesc:
    case Kind::ZeroTime:
    case Kind::CalibrationErr:
    case Kind::MaxDimDesc:
    case Kind::RuntimeConfig:
    case Kind::ProcDesc:
    case Kind::MemDesc:
      add_machine(h.kind, in);
      break;
    case Kind::TaskKind:
    case Kind::TaskVariant:
    case Kind::MetaDesc:
    case Kind::MessageDesc:
    case Kind::MapperCallDesc:
    case Kind::RuntimeCallDesc:
    case Kind::MapperName:
    case Kind::OpDesc:
    case Kind::Provenance:
    case Kind::Backtrace:
      add_name(h.kind, in);
      break;
    case Kind::OperationInstance:
      add_operation(in);
      break;
    case Kind::MultiTask:
      d.multi_tasks[in.u(ix("op_id"))] = in.u32(ix("task_id"));
      break;
    case Kind::ProcItem:
      add_proc_item(static_cast<Source>(h.sub), in);
      break;
    case Kind::TaskWait:
    case Kind::MetaWait:
      add_wait(h.kind == Kind::MetaWait, in);
      break;
    case Kind::WaitSite:
      d.wait_sites.push_back(WaitSite{in.u(ix("fevent")), in.u(ix("wait_event")),
                                      in.u(ix("backtrace_id")), in.u(ix("provenance"))});
      break;
    case Kind::InstCreate:
    case Kind::InstUsage:
      add_old_instance(h.kind, in);
      break;
    case Kind::Instance:
      add_instance(in);
      break;
    case Kind::CopyInst:
      d.inst_refs.push_back(InstRef{in.u(ix("fevent")), in.u(ix("src")), in.u(ix("dst")),
                                    in.u(ix("src_inst")), in.u(ix("dst_inst")),
                                    in.u(ix("indirect")) != 0});
      break;
    case Kind::FillInst:
      d.inst_refs.push_back(
          InstRef{in.u(ix("fevent")), 0, in.u(ix("dst")), 0, in.u(ix("dst_inst")), false});
      break;
    case Kind::ChannelItem:
      add_channel_item(static_cast<ChannelItem::Type>(h.sub), in);
      break;
    case Kind::Event:
      add_event(static_cast<EventNode::Type>(h.sub), in);
      break;
  }
}

}  // namespace legato::legion
