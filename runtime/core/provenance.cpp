#include "runtime/core/provenance.hpp"

#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "recorder/recorder.hpp"
#include "runtime/legato.hpp"
#include "trace_format/metadata.hpp"

namespace legato::rt {

namespace {

// The open CallSite of this thread: its file (from a pool that lives as long
// as the process, so the pointer identifies the file) and line.
thread_local const char* site_file = nullptr;
thread_local uint32_t site_line = 0;

const char* pooled(std::string_view file) {
  static std::mutex mu;
  static auto* pool = new std::unordered_map<std::string, std::unique_ptr<std::string>>;
  std::lock_guard lock(mu);
  auto& slot = (*pool)[std::string(file)];
  if (!slot) slot = std::make_unique<std::string>(file);
  return slot->c_str();
}

struct Site {
  const char* file;
  uint32_t line;
};
Site site_of(const std::source_location& where) {
  if (site_file != nullptr) return {site_file, site_line};
  return {where.file_name(), where.line()};
}

// A file name as text: as it is when it is UTF-8, else with the bytes that
// are not written \xNN and backslashes \\ (trace_format/FORMAT.md section 3,
// as trace metadata keeps paths), so the name stays exact and every tool
// can show it. Python names a script in a directory that is not UTF-8 so.
std::string file_text(std::string_view file) {
  bool ascii = true;
  for (const char c : file) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) return std::string(file);
  std::string doubled;  // what escaping gives valid UTF-8
  for (const char c : file) {
    doubled += c;
    if (c == '\\') doubled += c;
  }
  std::string escaped = trace::escape_bytes(file);
  return escaped == doubled ? std::string(file) : escaped;
}

}  // namespace

CallSite::CallSite(std::string_view file, uint32_t line)
    : saved_file_(site_file), saved_line_(site_line) {
  site_file = pooled(file);
  site_line = line;
}

CallSite::~CallSite() {
  site_file = saved_file_;
  site_line = saved_line_;
}

std::string call_site_text(const std::source_location& where) {
  return where_text(where);
}

std::string where_text(const std::source_location& where) {
  const Site s = site_of(where);
  return file_text(s.file) + ":" + std::to_string(s.line);
}

const Provenance& provenance_of(const std::source_location& where) {
  struct Key {
    const char* file;
    uint_least32_t line;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return std::hash<const void*>()(k.file) ^ (size_t{k.line} << 1);
    }
  };
  static std::mutex mu;
  static auto* table =
      new std::unordered_map<Key, std::unique_ptr<Provenance>, Hash>;  // for the process' life
  const Site s = site_of(where);
  std::lock_guard lock(mu);
  auto& slot = (*table)[Key{s.file, s.line}];
  if (!slot) {
    const std::string text = where_text(where);
    slot = std::make_unique<Provenance>(Provenance{text, rec::intern(text)});
  }
  return *slot;
}

}  // namespace legato::rt
