// Files that are not traces at all: the reader refuses them with one clear
// sentence naming the file, the offset and what it expected.
#include <catch2/catch.hpp>

#include "trace_format/trace_test_util.hpp"

using namespace legato::trace;
using namespace legato::trace::testing;

namespace {
std::string open_error(const std::vector<uint8_t>& bytes) {
  try {
    TraceReader::open(make_memory_source(bytes.data(), bytes.size()), "x.prof");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}
std::vector<uint8_t> bytes_of(std::string_view s) {
  return {s.begin(), s.end()};
}
}  // namespace

TEST_CASE("files that are not traces are refused with the reason", "[headers]") {
  CHECK(open_error({}) ==
        "x.prof: the file is empty (0 bytes); expected a Legato trace starting with \"LGTOPROF\"");
  CHECK(open_error(bytes_of("FileType: BinaryLegionProf v: 1.0\nMapperName {id:1}"))
            .find("Legion Prof log") != std::string::npos);
  CHECK(open_error(bytes_of("hello world, this is text")) ==
        "x.prof: not a Legato trace: expected \"LGTOPROF\" at offset 0, found \"hello wo\"");
  CHECK(open_error({0x00, 0xff, 0x10}) ==
        "x.prof: not a Legato trace: expected \"LGTOPROF\" at offset 0, found 00 ff 10");
  std::vector<uint8_t> header = forge_file_header(1, 0);
  CHECK(open_error({header.begin(), header.begin() + 20}).find("truncated at offset 20") !=
        std::string::npos);
  header[10] ^= 1;
  CHECK(open_error(header).find("file header checksum mismatch at offset 28") != std::string::npos);
  CHECK(open_error(forge_file_header(0, 9)).find("invalid trace format version 0.9") !=
        std::string::npos);
}

TEST_CASE("missing files and directories are refused with the reason", "[headers]") {
  TempDir dir;
  CHECK_THROWS_WITH(TraceReader::open(dir.file("nope.prof")),
                    Catch::Contains("nope.prof: cannot open: No such file or directory"));
  CHECK_THROWS_WITH(TraceReader::open(dir.path().string()), Catch::Contains("not a regular file"));
}

TEST_CASE("a header-only file is a valid, unfinished trace", "[headers]") {
  const std::vector<uint8_t> header = forge_file_header(1, 0);
  auto reader = TraceReader::open(make_memory_source(header.data(), header.size()), "h.prof");
  Frame f;
  CHECK_FALSE(reader->next(f));
  CHECK_FALSE(reader->finished_cleanly());
  REQUIRE(reader->diagnostics().size() == 1);
  CHECK(reader->diagnostics()[0].format("h.prof") ==
        "h.prof: offset 32: warning: no footer: the trace was not finished (the program was killed "
        "or "
        "crashed before the recorder finished); every complete frame was loaded");
}

TEST_CASE("metadata must be a JSON object of bounded depth", "[headers]") {
  nlohmann::json out;
  std::string err;
  const auto deep = bytes_of(std::string(100, '[') + std::string(100, ']'));
  CHECK_FALSE(parse_metadata(deep.data(), deep.size(), out, err));
  CHECK(err == "JSON nested deeper than 64 levels");
  const auto arr = bytes_of("[1,2]");
  CHECK_FALSE(parse_metadata(arr.data(), arr.size(), out, err));
  CHECK(err == "expected a JSON object, found a JSON array");
  const auto bad = bytes_of("{\"a\":");
  CHECK_FALSE(parse_metadata(bad.data(), bad.size(), out, err));
  CHECK(err.rfind("invalid JSON", 0) == 0);
  const auto good = bytes_of("{\"a\":[1,{\"b\":2}]}");
  CHECK(parse_metadata(good.data(), good.size(), out, err));
  CHECK(out["a"][1]["b"] == 2);
}
