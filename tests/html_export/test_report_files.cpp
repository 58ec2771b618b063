// The report's folder: index.html and one folder of detail files, each
// detail file a script naming its chunk; a report written again over it
// replaces its detail folder and removes the old one, and never a folder
// of the user's, even one named like a detail folder.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "../analysis/synthetic_trace.hpp"
#include "html_export/report.hpp"
#include "html_export/report_tables.hpp"
#include "load/load.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using trace::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// 70000 tasks on one CPU: three detail chunks.
analysis::Profile big_enough(const TempDir& dir) {
  {
    analysis::testing::SyntheticTrace t(dir.file("legate_0.prof"));
    const uint32_t cpu = t.processor(trace::ProcKind::Cpu, 0, "c0");
    const uint32_t kind = t.task_kind("work");
    for (int k = 0; k < 70000; ++k) t.task(cpu, kind, k * 100, k * 100 + 60);
    t.finish();
  }
  return load::load_profile({dir.file("legate_0.prof")});
}

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a report is index.html and a folder of detail files", "[report]") {
  TempDir dir;
  const analysis::Profile p = big_enough(dir);
  const html::ReportInfo r = html::write_report(p, dir.file("out"));
  const std::string data = fs::path(r.data_dir).filename().string();
  CHECK(names(dir.file("out")) == std::vector<std::string>{data, "index.html"});
  // Three chunks of items and none of operations (the tasks have none).
  CHECK(names(r.data_dir) == std::vector<std::string>{"c0.js", "c1.js", "c2.js"});
  CHECK(r.files == 3);
  size_t total = fs::file_size(r.path);
  for (const auto& n : names(r.data_dir)) {
    const std::string text = read(fs::path(r.data_dir) / n);
    INFO(n);
    CHECK(text.rfind("legatoChunk(\"c\"," + n.substr(1, n.size() - 4) + ",\"", 0) == 0);
    CHECK(text.find('<') == std::string::npos);
    total += text.size();
  }
  CHECK(r.total_bytes == total);
}

TEST_CASE("a report written again removes its old detail folder, never the user's", "[report]") {
  TempDir dir;
  const analysis::Profile p = big_enough(dir);
  const html::ReportInfo first = html::write_report(p, dir.file("out"));
  // The user's own folders beside it: one named freely, one named like a
  // detail folder but holding the user's notes.
  fs::create_directories(dir.file("out/data-mine"));
  std::ofstream(dir.file("out/data-mine/c0.js")) << "mine";
  fs::create_directories(dir.file("out/data-0123456789abcdef"));
  std::ofstream(dir.file("out/data-0123456789abcdef/notes.txt")) << "mine";
  const html::ReportInfo second = html::write_report(p, dir.file("out"));
  CHECK(second.data_dir != first.data_dir);
  CHECK_FALSE(fs::exists(first.data_dir));
  const std::string data = fs::path(second.data_dir).filename().string();
  std::vector<std::string> want = {"data-0123456789abcdef", data, "data-mine", "index.html"};
  std::sort(want.begin(), want.end());
  CHECK(names(dir.file("out")) == want);
  CHECK(names(dir.file("out/data-mine")) == std::vector<std::string>{"c0.js"});
}
