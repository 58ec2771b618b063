// Paths and arguments are bytes on Linux: metadata strings that are not
// UTF-8 are stored escaped, losslessly, and never stop a run.
#include <catch2/catch.hpp>
#include <random>

#include "recorder/recorder_test_util.hpp"
#include "trace_format/metadata.hpp"

using namespace legato;
using trace::escape_bytes;
using trace::unescape_bytes;
using trace::testing::load_file;
using trace::testing::TempDir;

TEST_CASE("escaping keeps UTF-8 and writes every other byte as a hex escape", "[fault][bytes]") {
  CHECK(escape_bytes("plain /path é 日本 😀") == "plain /path é 日本 😀");
  CHECK(escape_bytes("a\\b") == "a\\\\b");
  CHECK(escape_bytes("caf\xe9") == "caf\\xe9");
  CHECK(escape_bytes("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_bytes("\xc0\xaf") == "\\xc0\\xaf");                    // an overlong '/'
  CHECK(escape_bytes("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a surrogate
  CHECK(escape_bytes("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  CHECK(escape_bytes("\xe6\x97") == "\\xe6\\x97");                    // cut short
  CHECK(escape_bytes(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("escaped bytes round-trip, whatever they were", "[fault][bytes]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 40, '\0');
    for (char& ch : bytes) {
      const uint64_t r = rng();
      ch = static_cast<char>(r % 4 == 0 ? '\\' : r % 4 == 1 ? 'x' : (r >> 8) & 0xff);
    }
    const std::string text = escape_bytes(bytes);
    INFO("case " << i);
    CHECK(unescape_bytes(text) == bytes);
    CHECK(escape_bytes(text) == escape_bytes(escape_bytes(bytes)));  // the text is valid UTF-8
  }
}

TEST_CASE("metadata with bytes that are not UTF-8 is written and read back", "[fault][bytes]") {
  TempDir dir;
  const std::string path = dir.file("t.prof");
  const std::string program = "/tmp/caf\xe9/run\xff";
  const nlohmann::json meta = {{"run", {{"program", program}, {"args", {"--x=\xfe", "ok"}}}},
                               {"k\xe9y", "v"}};
  {
    trace::TraceWriter w(path, {}, &meta);
    w.write_metadata({{"config", {{"logdir", "/d\xff"}}}});
  }
  const trace::testing::Loaded l = load_file(path);
  CHECK(l.clean);
  CHECK(l.metadata["run"]["program"] == "/tmp/caf\\xe9/run\\xff");
  CHECK(unescape_bytes(l.metadata["run"]["program"].get<std::string>()) == program);
  CHECK(l.metadata["run"]["args"][0] == "--x=\\xfe");
  CHECK(l.metadata["k\\xe9y"] == "v");
  CHECK(l.metadata["config"]["logdir"] == "/d\\xff");
}

TEST_CASE("a log directory and configuration that are not UTF-8 do not stop recording",
          "[fault][bytes]") {
  TempDir dir;
  const std::string logdir = dir.file("logs\xff\xfe");
  rec::RecorderOptions o;
  o.logdir = logdir;
  o.config = {{"logdir", logdir}, {"profile-name", "legate"}};
  rec::start(o);
  rec::record(trace::TaskRecord{1, 1, rec::add_processor(trace::ProcKind::Cpu, 0, "c\xff"), 1, 1, 0,
                                1, 0, 0});
  rec::finish();
  const trace::testing::Loaded l = load_file(logdir + "/legate_0.prof");
  CHECK(l.clean);
  CHECK(unescape_bytes(l.metadata["config"]["logdir"].get<std::string>()) == logdir);
  bool named = false;  // string records carry bytes as they are
  for (const auto& s : l.records.get<trace::StringRecord>()) named |= s.text == "c\xff";
  CHECK(named);
}
