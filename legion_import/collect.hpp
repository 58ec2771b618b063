// Record stream -> LogData: each record kind is recognised by its name and
// its fields are looked up by name in the file's own layout, with a default
// for every field a version does not have.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/pages_ahead.hpp"
#include "legion_import/log_data.hpp"
#include "legion_import/log_reader.hpp"

namespace legato::legion {

class Collector {
 public:
  explicit Collector(const Header& header);
  ~Collector();
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;
  // Before the first add(), when the size of the records is known
  // (LogReader::size_hint): reserves each table for the most records of its
  // kinds that many bytes can hold, as address space only (pages are
  // touched as records arrive), so tables never grow by copying. Where that
  // is over `budget` bytes (0: a quarter of the machine's memory; a big
  // file), each table is reserved instead once kSample records are in, for
  // twice what the file would give it at their rate (at most the most it
  // can hold). Skipped where that too is over the budget, or the system
  // will not reserve it.
  void expect(uint64_t bytes, uint64_t budget = 0);
  static constexpr uint64_t kSample = uint64_t{1} << 16;
  void add(const Record& r);
  // Where each of its tables ends and how much room it has (for a
  // base::PagesAhead while records are added), into `out`.
  void table_ends(std::vector<base::PagesAhead::Table>& out);
  // After the last add(): the tables, with the records per kind counted.
  LogData& data();

 private:
  enum class Kind : uint8_t;
  // Field indices of one layout, -1 where it has no such field.
  struct Fields;
  struct Handler;
  // One record's fields by name, through its layout's Fields.
  struct In;
  // Sets h's kind (and sub) for records of that name; leaves it Unknown
  // for a name this collector does not know.
  static void recognise(std::string_view name, Handler& h);
  // What the header's layouts say of the Legion that wrote them: how it
  // numbers memory kinds, whether its operations name their parents.
  void read_layout_versions(const Header& header);
  // add()'s work for each kind of record, each into its part of data_,
  // defined in collect.cpp. Those for the kinds a log holds many of are
  // always inlined: add() is the importer's per-record hot path.
  //
  // MachineDesc, ZeroTime, CalibrationErr, MaxDimDesc, RuntimeConfig,
  // ProcDesc and MemDesc: the machine, its clock and configuration.
  inline void add_machine(Kind kind, In in);
  // The descriptions that name things: task kinds and variants, meta
  // tasks, messages, mapper and runtime calls, mappers, operation kinds,
  // provenances and backtraces.
  inline void add_name(Kind kind, In in);
  // OperationInstance: an operation, its parent and provenance.
  [[gnu::always_inline]] inline void add_operation(In in);
  // A task, meta task, message or call on a processor (TaskInfo ...
  // ProfTaskInfo).
  [[gnu::always_inline]] inline void add_proc_item(Source source, In in);
  // TaskWaitInfo or MetaWaitInfo: a wait of a task or meta task.
  [[gnu::always_inline]] inline void add_wait(bool meta, In in);
  // InstCreateInfo or InstUsageInfo: part of an instance (before 2022-10).
  inline void add_old_instance(Kind kind, In in);
  // InstTimelineInfo: an instance, its memory, size and lifetime.
  [[gnu::always_inline]] inline void add_instance(In in);
  // CopyInfo, FillInfo or PartitionInfo: an item on a channel.
  [[gnu::always_inline]] inline void add_channel_item(ChannelItem::Type type, In in);
  // A node of the event graph (EventMergerInfo ... ExternalEventInfo).
  [[gnu::always_inline]] inline void add_event(EventNode::Type type, In in);
  // f(table, fills) for every table, fills(handler) saying whether records
  // of that handler's layout add to it.
  template <class F>
  void each_table(F&& f);
  // Reserves each table (in each_table's order) for that many elements;
  // false where they would take over budget_ bytes.
  bool reserve(const std::vector<size_t>& counts);
  void reserve_from_sample(uint64_t offset);  // at the record at that offset
  // An id for a provenance an OperationInstance gives as text (Legion of
  // 2023), its text kept in LogData::provenances.
  uint64_t provenance_id(const std::string& text);
  std::unordered_map<std::string, uint64_t> inline_provenances_;
  std::vector<Handler> handlers_;  // per layout (index into header.layouts)
  std::vector<uint64_t> counts_;   // records per layout
  uint64_t added_ = 0;
  uint64_t sample_bytes_ = 0;  // expect()'s bytes, when the tables wait for kSample records
  double budget_ = 0;
  std::vector<size_t> most_;  // per table: the most elements expect()'s bytes can give it
  const Header& header_;
  LogData data_;
};

}  // namespace legato::legion
