// Legion Prof formats 1008 to 1012 and later: the bytes Legion's own
// serializer writes (data/serializer, one record of every kind per format,
// made by scripts/legion_serializer_check), the writer's layouts against
// them, the real logs rewritten in the later formats, what the new records
// mean, and logs newer than the newest known format.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/details.hpp"
#include "gpu_run_fixture.hpp"
#include "legion_import/import.hpp"
#include "legion_import/log_reader.hpp"
#include "load/load.hpp"
#include "load/readers.hpp"
#include "log_editor.hpp"
#include "trace_format/record_json.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::legion;
using namespace legato::legion::testing;
using trace::testing::TempDir;

namespace {

constexpr LogVersion kLater[] = {LogVersion::V1009, LogVersion::V1010, LogVersion::V1011,
                                 LogVersion::V1012};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The header lines of a log file, its first line included.
std::vector<std::string> header_of(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  const std::string text(bytes.begin(), bytes.end());
  const size_t end = text.find("\n\n");
  REQUIRE(end != std::string::npos);
  std::vector<std::string> lines;
  for (size_t at = 0; at <= end;) {
    const size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return lines;
}

// Everything an import made of a file, as the lines `legate_prof dump`
// prints (metadata left out), and its warnings without the file's name.
std::vector<std::string> imported(const std::string& path) {
  const analysis::RankTrace t = import_log(path);
  // Names by their text: the ids strings get follow the order of hash
  // tables, which the file's size decides.
  trace::StringTable strings;
  for (const auto& [id, text] : t.strings) strings[id] = text;
  std::vector<std::string> out;
  trace::for_each_record_json(t.all, &strings, [&](nlohmann::json j) {
    for (auto it = j.begin(); it != j.end();) {
      it = j.contains(it.key() + "_text") ? j.erase(it) : std::next(it);
    }
    out.push_back(j.dump());
  });
  for (std::string p : t.problems) out.push_back("problem: " + p.substr(p.find(": ") + 2));
  out.push_back(t.readable ? "readable" : "unreadable");
  out.push_back(t.data_lost ? "data lost" : "no data lost");
  return out;
}

// "" when equal, else the first line that differs (a readable failure).
std::string first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "(none)", y = i < b.size() ? b[i] : "(none)";
    if (x != y) return "line " + std::to_string(i) + ": " + x + "\n  vs " + y;
  }
  return "";
}

}  // namespace

TEST_CASE("Legion's own serializer of 1008 to 1012: every record decodes to the values written",
          "[legion][formats]") {
  for (uint32_t format = 1008; format <= 1012; ++format) {
    INFO("format " << format);
    const std::string base = data_file("serializer/legion_" + std::to_string(format));
    const nlohmann::json expected = read_json(base + ".json");
    REQUIRE(expected["format"] == format);
    const auto reader = LogReader::open(base + ".prof");
    CHECK(reader->header().format == (format >= 1009 ? format : 0));
    CHECK(reader->header().legion_version == (format >= 1009 ? "legion-test-version" : ""));
    size_t usages_without_redop = 0;
    Record r;
    for (const auto& rec : expected["records"]) {
      const std::string kind = rec["kind"];
      INFO(kind);
      REQUIRE(reader->next(r));
      REQUIRE(r.layout->name == kind);
      for (const auto& [name, value] : rec["fields"].items()) {
        INFO(name << " = " << value.dump());
        const int k = r.layout->field(name);
        REQUIRE(k >= 0);
        const FieldLayout& f = r.layout->fields[static_cast<size_t>(k)];
        if (value.is_null()) {  // written only for reductions: not written here
          CHECK(kind == "PhysicalInstanceUsage");
          CHECK(r.values[static_cast<size_t>(k)] == 0);
          ++usages_without_redop;
        } else if (f.kind == FieldType::String) {
          CHECK(r.text(k) == value.get<std::string>());
        } else if (f.kind == FieldType::Point || f.kind == FieldType::Array ||
                   f.kind == FieldType::Uuid || f.kind == FieldType::Opaque) {
          continue;                      // skipped by the decoder; their sizes keep it in step
        } else if (value.is_string()) {  // 2^53 and above
          CHECK(r.values[static_cast<size_t>(k)] == std::stoull(value.get<std::string>()));
        } else if (value.is_boolean()) {
          CHECK(r.values[static_cast<size_t>(k)] == (value.get<bool>() ? 1u : 0u));
        } else if (value.is_number_unsigned()) {
          CHECK(r.values[static_cast<size_t>(k)] == value.get<uint64_t>());
        } else {
          CHECK(r.values[static_cast<size_t>(k)] == static_cast<uint64_t>(value.get<int64_t>()));
        }
      }
    }
    CHECK_FALSE(reader->next(r));
    CHECK(reader->clean_end());
    CHECK(reader->problems().empty());
    // 1011 on: two usages that are no reduction, whose redop Legion leaves out.
    CHECK(usages_without_redop == (format >= 1011 ? 2u : 0u));
  }
}

TEST_CASE("the writer's 1009 to 1012 layouts are the preambles Legion's serializer writes",
          "[legion][formats][writer]") {
  for (const LogVersion v : kLater) {
    const uint32_t format = format_of(v);
    INFO("format " << format);
    const std::vector<std::string> legion =
        header_of(data_file("serializer/legion_" + std::to_string(format) + ".prof"));
    REQUIRE(legion.size() > 2);
    CHECK(legion[0] == "FileType: BinaryLegionProf v: " + std::to_string(format));
    CHECK(std::vector<std::string>(legion.begin() + 2, legion.end()) ==
          LegionLogWriter::header_lines(v));
    TempDir dir;
    const std::string path = dir.file("w.prof");
    LegionLogWriter(path, v).finish();
    const std::vector<std::string> ours = header_of(path);
    CHECK(ours[0] == legion[0]);
    CHECK(ours[1] == kWriterLegionVersion);
  }
}

TEST_CASE("the writer writes PhysicalInstanceUsage byte for byte as Legion does",
          "[legion][formats][writer]") {
  for (const LogVersion v : {LogVersion::V1011, LogVersion::V1012}) {
    const uint32_t format = format_of(v);
    INFO("format " << format);
    const std::string base = data_file("serializer/legion_" + std::to_string(format));
    const std::vector<uint8_t> legion_bytes = read_file(base + ".prof");
    // Each usage Legion wrote, as bytes, and the same values through the writer.
    std::vector<std::vector<uint8_t>> legion_usages;
    TempDir dir;
    const std::string path = dir.file("usages.prof");
    {
      LegionLogWriter w(path, v);
      const auto reader = LogReader::open(base + ".prof");
      Record r;
      while (reader->next(r)) {
        if (r.layout->name != "PhysicalInstanceUsage") continue;
        const auto at = static_cast<size_t>(r.offset);
        const auto end = static_cast<size_t>(reader->offset());
        legion_usages.emplace_back(legion_bytes.begin() + static_cast<ptrdiff_t>(at),
                                   legion_bytes.begin() + static_cast<ptrdiff_t>(end));
        const auto get = [&](const char* name) { return r.get(r.layout->field(name)); };
        w.instance_usage(get("inst_uid"), get("fevent"), get("op_id"), get("start"), get("stop"),
                         static_cast<uint32_t>(get("field")), static_cast<uint32_t>(get("index")),
                         static_cast<uint32_t>(get("mode")), static_cast<uint32_t>(get("redop")),
                         get("index_expr"));
      }
      w.finish();
    }
    REQUIRE(legion_usages.size() == 3);
    CHECK(legion_usages[0].size() == 4 + 64);  // a reduction: redop written
    CHECK(legion_usages[1].size() == 4 + 60);  // the others: not
    std::vector<uint8_t> expected;
    for (const auto& u : legion_usages) expected.insert(expected.end(), u.begin(), u.end());
    const std::vector<uint8_t> ours = read_file(path);
    const size_t records = static_cast<size_t>(LogReader::open(path)->header().size);
    CHECK(std::vector<uint8_t>(ours.begin() + static_cast<ptrdiff_t>(records), ours.end()) ==
          expected);
  }
}

TEST_CASE("the real logs rewritten as 1009 to 1012 import exactly as their 1008",
          "[legion][formats]") {
  TempDir dir;
  for (const char* name : kRealLogs) {
    const std::vector<std::string> as_1008 = imported(data_file(name));
    for (const LogVersion v : kLater) {
      INFO(name << " as " << format_of(v));
      LogEditor e(data_file(name));
      e.as_format(v);
      const std::string path = dir.file(std::to_string(format_of(v)) + "_" + name);
      write_file(path, e.encode());
      CHECK(first_difference(imported(path), as_1008) == "");
      const analysis::RankTrace t = import_log(path);
      CHECK(t.metadata["legion"]["format"] == format_of(v));
      CHECK(t.metadata["legion"]["legion_version"] == kWriterLegionVersion);
      CHECK_THAT(t.run.program,
                 Catch::StartsWith("Legion run (format " + std::to_string(format_of(v)) +
                                   ", legion-26.03.0-test), pid "));
    }
  }
}

TEST_CASE("the 2-node GPU run written in every format from 1008 to 1012 loads the same",
          "[legion][formats]") {
  TempDir dir;
  const auto stats = [&](LogVersion v) {
    const std::string sub = dir.file(std::to_string(format_of(v)));
    std::filesystem::create_directories(sub);
    const GpuRunFiles f = write_gpu_run(sub, v);
    const analysis::Profile p = load::load_profile({f.node0, f.node1});
    std::vector<std::string> out;
    for (uint32_t i = 0; i < p.items.size(); ++i) {
      out.push_back(analysis::describe(p, i) + " " + std::to_string(p.items[i].start) + ".." +
                    std::to_string(p.items[i].stop()));
      const uint32_t pre = analysis::last_precondition(p, i);
      if (pre != analysis::kNone) out.push_back("  after " + analysis::describe(p, pre));
    }
    return out;
  };
  const std::vector<std::string> base = stats(LogVersion::V1008);
  REQUIRE(base.size() > 20);
  for (const LogVersion v : kLater) {
    INFO("format " << format_of(v));
    CHECK(first_difference(stats(v), base) == "");
  }
}
