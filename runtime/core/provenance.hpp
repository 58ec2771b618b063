// Where an API call came from: the user's "file:line", made once per call
// site and kept for the life of the process, with its interned string id.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace legato::rt {

struct Provenance {
  std::string text;
  uint32_t string_id;
};
const Provenance& provenance_of(const std::source_location& where);
// "file:line"
std::string where_text(const std::source_location& where);

}  // namespace legato::rt
