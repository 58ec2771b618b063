// Builds the robustness fixtures from the real logs inside the tests: a log
// decoded into raw fields per record, edited (layouts renamed, fields moved
// or dropped, kinds removed, values changed) and encoded again.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "legion_import/header.hpp"
#include "legion_import/testing/legion_log_writer.hpp"

namespace legato::legion::testing {

struct RawRecord {
  std::string kind;
  std::vector<std::string> names;            // field names, in the file's order
  std::vector<std::vector<uint8_t>> fields;  // each field's bytes as stored
  int find(const std::string& name) const;
  uint64_t get(const std::string& name) const;  // little-endian; 0 if absent
  void set(const std::string& name, uint64_t v);
  void set_text(const std::string& name, const std::string& text);
};

class LogEditor {
 public:
  explicit LogEditor(const std::string& path);
  Header header;  // edit layouts; encode() writes them in this order
  std::vector<RawRecord> records;
  RecordLayout* layout(const std::string& name);
  // Drops a kind from the header and the stream.
  void drop_kind(const std::string& name);
  // A record of a kind in the header with every field zero (strings and
  // uuids empty);
  // set its fields, then append it to records.
  RawRecord blank(const std::string& kind);
  // Drops a field from a layout (its bytes from every record of the kind).
  void drop_field(const std::string& kind, const std::string& field);
  // The same records in a later format's layouts (1009 on: its first line,
  // Legion's version line and Legion's own preamble, fields matched by
  // name, new ones zero), as Legion of that format would have written them.
  void as_format(LogVersion version);
  // Adds a layout ("Name {id:N, field:type:size, ...}") to the header, read
  // as the importer reads it (with the deviations of header.cpp).
  void add_layout(const std::string& line);
  std::vector<uint8_t> encode() const;
};

std::vector<uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const std::vector<uint8_t>& bytes);
// The bytes as one gzip stream.
std::vector<uint8_t> gzip(const std::vector<uint8_t>& bytes);
std::string data_file(const std::string& name);  // tests/legion_import/data/<name>

// The three real logs of data/ (Legate.jl runs, data/README.md), by name:
// the tests of real logs say `using namespace legato::legion::testing;`
// for them and the helpers above.
inline constexpr const char* kA = "legatejl_85d792a6_legate_0.prof";
inline constexpr const char* kB = "legatejl_97c70b58_legate_0.prof";
inline constexpr const char* kC = "legatejl_9d2e0080_legate_0.prof";
inline constexpr std::array<const char*, 3> kRealLogs{kA, kB, kC};

}  // namespace legato::legion::testing
