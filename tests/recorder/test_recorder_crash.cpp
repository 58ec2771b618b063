// Crash safety: a child process records and dies (SIGKILL at random moments,
// abort(), a null dereference); the parent opens what it left behind.
#include <sys/mman.h>
#include <catch2/catch.hpp>
#include <csignal>
#include <random>

#include "recorder/recorder_test_util.hpp"

using namespace legato;
using namespace legato::rec::testing;
using trace::testing::TempDir;

namespace {

// Records tasks numbered 0, 1, 2... with real work between them, forever
// (or `count` of them).
void record_numbered(const TempDir& dir, uint64_t count) {
  rec::start(options_in(dir));
  const uint32_t cpu = rec::add_processor(trace::ProcKind::Cpu, 0, "c0");
  uint64_t x = 1;
  for (uint64_t i = 0; i < count; ++i) {
    const auto start = rec::stamp(rec::now());
    x = busy_work(x);
    rec::record(
        trace::TaskRecord{i, x & 0xff, cpu, 1, 1, start, rec::stamp(rec::now()), start, start});
  }
}

// The numbers found, checked to be 0..n-1 in order; returns n.
uint64_t numbered_prefix(const std::string& path, bool& clean) {
  uint64_t next = 0, bad = 0;
  auto reader = for_each_frame(path, [&](const trace::Frame& f) {
    for (const auto& t : f.records.get<trace::TaskRecord>()) bad += t.uid != next++;
  });
  CHECK(bad == 0);
  CHECK_FALSE(reader->has_errors());
  clean = reader->finished_cleanly();
  return next;
}

}  // namespace

TEST_CASE("after SIGKILL at any moment the trace opens and holds a prefix", "[recorder][crash]") {
  // Half the kills come at a random moment after the fork (the file may not
  // exist yet), half at a random moment after the first records reached
  // the file: placed by what the child has done, not by this machine's speed.
  std::mt19937 rng(1234);
  int after_records = 0, with_records = 0;
  for (int trial = 0; trial < 25; ++trial) {
    TempDir dir;
    const std::string path = dir.file("legate_0.prof");
    const bool after_first_records = trial % 2 == 1;
    const auto has_records = [&] {
      if (!std::filesystem::exists(path)) return false;
      uint64_t n = 0;
      for_each_frame(
          path, [&](const trace::Frame& f) { n += f.records.get<trace::TaskRecord>().size(); });
      return n > 0;
    };
    const int kill_after = static_cast<int>(rng() % 300);
    const ChildResult child =
        run_child([&] { record_numbered(dir, UINT64_MAX); }, kill_after,
                  after_first_records ? std::function<bool()>(has_records) : nullptr);
    CHECK(child.signal == SIGKILL);
    after_records += after_first_records;
    if (!std::filesystem::exists(path)) continue;  // killed before the file was created
    INFO("killed " << kill_after << " ms after "
                   << (after_first_records ? "the first records" : "the fork"));
    bool clean = true;
    const uint64_t n = numbered_prefix(path, clean);
    CHECK_FALSE(clean);
    if (after_first_records) CHECK(n > 0);
    with_records += n > 0;
  }
  CHECK(after_records == 12);
  CHECK(with_records >= after_records);
}

TEST_CASE("abort() finishes the trace with everything recorded and the signal",
          "[recorder][crash]") {
  TempDir dir;
  const ChildResult child = run_child([&] {
    record_numbered(dir, 5000);
    std::abort();
  });
  CHECK(child.signal == SIGABRT);
  bool clean = false;
  CHECK(numbered_prefix(dir.file("legate_0.prof"), clean) == 5000);
  CHECK(clean);
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.records.get<trace::ErrorRecord>().size() == 1);
  CHECK(l.records.get<trace::ErrorRecord>()[0].error_kind == trace::ErrorKind::Signal);
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<trace::StringRecord>()) strings[s.id] = s.text;
  CHECK(strings[l.records.get<trace::ErrorRecord>()[0].text].find("SIGABRT") != std::string::npos);
}

TEST_CASE("a null dereference finishes the trace before the process dies", "[recorder][crash]") {
  TempDir dir;
  const ChildResult child = run_child([&] {
    record_numbered(dir, 3000);
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer build stops a null store before it faults: use a page
    // the process may not touch for a real SIGSEGV.
    void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *static_cast<volatile int*>(page) = 1;
#else
    volatile int* volatile null = nullptr;
    *null = 1;
#endif
  });
  // SIGSEGV, or a non-zero exit when a sanitizer's handler reports it after ours.
  CHECK((child.signal == SIGSEGV || (child.exited && child.exit_code != 0)));
  bool clean = false;
  CHECK(numbered_prefix(dir.file("legate_0.prof"), clean) == 3000);
  CHECK(clean);
}

TEST_CASE("a fatal error records its report and finishes the trace", "[recorder][crash]") {
  TempDir dir;
  const ChildResult child = run_child([&] {
    record_numbered(dir, 100);
    rec::fatal_error(trace::ErrorKind::OutOfMemory,
                     "Failed to allocate 8388608 bytes on memory SYSTEM_MEM");
    std::_Exit(1);
  });
  CHECK(child.exit_code == 1);
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  CHECK(l.clean);
  CHECK(l.records.get<trace::TaskRecord>().size() == 100);
  REQUIRE(l.records.get<trace::ErrorRecord>().size() == 1);
  CHECK(l.records.get<trace::ErrorRecord>()[0].error_kind == trace::ErrorKind::OutOfMemory);
}

TEST_CASE("a program that just exits gets a finished trace", "[recorder][crash]") {
  TempDir dir;
  const ChildResult child = run_child([&] {
    record_numbered(dir, 777);
    std::exit(3);  // no finish(): the recorder finishes at exit
  });
  CHECK(child.exit_code == 3);
  bool clean = false;
  CHECK(numbered_prefix(dir.file("legate_0.prof"), clean) == 777);
  CHECK(clean);
}
