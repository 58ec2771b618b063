#include "trace_format/record_json.hpp"

namespace legato::trace {
namespace detail {
namespace {
template <class E>
nlohmann::json named(E v) {
  const std::string_view n = to_string(v);
  if (n == "unknown") return static_cast<uint64_t>(v);
  return std::string(n);
}
}  // namespace

nlohmann::json enum_json(ProcKind v) {
  return named(v);
}
nlohmann::json enum_json(MemKind v) {
  return named(v);
}
nlohmann::json enum_json(ChannelKind v) {
  return named(v);
}
nlohmann::json enum_json(CopyKind v) {
  return named(v);
}
nlohmann::json enum_json(OpKind v) {
  return named(v);
}
nlohmann::json enum_json(EdgeKind v) {
  return named(v);
}
nlohmann::json enum_json(ErrorKind v) {
  return named(v);
}
}  // namespace detail

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
