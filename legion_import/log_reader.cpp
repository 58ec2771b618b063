#include "legion_import/log_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/file_head.hpp"
#include "trace_format/metadata.hpp"

namespace legato::legion {

namespace {

constexpr size_t kMaxHeaderLine = 64 * 1024;
constexpr size_t kMaxHeaderLines = 4096;
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;
constexpr size_t kSniffBytes = 4096;

std::string at_offset(uint64_t offset) {
  return "byte offset " + std::to_string(offset);
}

// Little-endian integers of 8 and 4 bytes.
inline uint64_t le64(const unsigned char* b) {
  uint64_t v = 0;
  std::memcpy(&v, b, 8);
  return std::endian::native == std::endian::big ? __builtin_bswap64(v) : v;
}
inline uint32_t le32(const unsigned char* b) {
  uint32_t v = 0;
  std::memcpy(&v, b, 4);
  return std::endian::native == std::endian::big ? __builtin_bswap32(v) : v;
}

// A number field's value from its little-endian bytes: signed ones as two's
// complement, bools as 0 or 1.
uint64_t number(const FieldLayout& f, const unsigned char* b) {
  uint64_t v = 0;
  if (f.size == 8) {
    v = le64(b);
  } else {
    for (uint32_t i = 0; i < f.size; ++i) v |= static_cast<uint64_t>(b[i]) << (8 * i);
    const bool is_signed = f.kind == FieldType::I32 || f.kind == FieldType::I64;
    if (is_signed && f.size < 8 && (v >> (8 * f.size - 1)) & 1) v |= ~uint64_t{0} << (8 * f.size);
  }
  return f.kind == FieldType::Bool ? v != 0 : v;
}

// The first `n` fields of a layout whose fields all have fixed sizes, from
// the record's bytes after its id (opaque fields read as 0), step by step.
void decode_fixed(const RecordLayout& l, const unsigned char* b, uint64_t* values, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    uint64_t v = 0;
    switch (l.steps[k]) {
      case kStep64:
        v = le64(b);
        b += 8;
        break;
      case kStepU32:
        v = le32(b);
        b += 4;
        break;
      case kStepI32:
        v = static_cast<uint64_t>(int64_t{static_cast<int32_t>(le32(b))});
        b += 4;
        break;
      case kStepBool:
        v = *b++ != 0;
        break;
      default: {
        const FieldLayout& f = l.fields[k];
        v = f.kind == FieldType::Opaque ? 0 : number(f, b);
        b += f.size;
      }
    }
    values[k] = v;
  }
}

}  // namespace

const std::string& Record::text(int field) const {
  static const std::string kEmpty;
  return field < 0 || static_cast<size_t>(field) >= texts.size()
             ? kEmpty
             : texts[static_cast<size_t>(field)];
}

FileKind sniff_head(std::string_view head) {
  if (head.size() >= 2 && head[0] == '\x1f' && head[1] == '\x8b') return FileKind::Gzip;
  if (head.starts_with("LGTOPROF")) return FileKind::Other;  // Legato's own
  if (head.starts_with("FileType:")) return FileKind::LegionBinary;
  if (head.find("{legion_prof}") != std::string::npos) return FileKind::LegionText;
  return FileKind::Other;
}

FileKind sniff_file(const std::string& path) {
  // A regular file only: anything else is Other, refused by whoever opens it.
  return sniff_head(base::file_head(path, kSniffBytes));
}

LogReader::LogReader(std::string path, std::unique_ptr<LogInput> in)
    : path_(std::move(path)), in_(std::move(in)) {}
LogReader::~LogReader() = default;

uint64_t LogReader::offset() const {
  return in_->offset();
}

std::unique_ptr<LogReader> LogReader::open(const std::string& path, Inflate inflate) {
  auto in = std::make_unique<LogInput>(path, inflate);
  const uint64_t bytes = in->size_hint();
  std::unique_ptr<LogReader> r(new LogReader(path, std::move(in)));
  r->read_header();
  r->size_hint_ = bytes > r->header_.size ? bytes - r->header_.size : 0;
  return r;
}

void LogReader::read_header() {
  std::vector<std::string> lines;
  std::string line;
  bool too_long = false;
  for (;;) {
    const size_t number = lines.size() + 1;
    const bool got = in_->read_until('\n', line, kMaxHeaderLine, too_long);
    if (number == 1 && line.rfind(kBinaryFirstLine, 0) != 0) {
      // A text-format log (-lg:serializer ascii): its profiling lines carry
      // "{legion_prof}", usually from the first line on.
      std::string probe = line;
      bool more = got;
      for (size_t n = 1; n <= 64; ++n) {
        if (probe.find("{legion_prof}") != std::string::npos) {
          throw ImportError(path_ + ":" + std::to_string(n) +
                            ": a text-format Legion Prof log (-lg:serializer ascii); only binary "
                            "logs can be read: rerun with the default binary serializer");
        }
        if (!more) break;
        more = in_->read_until('\n', probe, kMaxHeaderLine, too_long);
      }
      if (!in_->error().empty())
        throw ImportError(path_ + ":1: " + stream() + " cannot be read (" + in_->error() + ")");
      std::string shown = line.substr(0, 60);
      for (char& c : shown) {
        if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
      }
      throw ImportError(path_ + ":1: not a BinaryLegionProf log (it starts \"" + shown + "\")");
    }
    if (!got) {
      throw ImportError(path_ + ":" + std::to_string(number) + ": " +
                        (too_long ? "a header line is longer than 64 KiB"
                         : !in_->error().empty()
                             ? "the stream cannot be read (" + in_->error() + ")"
                             : std::string("the file ends inside the header")));
    }
    if (line.empty()) break;
    lines.push_back(line);
    if (lines.size() > kMaxHeaderLines || in_->offset() > kMaxHeaderBytes)
      throw ImportError(path_ + ":" + std::to_string(number) +
                        ": the header has more than 4096 lines or 1 MiB (no empty line ends it)");
  }
  header_ = parse_header_lines(lines, path_);
  // Shown and written as UTF-8 text, as every name is (read_field).
  if (!trace::is_utf8(header_.legion_version))
    header_.legion_version = trace::escape_bytes(header_.legion_version);
  max_dim_layout_ = header_.find("MaxDimDesc");
  header_.size = in_->offset();  // the empty line included: where the records start
}

void LogReader::stop(const std::string& problem, bool damage) {
  problems_.push_back(path_ + ": " + problem);
  damaged_ = damaged_ || damage;
  done_ = true;
}

bool LogReader::read_field(const FieldLayout& f, size_t k, Record& r) {
  r.values[k] = 0;
  r.texts[k].clear();
  switch (f.kind) {
    case FieldType::Bool:
    case FieldType::U32:
    case FieldType::I32:
    case FieldType::U64:
    case FieldType::I64: {
      unsigned char b[8] = {0};
      if (!in_->read(b, f.size)) return false;
      r.values[k] = number(f, b);
      return true;
    }
    case FieldType::Opaque:
      return in_->skip(f.size);
    case FieldType::String: {
      bool too_long = false;
      if (in_->read_until('\0', r.texts[k], kMaxString, too_long)) {
        // Names, hosts and backtraces are shown and written as UTF-8 text:
        // bytes that are not are kept escaped, as Legato's metadata keeps them.
        if (!trace::is_utf8(r.texts[k])) r.texts[k] = trace::escape_bytes(r.texts[k]);
        return true;
      }
      if (too_long)
        stop(at_offset(r.offset) + ": a " + r.layout->name + " record has a string field " +
             f.name + " longer than 16 MiB (a damaged file?); the rest of the file is not read");
      return false;
    }
    case FieldType::Point:
    case FieldType::Array:
      if (max_dim_ == 0) {
        stop(at_offset(r.offset) + ": a " + r.layout->name +
             " record comes before MaxDimDesc, so its size is unknown; the rest of the file is "
             "not read");
        return false;
      }
      return in_->skip(size_t{8} * max_dim_ * (f.kind == FieldType::Array ? 2 : 1));
    case FieldType::Uuid: {
      const uint64_t n = r.values[k - 1];  // the uuid_size field before it (header.cpp checks)
      if (n > 4096) {
        stop(at_offset(r.offset) + ": a " + r.layout->name + " record has an absurd uuid_size " +
             std::to_string(n) + "; the rest of the file is not read");
        return false;
      }
      return in_->skip(n);
    }
  }
  return false;
}

bool LogReader::next(Record& r) {
  if (done_) return false;
  r.offset = in_->offset();
  if (!in_->fill(1)) {
    done_ = true;
    clean_end_ = in_->error().empty();
    if (!clean_end_)
      stop(at_offset(r.offset) + ": " + stream() + " ends early (" + in_->error() +
               "); loaded the " + std::to_string(records_) + " records before it",
           in_->error().find("unexpected end") == std::string::npos);  // else only cut short
    return false;
  }
  unsigned char idb[4];
  const RecordLayout* layout = nullptr;
  bool complete = in_->read(idb, 4);
  if (complete) {
    const uint32_t id = static_cast<uint32_t>(idb[0]) | static_cast<uint32_t>(idb[1]) << 8 |
                        static_cast<uint32_t>(idb[2]) << 16 | static_cast<uint32_t>(idb[3]) << 24;
    layout = header_.find(id);
    if (!layout) {
      stop(at_offset(r.offset) + ": record id " + std::to_string(id) +
           " is not declared in the header, so the rest of the file cannot be decoded; loaded "
           "the " +
           std::to_string(records_) + " records before it");
      return false;
    }
    if (!layout->unreadable.empty()) {
      stop(at_offset(r.offset) + ": " + layout->unreadable +
           ", so the rest of the file cannot be decoded; loaded the " + std::to_string(records_) +
           " records before it");
      return false;
    }
    r.layout = layout;
    const size_t fields = layout->fields.size();
    r.values.resize(fields);
    if (layout->fixed_bytes > 0) {  // no strings: texts are left as they are
      complete = in_->fill(layout->fixed_bytes);
      if (complete && layout->last_if == RecordLayout::kAlways) {
        decode_fixed(*layout, reinterpret_cast<const unsigned char*>(in_->data()), r.values.data(),
                     fields);
        in_->consume(layout->fixed_bytes);
      } else if (complete) {
        // The last field only where another field says it was written.
        decode_fixed(*layout, reinterpret_cast<const unsigned char*>(in_->data()), r.values.data(),
                     fields - 1);
        size_t bytes = layout->fixed_bytes;
        r.values[fields - 1] = 0;
        if (layout->has_last(r.values.data())) {
          const FieldLayout& last = layout->fields.back();
          complete = in_->fill(bytes + last.size);
          if (complete)
            r.values[fields - 1] =
                number(last, reinterpret_cast<const unsigned char*>(in_->data()) + bytes);
          bytes += last.size;
        }
        if (complete) in_->consume(bytes);
      }
    } else {
      r.texts.resize(layout->fields.size());
      for (size_t k = 0; complete && k < layout->fields.size(); ++k)
        complete = read_field(layout->fields[k], k, r);
    }
  }
  if (!complete) {
    if (done_) return false;  // read_field said why
    const std::string what = layout ? "a " + layout->name + " record" : "a record id";
    stop(at_offset(r.offset) + ": the file is cut off inside " + what +
             (in_->error().empty() ? "" : " (" + in_->error() + ")") + "; loaded the " +
             std::to_string(records_) + " complete records before it",
         false);
    return false;
  }
  if (layout == max_dim_layout_) {
    const uint64_t d = r.get(layout->field("max_dim"));
    if (d >= 1 && d <= kMaxDim) {
      max_dim_ = static_cast<uint32_t>(d);
    } else {
      stop(at_offset(r.offset) + ": MaxDimDesc gives an absurd max_dim " + std::to_string(d) +
           "; the rest of the file is not read");
      return false;
    }
  }
  ++records_;
  return true;
}

}  // namespace legato::legion
