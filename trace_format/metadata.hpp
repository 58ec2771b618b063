// The standard keys of a trace's metadata (FORMAT.md, "Metadata"): what every
// writer puts there and how tools read it back without trusting it.
#pragma once

#include <cstdint>
#include <string>
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

}  // namespace legato::trace
