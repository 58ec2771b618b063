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

namespace {

// The length of the valid UTF-8 sequence at s[i] (no overlong forms, no
// surrogates, at most U+10FFFF), or 0 when the byte there does not start one.
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2;
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b == 0xe0) lo = 0xa0;
    if (b == 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b == 0xf0) lo = 0x90;
    if (b == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return n;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool is_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = utf8_sequence(bytes, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_bytes(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    if (bytes[i] == '\\') {
      out += "\\\\";
      ++i;
      continue;
    }
    if (const size_t n = utf8_sequence(bytes, i); n > 0) {
      out.append(bytes.substr(i, n));
      i += n;
      continue;
    }
    const auto b = static_cast<unsigned char>(bytes[i++]);
    out += "\\x";
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string unescape_bytes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x' &&
               hex_value(text[i + 2]) >= 0 && hex_value(text[i + 3]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 2]) * 16 + hex_value(text[i + 3]));
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

nlohmann::json escape_strings(const nlohmann::json& value) {
  if (value.is_string()) return escape_bytes(value.get_ref<const std::string&>());
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : value) out.push_back(escape_strings(v));
    return out;
  }
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, v] : value.items()) out[escape_bytes(key)] = escape_strings(v);
    return out;
  }
  return value;
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
