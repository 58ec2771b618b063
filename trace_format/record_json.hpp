// Records as JSON objects, one per record: what `legate_prof dump` prints.
// Enumerations print as their names when known, as numbers otherwise.
#pragma once

#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "trace_format/record_batch.hpp"

namespace legato::trace {

// String ids seen so far, for printing a string field's text beside its id.
using StringTable = std::unordered_map<uint32_t, std::string>;

namespace detail {
// An enumerator as JSON: its name when known, its number otherwise.
template <class E>
nlohmann::json enum_json(E v) {
  const std::string_view n = to_string(v);
  if (n == "unknown") return static_cast<uint64_t>(v);
  return std::string(n);
}
}  // namespace detail

// {"kind":"task","uid":...}. With strings, a string field `name` also gets
// "name_text": its text, or undefined_string_text() for an id never defined.
template <class R>
nlohmann::json record_to_json(const R& r, const StringTable* strings = nullptr) {
  nlohmann::json j = nlohmann::json::object();
  j["kind"] = R::kName;
  for_each_field<R>([&](const auto& f, auto) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    const std::string key(f.name);
    const M& v = r.*(f.member);
    if constexpr (std::is_enum_v<M>) {
      j[key] = detail::enum_json(v);
    } else {
      j[key] = v;
    }
    if constexpr (std::is_same_v<M, uint32_t>) {
      if (strings != nullptr && f.role == Role::String && v != 0) {
        const auto it = strings->find(v);
        j[key + "_text"] = it != strings->end() ? it->second : undefined_string_text(v);
      }
    }
  });
  return j;
}

// Row `row` of a section of unknown kind: {"kind":N,"columns":[...]}.
nlohmann::json unknown_row_to_json(const UnknownSection& s, uint64_t row);

// Calls f(json) for every record of the batch, kind by kind.
template <class F>
void for_each_record_json(const RecordBatch& batch, const StringTable* strings, F&& f) {
  batch.for_each_kind([&](const auto& records) {
    for (const auto& r : records) f(record_to_json(r, strings));
  });
  for (const auto& s : batch.unknown) {
    for (uint64_t i = 0; i < s.count; ++i) f(unknown_row_to_json(s, i));
  }
}

}  // namespace legato::trace
