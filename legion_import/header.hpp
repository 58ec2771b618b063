// The header of a Legion Prof binary log ("FileType: BinaryLegionProf"): one
// line per record kind giving its id and its fields in order. Everything the
// decoder knows about a file's layout comes from here, never from a table of
// Legion versions (LEGION_FORMAT.md §2).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace legato::legion {

// A file that cannot be imported at all (not a Legion log, a text-format
// log, a header that does not parse); what() names the file and the line.
class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a field's bytes are read. Fixed-size kinds take the header's size;
// the variable ones are special-cased by the decoder.
enum class FieldType : uint8_t {
  Bool,    // 1 byte, != 0
  U32,     // unsigned 32-bit (ids, enums, counts)
  I32,     // signed 32-bit (ProcKind, MemKind, maxdim, ...)
  U64,     // unsigned 64-bit (ids, events, sizes, timestamps)
  I64,     // signed 64-bit (zero_time, calibration_err)
  Opaque,  // a type this importer does not know, with a fixed size: skipped
  String,  // NUL-terminated
  Point,   // max_dim x i64 (MaxDimDesc)
  Array,   // 2 x max_dim x i64
  Uuid,    // uuid_size raw bytes (the preceding uuid_size field)
};

// How a fixed-size field is read: the common numbers by one load each,
// the rest (odd sizes, opaque fields) through its FieldLayout.
enum FieldStep : uint8_t { kStepOther, kStep64, kStepU32, kStepI32, kStepBool };

struct FieldLayout {
  std::string name;
  std::string type;  // as written, e.g. "unsigned long long"
  FieldType kind = FieldType::U64;
  uint32_t size = 0;  // bytes, for fixed-size kinds
};

struct RecordLayout {
  uint32_t id = 0;
  std::string name;
  std::vector<FieldLayout> fields;
  // The bytes of a record after its id when every field has a fixed size
  // (numbers, bools, opaque); 0 when one is a string, point, array or uuid.
  uint32_t fixed_bytes = 0;
  // Of a layout with fixed_bytes: how the decoder reads each field, one
  // FieldStep per field, so that its loop reads a byte per field instead of
  // the field's layout.
  std::vector<uint8_t> steps;
  // Where Legion writes other bytes than it declares (LEGION_FORMAT.md §3):
  // the last field is written only when field `last_if` holds `last_if_value`
  // (kAlways: always written; kNever: never). fixed_bytes then counts the
  // record without it.
  static constexpr int kAlways = -1, kNever = -2;
  int last_if = kAlways;
  uint64_t last_if_value = 0;
  // Whether a record whose fields before the last hold `values` has its last.
  bool has_last(const uint64_t* values) const {
    return last_if == kAlways ||
           (last_if >= 0 && values[static_cast<size_t>(last_if)] == last_if_value);
  }
  // Why records of this layout cannot be decoded with certainty (its bytes
  // are known to differ from its declaration in a way not known for this
  // shape); empty when they can. The decoder stops at the first one.
  std::string unreadable;
  // The index of a field by name, or -1.
  int field(std::string_view name) const;
};

struct Header {
  std::string first_line;  // "FileType: BinaryLegionProf v: 1.0", or "... v: 1011"
  // The profiling format the first line names (1009 on), 0 where it reads
  // "v: 1.0" (every log before; MachineDesc.version may name it then).
  uint32_t format = 0;
  // What Legion wrote on the second line from 1009 on: its `git describe`
  // ("legion-25.12.0-57-g7b770cff5") or "unknown"; empty before.
  std::string legion_version;
  std::vector<RecordLayout> layouts;
  uint64_t size = 0;  // bytes up to and including the empty line: the first record's offset
  // The layout of a record id, or nullptr.
  const RecordLayout* find(uint32_t id) const;
  const RecordLayout* find(std::string_view name) const;

 private:
  friend Header parse_header_lines(const std::vector<std::string>&, const std::string&);
  std::vector<int32_t> by_id_;  // index into layouts, -1 for none (ids < 65536)
};

inline constexpr std::string_view kBinaryFirstLine = "FileType: BinaryLegionProf";
// The first format whose first line names it (and whose second line is
// Legion's version), and the newest format this importer knows.
inline constexpr uint32_t kFirstNumberedFormat = 1009;
inline constexpr uint32_t kNewestKnownFormat = 1012;

// Parses the header lines (without their '\n', the empty line excluded).
// Throws ImportError naming `file` and the 1-based line on any line that
// does not fit the grammar of LEGION_FORMAT.md §2.
Header parse_header_lines(const std::vector<std::string>& lines, const std::string& file);

}  // namespace legato::legion
