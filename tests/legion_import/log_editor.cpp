#include "log_editor.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "legion_import/log_reader.hpp"

namespace legato::legion::testing {

int RawRecord::find(const std::string& name) const {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

uint64_t RawRecord::get(const std::string& name) const {
  const int k = find(name);
  if (k < 0) return 0;
  uint64_t v = 0;
  const auto& b = fields[static_cast<size_t>(k)];
  for (size_t i = 0; i < b.size() && i < 8; ++i) v |= static_cast<uint64_t>(b[i]) << (8 * i);
  return v;
}

void RawRecord::set(const std::string& name, uint64_t v) {
  const int k = find(name);
  if (k < 0) throw std::runtime_error("no field " + name + " in " + kind);
  auto& b = fields[static_cast<size_t>(k)];
  for (size_t i = 0; i < b.size() && i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
}

void RawRecord::set_text(const std::string& name, const std::string& text) {
  const int k = find(name);
  if (k < 0) throw std::runtime_error("no field " + name + " in " + kind);
  auto& b = fields[static_cast<size_t>(k)];
  b.assign(text.begin(), text.end());
  b.push_back(0);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> gzip(const std::vector<uint8_t>& bytes) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2");
  std::vector<uint8_t> out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 64);
  z.next_in = const_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate");
  return out;
}

std::string data_file(const std::string& name) {
  return std::string(LEGATO_SOURCE_DIR) + "/tests/legion_import/data/" + name;
}

LogEditor::LogEditor(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  auto reader = LogReader::open(path);
  header = reader->header();
  uint32_t max_dim = 0;
  Record r;
  while (reader->next(r)) {
    RawRecord raw;
    raw.kind = r.layout->name;
    size_t at = r.offset + 4;
    const RecordLayout& l = *r.layout;
    for (size_t k = 0; k < l.fields.size(); ++k) {
      const FieldLayout& f = l.fields[k];
      // A last field Legion leaves out (1011's redop of a usage that is no
      // reduction) is absent from the record.
      if (k + 1 == l.fields.size() && !l.has_last(r.values.data())) break;
      size_t n = f.size;
      if (f.kind == FieldType::String) n = r.texts[k].size() + 1;
      if (f.kind == FieldType::Point) n = 8 * max_dim;
      if (f.kind == FieldType::Array) n = 16 * max_dim;
      if (f.kind == FieldType::Uuid) n = r.values[k - 1];
      raw.names.push_back(f.name);
      raw.fields.emplace_back(bytes.begin() + static_cast<ptrdiff_t>(at),
                              bytes.begin() + static_cast<ptrdiff_t>(at + n));
      at += n;
    }
    if (raw.kind == "MaxDimDesc") max_dim = static_cast<uint32_t>(raw.get("max_dim"));
    records.push_back(std::move(raw));
  }
  if (!reader->clean_end()) throw std::runtime_error(path + " does not decode cleanly");
}

RecordLayout* LogEditor::layout(const std::string& name) {
  for (auto& l : header.layouts) {
    if (l.name == name) return &l;
  }
  throw std::runtime_error("no layout " + name);
}

RawRecord LogEditor::blank(const std::string& kind) {
  RawRecord r;
  r.kind = kind;
  for (const auto& f : layout(kind)->fields) {
    if (f.kind == FieldType::Point || f.kind == FieldType::Array || f.kind == FieldType::Opaque)
      throw std::runtime_error("blank(): field " + f.name + " has no fixed integer size");
    r.names.push_back(f.name);
    // A string is its NUL; a uuid is empty (its uuid_size field is 0).
    const size_t n = f.kind == FieldType::String ? 1 : f.kind == FieldType::Uuid ? 0 : f.size;
    r.fields.emplace_back(n, 0);
  }
  return r;
}

void LogEditor::drop_kind(const std::string& name) {
  auto& ls = header.layouts;
  ls.erase(
      std::remove_if(ls.begin(), ls.end(), [&](const RecordLayout& l) { return l.name == name; }),
      ls.end());
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const RawRecord& r) { return r.kind == name; }),
                records.end());
}

void LogEditor::drop_field(const std::string& kind, const std::string& field) {
  auto& fs = layout(kind)->fields;
  fs.erase(
      std::remove_if(fs.begin(), fs.end(), [&](const FieldLayout& f) { return f.name == field; }),
      fs.end());
}

namespace {

// The header as lines, the empty line that ends it left out.
std::vector<std::string> header_lines(const Header& header) {
  std::vector<std::string> lines = {header.first_line};
  if (!header.legion_version.empty()) lines.push_back(header.legion_version);
  for (const auto& l : header.layouts) {
    std::string text = l.name + " {id:" + std::to_string(l.id);
    for (const auto& f : l.fields) {
      text += ", " + f.name + ":" + f.type + ":" +
              (f.kind == FieldType::String ? std::string("-1") : std::to_string(f.size));
    }
    lines.push_back(text + "}");
  }
  return lines;
}

}  // namespace

void LogEditor::add_layout(const std::string& line) {
  std::vector<std::string> lines = header_lines(header);
  lines.push_back(line);
  header = parse_header_lines(lines, "add_layout");
}

std::vector<uint8_t> LogEditor::encode() const {
  std::string text;
  for (const std::string& line : header_lines(header)) text += line + "\n";
  text += "\n";
  std::vector<uint8_t> out(text.begin(), text.end());
  for (const auto& r : records) {
    const RecordLayout* l = nullptr;
    for (const auto& x : header.layouts) {
      if (x.name == r.kind) l = &x;
    }
    if (!l) throw std::runtime_error("a " + r.kind + " record has no layout in the header");
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(l->id >> (8 * i)));
    for (size_t n = 0; n < l->fields.size(); ++n) {
      const FieldLayout& f = l->fields[n];
      if (n + 1 == l->fields.size() && l->last_if != RecordLayout::kAlways &&
          (l->last_if == RecordLayout::kNever ||
           r.get(l->fields[static_cast<size_t>(l->last_if)].name) != l->last_if_value))
        break;  // written only where the field before says so (header.cpp)
      const int k = r.find(f.name);
      if (k >= 0) {
        const auto& b = r.fields[static_cast<size_t>(k)];
        out.insert(out.end(), b.begin(), b.end());
      } else {
        out.insert(out.end(), f.kind == FieldType::String ? 1 : f.size, 0);  // a string: its NUL
      }
    }
  }
  return out;
}

void LogEditor::as_format(LogVersion version) {
  std::vector<std::string> lines = {
      "FileType: BinaryLegionProf v: " + std::to_string(format_of(version)), kWriterLegionVersion};
  const auto& layouts = LegionLogWriter::header_lines(version);
  lines.insert(lines.end(), layouts.begin(), layouts.end());
  header = parse_header_lines(lines, "as_format");
  for (RawRecord& r : records) {
    if (header.find(r.kind) == nullptr)
      throw std::runtime_error("format " + lines[0] + " has no " + r.kind);
    // 1011 renamed PhysicalInstanceUsage's index_id and field_id.
    for (std::string& name : r.names) {
      if (r.kind == "PhysicalInstanceUsage" && name == "index_id") name = "index";
      if (r.kind == "PhysicalInstanceUsage" && name == "field_id") name = "field";
    }
    // Numbers whose size changed (fspace_id: 4 bytes in the real logs, 8 in
    // Legion's later preambles) take the new size, little-endian.
    const RecordLayout& l = *header.find(r.kind);
    for (size_t k = 0; k < r.names.size(); ++k) {
      const int f = l.field(r.names[k]);
      if (f < 0) continue;
      const FieldLayout& to = l.fields[static_cast<size_t>(f)];
      const bool number = to.kind == FieldType::U32 || to.kind == FieldType::U64 ||
                          to.kind == FieldType::I32 || to.kind == FieldType::I64;
      if (number) r.fields[k].resize(to.size, 0);
    }
  }
}

}  // namespace legato::legion::testing
