// The standard keys of a trace's metadata (FORMAT.md, "Metadata"): what every
// writer puts there and how tools read it back without trusting it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace legato::trace {

// The "run" object: which run and which rank of it a file belongs to.
struct RunInfo {
  std::string id;  // shared by every rank of one run
  int64_t rank = 0;
  int64_t ranks = 1;
  std::string host;
  int64_t pid = 0;
  std::string program;
  std::vector<std::string> args;
  int64_t start_unix_ns = 0;

  nlohmann::json to_json() const;
  // Missing or mistyped keys keep their defaults and are described in problems.
  static RunInfo from_json(const nlohmann::json& metadata, std::vector<std::string>& problems);
};

// A fresh run id: 128 random bits as 32 hex digits.
std::string new_run_id();

// Metadata is UTF-8 JSON, but paths and arguments on Linux are bytes. Every
// metadata string is stored escaped (FORMAT.md, "Metadata"): a byte that is
// not part of a valid UTF-8 sequence becomes \xNN and a backslash becomes
// \\, so any byte string round-trips and the escaped text is what tools show.
std::string escape_bytes(std::string_view bytes);
// The bytes escape_bytes() was given; text that is not its output comes back
// with unknown escapes left as they are.
std::string unescape_bytes(std::string_view text);
// Whether bytes are valid UTF-8 throughout (no overlong forms, no surrogates).
bool is_utf8(std::string_view bytes);
// A copy of value with every string (object keys included) escaped.
nlohmann::json escape_strings(const nlohmann::json& value);

}  // namespace legato::trace
