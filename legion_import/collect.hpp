// Record stream -> LogData: each record kind is recognised by its name and
// its fields are looked up by name in the file's own layout, with a default
// for every field a version does not have.
#pragma once

#include <cstdint>
#include <vector>

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
  // touched as records arrive), so tables never grow by copying. Skipped
  // where that is over a quarter of the machine's memory, or the system
  // will not reserve it.
  void expect(uint64_t bytes);
  void add(const Record& r);
  // After the last add(): the tables, with the records per kind counted.
  LogData& data();

 private:
  enum class Kind : uint8_t;
  // Field indices of one layout, -1 where it has no such field.
  struct Fields;
  struct Handler;
  std::vector<Handler> handlers_;  // per layout (index into header.layouts)
  std::vector<uint64_t> counts_;   // records per layout
  const Header& header_;
  LogData data_;
};

}  // namespace legato::legion
