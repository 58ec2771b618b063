#include "trace_format/metadata.hpp"

#include <cstdio>
#include <random>

namespace legato::trace {
namespace {

template <class T>
void read_key(const nlohmann::json& obj, const char* key, T& out,
              std::vector<std::string>& problems) {
  const auto it = obj.find(key);
  if (it == obj.end()) {
    problems.push_back(std::string("metadata has no run.") + key);
    return;
  }
  bool ok;
  if constexpr (std::is_same_v<T, std::string>) {
    ok = it->is_string();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    ok = it->is_number_integer();
  } else {
    ok = it->is_array() &&
         std::all_of(it->begin(), it->end(), [](const auto& v) { return v.is_string(); });
  }
  if (!ok) {
    problems.push_back(std::string("metadata run.") + key + " has an unexpected type (" +
                       it->type_name() + ")");
    return;
  }
  out = it->template get<T>();
}

}  // namespace

nlohmann::json RunInfo::to_json() const {
  return {{"id", id},   {"rank", rank},       {"ranks", ranks}, {"host", host},
          {"pid", pid}, {"program", program}, {"args", args},   {"start_unix_ns", start_unix_ns}};
}

RunInfo RunInfo::from_json(const nlohmann::json& metadata, std::vector<std::string>& problems) {
  RunInfo r;
  const auto it = metadata.find("run");
  if (it == metadata.end() || !it->is_object()) {
    problems.push_back("metadata has no \"run\" object");
    return r;
  }
  read_key(*it, "id", r.id, problems);
  read_key(*it, "rank", r.rank, problems);
  read_key(*it, "ranks", r.ranks, problems);
  read_key(*it, "host", r.host, problems);
  read_key(*it, "pid", r.pid, problems);
  read_key(*it, "program", r.program, problems);
  read_key(*it, "args", r.args, problems);
  read_key(*it, "start_unix_ns", r.start_unix_ns, problems);
  if (r.ranks < 1 || r.rank < 0 || r.rank >= r.ranks) {
    problems.push_back("metadata run.rank " + std::to_string(r.rank) + " is not within run.ranks " +
                       std::to_string(r.ranks));
  }
  return r;
}

std::string new_run_id() {
  std::random_device rd;
  std::string id;
  char buf[9];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
    id += buf;
  }
  return id;
}

}  // namespace legato::trace
