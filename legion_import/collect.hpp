// Record stream -> LogData: each record kind is recognised by its name and
// its fields are looked up by name in the file's own layout, with a default
// for every field a version does not have.
#pragma once

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
