// Tiny JSON recorder for driver.cc: collects, per record written by Legion's
// serializer, the values the driver put in, keyed by the field names of the
// record's header line, and writes them as
//   {"format": N, "records": [{"kind": K, "fields": {...}}, ...]}
// Integers of 2^53 or more (in magnitude) are written as decimal strings.
#ifndef LEGION_SERIALIZER_CHECK_JSON_OUT_H
#define LEGION_SERIALIZER_CHECK_JSON_OUT_H

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

class JsonOut {
 public:
  // Starts the next record (records are kept in the order they are begun).
  void begin(const std::string& kind) { records.push_back({kind, {}}); }
  void u(const char* name, unsigned long long v) {
    add(name, v < (1ULL << 53) ? std::to_string(v) : quote(std::to_string(v)));
  }
  void s(const char* name, long long v) {
    bool small = v > -(1LL << 53) && v < (1LL << 53);
    add(name, small ? std::to_string(v) : quote(std::to_string(v)));
  }
  void b(const char* name, bool v) { add(name, v ? "true" : "false"); }
  void str(const char* name, const std::string& v) { add(name, quote(v)); }
  void null(const char* name) { add(name, "null"); }
  void hex(const char* name, const void* data, size_t bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string h;
    for (size_t i = 0; i < bytes; i++) {
      unsigned char c = static_cast<const unsigned char*>(data)[i];
      h += digits[c >> 4];
      h += digits[c & 15];
    }
    add(name, quote(h));
  }

  bool write(const std::string& path, unsigned format) const {
    FILE* f = fopen(path.c_str(), "w");
    if (!f) return false;
    fprintf(f, "{\"format\": %u, \"records\": [", format);
    for (size_t r = 0; r < records.size(); r++) {
      fprintf(f, "%s\n  {\"kind\": %s, \"fields\": {", r ? "," : "",
              quote(records[r].first).c_str());
      const auto& fields = records[r].second;
      for (size_t i = 0; i < fields.size(); i++)
        fprintf(f, "%s%s: %s", i ? ", " : "", quote(fields[i].first).c_str(),
                fields[i].second.c_str());
      fprintf(f, "}}");
    }
    fprintf(f, "\n]}\n");
    return fclose(f) == 0;
  }

 private:
  void add(const char* name, const std::string& json_value) {
    records.back().second.emplace_back(name, json_value);
  }
  static std::string quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  }

  typedef std::vector<std::pair<std::string, std::string>> Fields;
  std::vector<std::pair<std::string, Fields>> records;
};

#endif
