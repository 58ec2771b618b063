#include "trace_format/record_json.hpp"

namespace legato::trace {
nlohmann::json unknown_row_to_json(const UnknownSection& s, uint64_t row) {
  nlohmann::json cols = nlohmann::json::array();
  for (const auto& c : s.columns) {
    if (c.codec.codec == Codec::Bytes) {
      cols.push_back(c.texts[row]);
    } else {
      cols.push_back(c.values[row]);
    }
  }
  return {{"kind", s.kind}, {"columns", cols}};
}

}  // namespace legato::trace
