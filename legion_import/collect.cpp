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

struct Named {
  std::string_view name;
  uint8_t kind;
  uint8_t sub;
};

}  // namespace

Collector::Collector(const Header& header) : header_(header) {
  using K = Kind;
  const auto k = [](K x) { return static_cast<uint8_t>(x); };
  const auto s = [](auto x) { return static_cast<uint8_t>(x); };
  const Named known[] = {
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
      // Known, and not needed for the timeline: instance shapes and fields,
      // processor-memory affinity, index launches' slices, Realm-only
      // (prealm) records, kinds of older versions.
      {"ProcMDesc", k(K::Ignored), 0},
      {"IndexSpacePointDesc", k(K::Ignored), 0},
      {"IndexSpaceRectDesc", k(K::Ignored), 0},
      {"IndexSpaceEmptyDesc", k(K::Ignored), 0},
      {"FieldDesc", k(K::Ignored), 0},
      {"FieldSpaceDesc", k(K::Ignored), 0},
      {"PartDesc", k(K::Ignored), 0},
      {"IndexSpaceDesc", k(K::Ignored), 0},
      {"IndexSubSpaceDesc", k(K::Ignored), 0},
      {"IndexPartitionDesc", k(K::Ignored), 0},
      {"IndexSpaceSizeDesc", k(K::Ignored), 0},
      {"LogicalRegionDesc", k(K::Ignored), 0},
      {"PhysicalInstRegionDesc", k(K::Ignored), 0},
      {"PhysicalInstLayoutDesc", k(K::Ignored), 0},
      {"PhysicalInstDimOrderDesc", k(K::Ignored), 0},
      {"PhysicalInstanceUsage", k(K::Ignored), 0},
      {"PhysicalInstanceSpaces", k(K::Ignored), 0},
      {"PartitionInstInfo", k(K::Ignored), 0},
      {"SliceOwner", k(K::Ignored), 0},
      {"BacktraceDesc", k(K::Backtrace), 0},
      {"EventWaitInfo", k(K::WaitSite), 0},
      {"LocalLockAcquireInfo", k(K::Ignored), 0},
      {"SpawnInfo", k(K::Ignored), 0},
      {"ProcMemDesc", k(K::Ignored), 0},
  };
  handlers_.resize(header.layouts.size());
  counts_.assign(header.layouts.size(), 0);
  for (size_t i = 0; i < header.layouts.size(); ++i) {
    const RecordLayout& l = header.layouts[i];
    Handler& h = handlers_[i];
    for (const Named& n : known) {
      if (n.name == l.name) {
        h.kind = static_cast<Kind>(n.kind);
        h.sub = n.sub;
      }
    }
    for (size_t f = 0; f < kNumFields; ++f) h.f.at[f] = l.field(kFieldNames[f]);
    if (l.name == "MessageInfo" && l.field("lg_id") < 0 && l.field("kind") >= 0)
      data_.messages_by_kind = true;
  }
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

void Collector::add(const Record& r) {
  const auto layout = static_cast<size_t>(r.layout - header_.layouts.data());
  const Handler& h = handlers_[layout];
  ++counts_[layout];
  if (++added_ == kSample && sample_bytes_ > 0) reserve_from_sample(r.offset);
  const auto& f = h.f.at;
  const auto u = [&](size_t field, uint64_t fallback = 0) { return r.get(f[field], fallback); };
  const auto u32 = [&](size_t field) { return static_cast<uint32_t>(r.get(f[field])); };
  const auto i32 = [&](size_t field) { return static_cast<int32_t>(r.get(f[field])); };
  const auto text = [&](size_t field) { return r.text(f[field]); };
  LogData& d = data_;
  switch (h.kind) {
    case Kind::Ignored:
      break;
    case Kind::Unknown:
      break;
    case Kind::MachineDesc:
      d.has_machine = true;
      d.node = u32(ix("node_id"));
      d.nodes = u32(ix("num_nodes"));
      d.version = u32(ix("version"));
      d.hostname = text(ix("hostname"));
      d.host_id = u(ix("host_id"));
      d.process_id = u32(ix("process_id"));
      break;
    case Kind::ZeroTime:
      d.has_zero_time = true;
      d.zero_time = static_cast<int64_t>(u(ix("zero_time")));
      break;
    case Kind::CalibrationErr:
      d.calibration_err = static_cast<int64_t>(u(ix("calibration_err")));
      break;
    case Kind::MaxDimDesc:
      d.max_dim = u32(ix("max_dim"));
      break;
    case Kind::RuntimeConfig:
      for (size_t i = 0; i < r.layout->fields.size(); ++i)
        d.runtime_config[r.layout->fields[i].name] = r.values[i] != 0;
      break;
    case Kind::ProcDesc:
      d.procs[u(ix("proc_id"))] = i32(ix("kind"));
      break;
    case Kind::MemDesc:
      d.mems[u(ix("mem_id"))] = {i32(ix("kind")), u(ix("capacity"))};
      break;
    case Kind::TaskKind: {
      // Logged first as "unnamed_task_<id>" without overwrite, later with
      // the real name and overwrite (LEGION_FORMAT.md §5).
      const uint32_t id = u32(ix("task_id"));
      const bool overwrite = f[ix("overwrite")] < 0 || u(ix("overwrite")) != 0;
      const auto it = d.task_names.find(id);
      if (it == d.task_names.end() || overwrite) d.task_names[id] = {text(ix("name")), overwrite};
      break;
    }
    case Kind::TaskVariant:
      d.variants[{u32(ix("task_id")), u32(ix("variant_id"))}] = text(ix("name"));
      break;
    case Kind::MetaDesc:
      d.meta_names[u32(ix("kind"))] = {text(ix("name")), u(ix("message")) != 0};
      break;
    case Kind::MessageDesc:
      d.message_names[u32(ix("kind"))] = text(ix("name"));
      break;
    case Kind::MapperCallDesc:
      d.mapper_calls[u32(ix("kind"))] = text(ix("name"));
      break;
    case Kind::RuntimeCallDesc:
      d.runtime_calls[u32(ix("kind"))] = text(ix("name"));
      break;
    case Kind::MapperName:
      d.mapper_names[{u32(ix("mapper_id")), u(ix("mapper_proc"))}] = text(ix("name"));
      break;
    case Kind::OpDesc:
      d.op_kinds[u32(ix("kind"))] = text(ix("name"));
      break;
    case Kind::Provenance:
      d.provenances[u(ix("provenance"))] = text(ix("prov"));
      break;
    case Kind::OperationInstance: {
      // Legion of 2023 writes the provenance text in the record itself;
      // later ones a Provenance record's id.
      const int prov = f[ix("provenance")];
      const bool inline_text =
          prov >= 0 && r.layout->fields[static_cast<size_t>(prov)].kind == FieldType::String;
      d.ops.push_back(
          OpInfo{u(ix("op_id")), u(ix("parent_id"), ~uint64_t{0}),
                 inline_text ? provenance_id(text(ix("provenance"))) : u(ix("provenance")),
                 u32(ix("kind"))});
      break;
    }
    case Kind::MultiTask:
      d.multi_tasks[u(ix("op_id"))] = u32(ix("task_id"));
      break;
    case Kind::ProcItem: {
      ProcItem it;
      it.source = static_cast<Source>(h.sub);
      it.proc = u(ix("proc_id"));
      it.op = u(ix("op_id"));
      it.fevent = u(ix("fevent"));
      it.creator = u(ix("creator"));
      it.critical = u(ix("critical"));
      it.start = u(ix("start"));
      it.stop = u(ix("stop"));
      // Calls and prof tasks have no create/ready: they start when created.
      it.ready = u(ix("ready"), it.start);
      it.create = u(ix("create"), it.ready);
      switch (it.source) {
        case Source::Task:
        case Source::ImplicitTask:
        case Source::GpuTask:
          it.kind = u32(ix("task_id"));
          it.variant = u32(ix("variant_id"));
          if (it.source == Source::GpuTask) {
            it.gpu_start = u(ix("gpu_start"));
            it.gpu_stop = u(ix("gpu_stop"));
          }
          break;
        case Source::Meta:
        case Source::Message:
          // An older MessageInfo names its MessageDesc kind instead.
          it.kind = f[ix("lg_id")] >= 0 ? u32(ix("lg_id")) : u32(ix("kind"));
          it.extra = u(ix("spawn"));  // messages: when the sender sent it
          break;
        case Source::MapperCall:
          it.kind = u32(ix("kind"));
          it.variant = f[ix("mapper_id")] >= 0 ? u32(ix("mapper_id")) : u32(ix("mapper"));
          it.extra = u(ix("mapper_proc"));
          break;
        case Source::RuntimeCall:
          it.kind = u32(ix("kind"));
          break;
        case Source::ApplicationCall:
          it.extra = u(ix("provenance"));
          break;
        case Source::ProfTask:
          break;
      }
      d.items.add(it, d.node);
      break;
    }
    case Kind::TaskWait:
    case Kind::MetaWait: {
      WaitInfo w;
      w.meta = h.kind == Kind::MetaWait;
      w.op = u(ix("op_id"));
      w.kind = w.meta ? u32(ix("lg_id")) : u32(ix("task_id"));
      w.start = u(ix("wait_start"));
      w.ready = u(ix("wait_ready"));
      w.end = u(ix("wait_end"));
      w.event = u(ix("wait_event"));
      d.waits.push_back(w);
      break;
    }
    case Kind::InstCreate:
      d.inst_creates.emplace_back(u(ix("inst_id")), u(ix("create")));
      break;
    case Kind::InstUsage:
      d.inst_usages.push_back(
          InstUsage{u(ix("inst_id")), u(ix("mem_id")), u(ix("size")), u(ix("op_id"))});
      break;
    case Kind::Instance:
      d.instances.push_back(InstInfo{
          u(ix("inst_uid")), u(ix("inst_id")), u(ix("mem_id")), u(ix("size")), u(ix("op_id")),
          u(ix("create")), u(ix("ready"), u(ix("create"))), u(ix("destroy")), u(ix("creator"))});
      break;
    case Kind::ChannelItem: {
      ChannelItem c;
      c.type = static_cast<ChannelItem::Type>(h.sub);
      c.op = u(ix("op_id"));
      c.size = u(ix("size"));
      c.fevent = u(ix("fevent"));
      c.creator = u(ix("creator"));
      c.critical = u(ix("critical"));
      c.start = u(ix("start"));
      c.stop = u(ix("stop"));
      c.ready = u(ix("ready"), c.start);
      c.create = u(ix("create"), c.ready);
      c.part_op = u32(ix("part_op"));
      c.src = u(ix("src"));
      c.dst = u(ix("dst"));
      c.redop = u32(ix("reduction"));  // 1011 on: a reduction copy's operator
      d.channel_items.push_back(c);
      break;
    }
    case Kind::CopyInst:
      d.inst_refs.push_back(InstRef{u(ix("fevent")), u(ix("src")), u(ix("dst")), u(ix("src_inst")),
                                    u(ix("dst_inst")), u(ix("indirect")) != 0});
      break;
    case Kind::FillInst:
      d.inst_refs.push_back(InstRef{u(ix("fevent")), 0, u(ix("dst")), 0, u(ix("dst_inst")), false});
      break;
    case Kind::Backtrace:
      d.backtraces[u(ix("backtrace_id"))] = text(ix("backtrace"));
      break;
    case Kind::WaitSite:
      d.wait_sites.push_back(WaitSite{u(ix("fevent")), u(ix("wait_event")), u(ix("backtrace_id")),
                                      u(ix("provenance"))});
      break;
    case Kind::Event: {
      EventNode e;
      e.type = static_cast<EventNode::Type>(h.sub);
      // ExternalEventInfo names its event `external` and its time `trigger`;
      // MakeValidInfo and FetchMetadataInfo theirs `triggered`.
      e.result = f[ix("result")] >= 0 ? u(ix("result")) : u(ix("external"));
      e.performer = u(ix("fevent"));
      e.performed = f[ix("performed")] >= 0   ? u(ix("performed"))
                    : f[ix("triggered")] >= 0 ? u(ix("triggered"))
                                              : u(ix("trigger"));
      // An arrival whose fevent is the barrier itself is a handshake from
      // outside Legion (since 25.06), not an item's arrival.
      if (e.type == EventNode::Barrier && e.performer == e.result && e.result != 0) {
        e.type = EventNode::Handshake;
        e.performer = 0;
      }
      if (f[ix("pre0")] >= 0) {
        e.pre[0] = u(ix("pre0"));
        e.pre[1] = u(ix("pre1"));
        e.pre[2] = u(ix("pre2"));
        e.pre[3] = u(ix("pre3"));
      } else {
        e.pre[0] = u(ix("precondition"));
      }
      d.events.push_back(e);
      break;
    }
  }
}

}  // namespace legato::legion
