// A streaming decoder of Legion Prof binary logs, plain or gzip (told apart
// by content, never by name). It reads the file's own header, then hands out
// one record at a time through a bounded buffer: the file is never inflated
// or held whole. A file cut anywhere ends at its last complete record, and
// an undeclared record id or an absurd size stops decoding there; each is a
// problem naming the byte offset (LEGION_FORMAT.md §1, §9).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "legion_import/header.hpp"
#include "legion_import/log_input.hpp"

namespace legato::legion {

// One decoded record: a value per field of its layout, in header order.
struct Record {
  const RecordLayout* layout = nullptr;
  uint64_t offset = 0;  // byte offset of its id in the (decompressed) stream
  // Integers and bools; signed fields as two's complement; 0 for strings,
  // points, arrays, uuids and opaque fields.
  std::vector<uint64_t> values;
  // Strings (empty for other fields). A layout without strings leaves them
  // as the record before set them: read them through text().
  std::vector<std::string> texts;
  uint64_t get(int field, uint64_t fallback = 0) const {
    return field < 0 ? fallback : values[static_cast<size_t>(field)];
  }
  const std::string& text(int field) const;
};

// What the first bytes of a file say it is.
enum class FileKind { Other, LegionBinary, LegionText, Gzip };
// From the file's first bytes (`head`; a few KiB tell them all apart).
FileKind sniff_head(std::string_view head);
// Reads at most a few KiB; never throws (an unreadable file is Other).
FileKind sniff_file(const std::string& path);

class LogReader {
 public:
  // Throws ImportError (naming the file and line) when the file is not a
  // binary Legion Prof log or its header does not parse. Inflate::Ahead:
  // a gzip file is inflated on a thread of its own (LogInput).
  static std::unique_ptr<LogReader> open(const std::string& path,
                                         Inflate inflate = Inflate::Inline);
  ~LogReader();
  LogReader(const LogReader&) = delete;
  LogReader& operator=(const LogReader&) = delete;

  const Header& header() const { return header_; }
  bool compressed() const { return in_->gzip(); }
  // About how many bytes of records follow the header: exact for a plain
  // file, from the gzip trailer for a compressed one; 0 when unknown. A
  // hint for reserving tables, never a limit.
  uint64_t size_hint() const { return size_hint_; }
  // The next complete record; false at the end of the file or where the
  // rest cannot be decoded (see problems()).
  bool next(Record& r);
  uint64_t records() const { return records_; }
  uint64_t offset() const;  // bytes consumed of the decompressed stream
  // After next() returned false: whether every byte was decoded.
  bool clean_end() const { return clean_end_; }
  // Why decoding stopped early, one line each, with the byte offset.
  const std::vector<std::string>& problems() const { return problems_; }
  // Whether it stopped on damage (an undeclared id, an absurd size) rather
  // than where the file or the gzip stream ends.
  bool damaged() const { return damaged_; }

  static constexpr size_t kMaxString = size_t{16} << 20;
  static constexpr uint32_t kMaxDim = 64;

 private:
  LogReader(std::string path, std::unique_ptr<LogInput> in);
  void read_header();
  bool read_field(const FieldLayout& f, size_t k, Record& r);
  void stop(const std::string& problem, bool damage = true);
  const char* stream() const { return compressed() ? "the gzip stream" : "the file"; }

  std::string path_;
  std::unique_ptr<LogInput> in_;
  Header header_;
  uint64_t size_hint_ = 0;
  bool done_ = false, clean_end_ = false, damaged_ = false;
  uint64_t records_ = 0;
  uint32_t max_dim_ = 0;  // from MaxDimDesc; 0 until seen
  const RecordLayout* max_dim_layout_ = nullptr;
  std::vector<std::string> problems_;
};

}  // namespace legato::legion
