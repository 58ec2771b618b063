#include "legion_import/header.hpp"

#include <algorithm>
#include <charconv>

namespace legato::legion {

namespace {

constexpr uint32_t kMaxId = 65535;
constexpr uint32_t kMaxOpaqueSize = 4096;

bool is_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool parse_uint(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Integer types Legion's writers use, and whether they are signed; any of
// them is read with the size the header gives (1, 2, 4 or 8 bytes).
bool integer_type(std::string_view t, bool& is_signed) {
  static constexpr std::string_view kUnsigned[] = {
      "unsigned",      "unsigned int", "uuid_size", "TaskID",      "VariantID",
      "MapperID",      "uint32_t",     "ProcID",    "MemID",       "InstID",
      "UniqueID",      "IDType",       "uint64_t",  "timestamp_t", "unsigned long long",
      "unsigned long", "BacktraceID",  "size_t",    "uint8_t",     "uint16_t"};
  static constexpr std::string_view kSigned[] = {"int",
                                                 "long long",
                                                 "long",
                                                 "ProcKind",
                                                 "MemKind",
                                                 "maxdim",
                                                 "MappingCallKind",
                                                 "RuntimeCallKind",
                                                 "DepPartOpKind",
                                                 "int32_t",
                                                 "int64_t",
                                                 "MessageKind"};
  if (std::find(std::begin(kUnsigned), std::end(kUnsigned), t) != std::end(kUnsigned)) {
    is_signed = false;
    return true;
  }
  if (std::find(std::begin(kSigned), std::end(kSigned), t) != std::end(kSigned)) {
    is_signed = true;
    return true;
  }
  return false;
}

[[noreturn]] void fail(const std::string& file, size_t line, const std::string& text,
                       const std::string& why) {
  std::string shown = text.size() > 120 ? text.substr(0, 120) + "..." : text;
  throw ImportError(file + ":" + std::to_string(line) + ": the Legion Prof log header " + why +
                    " (line: \"" + shown + "\")");
}

FieldLayout parse_field(std::string_view f, const std::string& file, size_t line,
                        const std::string& text) {
  // FNAME ":" TYPE ":" SIZE, TYPE may hold spaces: split on the first and last ':'.
  const size_t first = f.find(':'), last = f.rfind(':');
  if (first == std::string_view::npos || first == last)
    fail(file, line, text, "has a field without \"name:type:size\": \"" + std::string(f) + "\"");
  FieldLayout out;
  out.name = std::string(f.substr(0, first));
  out.type = std::string(f.substr(first + 1, last - first - 1));
  const std::string_view size = f.substr(last + 1);
  if (!is_name(out.name) || out.type.empty())
    fail(file, line, text, "has a malformed field \"" + std::string(f) + "\"");
  uint64_t n = 0;
  const bool variable = size == "-1";
  if (!variable && !parse_uint(size, n))
    fail(file, line, text, "has a field size that is not a number: \"" + std::string(f) + "\"");
  bool is_signed = false;
  if (out.type == "string") {
    if (!variable) fail(file, line, text, "gives string field " + out.name + " a fixed size");
    out.kind = FieldType::String;
  } else if (variable) {
    fail(file, line, text,
         "gives field " + out.name + " of type " + out.type + " a variable size (-1)");
  } else if (out.type == "point") {
    out.kind = FieldType::Point;
  } else if (out.type == "array") {
    out.kind = FieldType::Array;
  } else if (out.type == "uuid") {
    out.kind = FieldType::Uuid;
  } else if (out.type == "bool") {
    if (n != 1) fail(file, line, text, "gives bool field " + out.name + " a size other than 1");
    out.kind = FieldType::Bool;
    out.size = 1;
  } else if (integer_type(out.type, is_signed)) {
    if (n != 1 && n != 2 && n != 4 && n != 8)
      fail(file, line, text, "gives integer field " + out.name + " an impossible size");
    out.size = static_cast<uint32_t>(n);
    out.kind = is_signed ? (n == 8 ? FieldType::I64 : FieldType::I32)
                         : (n == 8 ? FieldType::U64 : FieldType::U32);
  } else {
    if (n > kMaxOpaqueSize) fail(file, line, text, "gives field " + out.name + " an absurd size");
    out.kind = FieldType::Opaque;  // unknown but fixed-size: skipped by its size
    out.size = static_cast<uint32_t>(n);
  }
  if (out.kind == FieldType::Point || out.kind == FieldType::Array || out.kind == FieldType::Uuid)
    out.size = static_cast<uint32_t>(std::min<uint64_t>(n, kMaxOpaqueSize));
  return out;
}

// The records whose bytes Legion writes otherwise than its header declares
// them (LEGION_FORMAT.md §3), each read as written where its layout has the
// known shape:
// - From format 1011, PhysicalInstanceUsage declares `mode` and then `redop`
//   as its last fields, and writes `redop` only when `mode` is
//   LEGION_REDUCE (4): most records are 4 bytes shorter than declared.
//   Another shape naming `redop` in a log of 1011 on is one whose bytes are
//   not known, and is not guessed at.
// - SpawnInfo (PRealm's, since 2025-05) declares `fevent, spawn, create` and
//   never writes `create`.
void apply_known_deviations(Header& h) {
  for (RecordLayout& l : h.layouts) {
    const int last = static_cast<int>(l.fields.size()) - 1;
    const auto named = [&](int k, std::string_view name) {
      return k >= 0 && k <= last && l.fields[static_cast<size_t>(k)].name == name &&
             l.fields[static_cast<size_t>(k)].kind != FieldType::String;
    };
    if (l.name == "SpawnInfo" && last == 2 && named(0, "fevent") && named(1, "spawn") &&
        named(2, "create") && l.fixed_bytes > 0) {
      l.last_if = RecordLayout::kNever;
      l.fixed_bytes -= l.fields.back().size;
    } else if (l.name == "PhysicalInstanceUsage" && h.format >= 1011 && l.field("redop") >= 0) {
      const bool known_shape = named(last, "redop") && named(last - 1, "mode") &&
                               l.fields.back().kind == FieldType::U32 &&
                               l.fields[static_cast<size_t>(last - 1)].kind == FieldType::U32;
      if (!known_shape || l.fixed_bytes == 0) {
        l.unreadable =
            "Legion writes PhysicalInstanceUsage's redop only for reductions, and this log's "
            "layout of the record is not one whose bytes are known (format " +
            std::to_string(h.format) + ")";
        continue;
      }
      l.last_if = last - 1;
      l.last_if_value = 4;  // LEGION_REDUCE
      l.fixed_bytes -= l.fields.back().size;
    }
  }
}

}  // namespace

int RecordLayout::field(std::string_view n) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == n) return static_cast<int>(i);
  }
  return -1;
}

const RecordLayout* Header::find(uint32_t id) const {
  if (id >= by_id_.size() || by_id_[id] < 0) return nullptr;
  return &layouts[static_cast<size_t>(by_id_[id])];
}

const RecordLayout* Header::find(std::string_view name) const {
  for (const auto& l : layouts) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

Header parse_header_lines(const std::vector<std::string>& lines, const std::string& file) {
  Header h;
  if (lines.empty() || lines[0].rfind(kBinaryFirstLine, 0) != 0)
    throw ImportError(file + ":1: not a BinaryLegionProf log");
  h.first_line = lines[0];
  h.size = lines[0].size() + 1;
  size_t first_layout = 1;
  // "v: 1.0" until format 1008; from 1009 the format number, and a second
  // line holding Legion's version (LEGION_FORMAT.md §2).
  const std::string_view v = std::string_view(lines[0]).substr(kBinaryFirstLine.size());
  uint64_t number = 0;
  if (v.rfind(" v: ", 0) != 0)
    fail(file, 1, lines[0], "does not start \"FileType: BinaryLegionProf v: \"");
  if (const std::string_view named = v.substr(4); parse_uint(named, number)) {
    if (number < 1000 || number > UINT32_MAX)
      fail(file, 1, lines[0], "names an impossible format number " + std::string(named));
    h.format = static_cast<uint32_t>(number);
    // A line of the form of a layout is a layout: a writer that named its
    // format but left Legion's version out.
    if (lines.size() > 1 && lines[1].find(" {id:") == std::string::npos) {
      h.legion_version = lines[1];
      h.size += lines[1].size() + 1;
      first_layout = 2;
    }
  } else if (named != "1.0") {
    fail(file, 1, lines[0],
         "names version \"" + std::string(named) +
             "\", which is neither 1.0 (formats before 1009) nor a format number");
  }
  for (size_t i = first_layout; i < lines.size(); ++i) {
    const std::string& text = lines[i];
    const size_t line = i + 1;
    h.size += text.size() + 1;
    const size_t open = text.find(" {id:");
    if (open == std::string::npos || text.back() != '}')
      fail(file, line, text, "has a line that is not \"Name {id:N, field:type:size, ...}\"");
    RecordLayout l;
    l.name = text.substr(0, open);
    if (!is_name(l.name)) fail(file, line, text, "has a malformed record name");
    const std::string_view body = std::string_view(text).substr(
        open + 5, text.size() - open - 6);  // after "{id:", before '}'
    size_t comma = body.find(", ");
    uint64_t id = 0;
    if (!parse_uint(body.substr(0, comma), id))
      fail(file, line, text, "has a record id that is not a number");
    if (id > kMaxId) fail(file, line, text, "has an absurd record id " + std::to_string(id));
    l.id = static_cast<uint32_t>(id);
    while (comma != std::string_view::npos) {
      const size_t from = comma + 2;
      comma = body.find(", ", from);
      const std::string_view f = body.substr(
          from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
      l.fields.push_back(parse_field(f, file, line, text));
      if (l.fields.back().kind == FieldType::Uuid &&
          (l.fields.size() < 2 || l.fields[l.fields.size() - 2].type != "uuid_size"))
        fail(file, line, text, "has a uuid field not preceded by its uuid_size field");
      for (size_t k = 0; k + 1 < l.fields.size(); ++k) {
        if (l.fields[k].name == l.fields.back().name)
          fail(file, line, text, "names field " + l.fields.back().name + " twice");
      }
    }
    uint64_t fixed = 0;
    for (const FieldLayout& f : l.fields) {
      const bool variable = f.kind == FieldType::String || f.kind == FieldType::Point ||
                            f.kind == FieldType::Array || f.kind == FieldType::Uuid;
      fixed = variable || fixed == UINT64_MAX ? UINT64_MAX : fixed + f.size;
    }
    l.fixed_bytes = fixed == UINT64_MAX || fixed > UINT32_MAX ? 0 : static_cast<uint32_t>(fixed);
    if (l.fixed_bytes > 0) {
      for (const FieldLayout& f : l.fields) {
        const bool i64 = f.kind == FieldType::U64 || f.kind == FieldType::I64;
        l.steps.push_back(i64 && f.size == 8                         ? kStep64
                          : f.kind == FieldType::U32 && f.size == 4  ? kStepU32
                          : f.kind == FieldType::I32 && f.size == 4  ? kStepI32
                          : f.kind == FieldType::Bool && f.size == 1 ? kStepBool
                                                                     : kStepOther);
      }
    }
    if (l.id >= h.by_id_.size()) h.by_id_.resize(l.id + 1, -1);
    if (h.by_id_[l.id] >= 0) fail(file, line, text, "gives two kinds the id " + std::to_string(id));
    if (h.find(l.name) != nullptr) fail(file, line, text, "declares " + l.name + " twice");
    h.by_id_[l.id] = static_cast<int32_t>(h.layouts.size());
    h.layouts.push_back(std::move(l));
  }
  apply_known_deviations(h);
  return h;
}

}  // namespace legato::legion
