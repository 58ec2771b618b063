// What the model's counting needs of a run of item records (one frame's, or
// a slice of a file's tables) before it stages them: the resources each
// kind's records name and how many, the string ids they name, and the sizes
// past 4 PiB. The Legato reader takes it from each frame as the frame is
// read, and the frame's records then stay in its stored bytes until they
// are staged; the model takes it from a file's tables otherwise.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "trace_format/decoder.hpp"
#include "trace_format/records.hpp"

namespace legato::analysis {

// The item record kinds, in the order the model stages them.
enum class ItemRecords : uint8_t { Task, MetaTask, DepPart, Copy, Instance, Kernel, UserRange };
inline constexpr size_t kItemRecordKinds = 7;
inline constexpr trace::KindSet kItemRecordSet =
    trace::kinds_of<trace::TaskRecord, trace::MetaTaskRecord, trace::DepPartRecord,
                    trace::CopyRecord, trace::InstanceRecord, trace::GpuKernelRecord,
                    trace::UserRangeRecord>();

// A size no real copy or instance has; only a damaged record holds it.
inline constexpr uint64_t kLargestSize = uint64_t{1} << 52;

struct ItemTally {
  struct Use {
    ItemRecords kind;
    uint32_t resource;
    uint32_t count;
  };
  // By kind (in ItemRecords order), then in the order first named.
  std::vector<Use> uses;
  std::array<uint32_t, kItemRecordKinds> records{};  // per kind
  // The string ids the records name (meta-task and partition kinds, names,
  // provenances; not task kinds), each once, in the order first named.
  std::vector<uint32_t> strings;
  // Sizes past kLargestSize: how many, and the first one's record.
  struct Huge {
    uint64_t count = 0, bytes = 0;
    trace::Uid uid = 0;
    bool fill = false;
  };
  Huge copies, instances;
  // The earliest start and latest stop of the items, on the file's clock
  // (t_min > t_max: no item).
  trace::Time t_min = INT64_MAX, t_max = INT64_MIN;
};

namespace detail {

struct Tallier {
  ItemTally& t;
  std::unordered_set<uint32_t> named;
  uint32_t last_name = 0;

  void span(trace::Time start, trace::Time stop) {
    t.t_min = std::min(t.t_min, start);
    t.t_max = std::max(t.t_max, std::max(start, stop));
  }
  void use(ItemRecords kind, uint32_t resource) {
    if (!t.uses.empty() && t.uses.back().kind == kind && t.uses.back().resource == resource) {
      ++t.uses.back().count;
      return;
    }
    // Records come in runs of one resource; a kind names a few.
    for (size_t k = t.uses.size(); k-- > 0 && t.uses[k].kind == kind;) {
      if (t.uses[k].resource == resource) {
        ++t.uses[k].count;
        return;
      }
    }
    t.uses.push_back(ItemTally::Use{kind, resource, 1});
  }
  void name(uint32_t id) {
    if (id == 0 || id == last_name) return;
    last_name = id;
    if (named.insert(id).second) t.strings.push_back(id);
  }
  static void huge(ItemTally::Huge& h, uint64_t bytes, trace::Uid uid, bool fill) {
    if (bytes <= kLargestSize) return;
    if (h.count++ == 0) h = ItemTally::Huge{1, bytes, uid, fill};
  }
};

}  // namespace detail

// The tally of `records`, whose get<R>() gives each kind's records (a
// RecordBatch, or slices of one).
template <class Records>
ItemTally tally_items(const Records& records) {
  ItemTally t;
  detail::Tallier a{t, {}, 0};
  const auto each = [&](ItemRecords kind, const auto& table, auto&& f) {
    t.records[static_cast<size_t>(kind)] = static_cast<uint32_t>(table.size());
    for (const auto& x : table) f(x);
  };
  each(ItemRecords::Task, records.template get<trace::TaskRecord>(),
       [&](const trace::TaskRecord& x) {
         a.use(ItemRecords::Task, x.processor);
         a.span(x.start, x.stop);
       });
  each(ItemRecords::MetaTask, records.template get<trace::MetaTaskRecord>(),
       [&](const trace::MetaTaskRecord& x) {
         a.use(ItemRecords::MetaTask, x.processor);
         a.span(x.start, x.stop);
         a.name(x.meta_kind);
       });
  each(ItemRecords::DepPart, records.template get<trace::DepPartRecord>(),
       [&](const trace::DepPartRecord& x) {
         a.use(ItemRecords::DepPart, x.processor);
         a.span(x.start, x.stop);
         a.name(x.part_kind);
       });
  each(ItemRecords::Copy, records.template get<trace::CopyRecord>(),
       [&](const trace::CopyRecord& x) {
         a.use(ItemRecords::Copy, x.channel);
         a.span(x.start, x.stop);
         a.huge(t.copies, x.bytes, x.uid, x.copy_kind == trace::CopyKind::Fill);
       });
  each(ItemRecords::Instance, records.template get<trace::InstanceRecord>(),
       [&](const trace::InstanceRecord& x) {
         a.use(ItemRecords::Instance, x.memory);
         a.span(x.create, x.destroy);
         a.name(x.name);
         a.name(x.provenance);
         a.huge(t.instances, x.bytes, x.uid, false);
       });
  each(ItemRecords::Kernel, records.template get<trace::GpuKernelRecord>(),
       [&](const trace::GpuKernelRecord& x) {
         a.use(ItemRecords::Kernel, x.processor);
         a.span(x.start, x.stop);
         a.name(x.name);
       });
  each(ItemRecords::UserRange, records.template get<trace::UserRangeRecord>(),
       [&](const trace::UserRangeRecord& x) {
         a.use(ItemRecords::UserRange, x.processor);
         a.span(x.start, x.stop);
         a.name(x.name);
         a.name(x.provenance);
       });
  return t;
}

}  // namespace legato::analysis
