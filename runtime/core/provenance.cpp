#include "runtime/core/provenance.hpp"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "recorder/recorder.hpp"

namespace legato::rt {

std::string where_text(const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line());
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
  std::lock_guard lock(mu);
  auto& slot = (*table)[Key{where.file_name(), where.line()}];
  if (!slot) {
    const std::string text = where_text(where);
    slot = std::make_unique<Provenance>(Provenance{text, rec::intern(text)});
  }
  return *slot;
}

}  // namespace legato::rt
