// The Legion Prof log importer on a large log grown from a real one: the
// timeline records of tests/legion_import/data's log A (tasks, meta tasks,
// mapper and runtime calls, prof tasks, waits, instances, operations and the
// event graph) repeated with shifted times, ops and events, plain and gzip.
// Prints decode speed (LogReader + Collector), import speed (+ conversion to
// Legato records), load speed (+ the profile model), and peak memory.
//   bench_legion_import [REPEATS]   (default 4000: about 1.1 M records)
#include <sys/resource.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "analysis/load.hpp"
#include "legion_import/collect.hpp"
#include "legion_import/import.hpp"
#include "legion_import/log_reader.hpp"
#include "result.hpp"

using namespace legato;
using legato::bench::result;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
double best_of(int n, F&& f) {
  double best = 1e30;
  for (int i = 0; i < n; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

const std::set<std::string> kRepeated = {"TaskInfo",         "MetaInfo",
                                         "MapperCallInfo",   "RuntimeCallInfo",
                                         "ProfTaskInfo",     "TaskWaitInfo",
                                         "MetaWaitInfo",     "EventMergerInfo",
                                         "EventTriggerInfo", "CompletionQueueInfo",
                                         "InstTimelineInfo", "OperationInstance"};
const std::set<std::string> kEvents = {"fevent",       "creator",    "critical", "result",
                                       "pre0",         "pre1",       "pre2",     "pre3",
                                       "precondition", "wait_event", "inst_uid"};

// Writes the grown log; returns its record count.
uint64_t grow(const std::string& source, const std::string& out_path, uint64_t repeats) {
  std::ifstream in(source, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>()};
  auto reader = legion::LogReader::open(source);
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(reader->header().size));
  struct Raw {
    const legion::RecordLayout* layout;
    std::vector<char> bytes;
  };
  std::vector<Raw> timeline;
  legion::Record r;
  uint64_t records = 0, last_stop = 0;
  std::vector<uint64_t> starts;
  while (reader->next(r)) starts.push_back(r.offset);
  starts.push_back(reader->offset());
  reader = legion::LogReader::open(source);
  for (size_t i = 0; reader->next(r); ++i) {
    const std::vector<char> raw(bytes.begin() + static_cast<ptrdiff_t>(starts[i]),
                                bytes.begin() + static_cast<ptrdiff_t>(starts[i + 1]));
    if (kRepeated.count(r.layout->name)) {
      timeline.push_back(Raw{r.layout, raw});
    } else {
      out.write(raw.data(), static_cast<std::streamsize>(raw.size()));  // descriptors once
      ++records;
    }
    for (size_t k = 0; k < r.layout->fields.size(); ++k) {
      if (r.layout->fields[k].type == "timestamp_t") last_stop = std::max(last_stop, r.values[k]);
    }
  }
  for (uint64_t rep = 0; rep < repeats; ++rep) {
    for (Raw t : timeline) {
      // Every field of these kinds is fixed-size: patch times, ops and events.
      size_t at = 4;
      for (const auto& f : t.layout->fields) {
        uint64_t v = 0;
        std::memcpy(&v, t.bytes.data() + at, f.size);
        if (f.type == "timestamp_t" && v != 0) v += rep * (last_stop + 1000);
        if ((f.name == "op_id" || f.name == "parent_id") && v != 0 && v != ~uint64_t{0})
          v += rep * 100000;
        if (kEvents.count(f.name) && (v >> 63)) v += rep << 26;
        std::memcpy(t.bytes.data() + at, &v, f.size);
        at += f.size;
      }
      out.write(t.bytes.data(), static_cast<std::streamsize>(t.bytes.size()));
      ++records;
    }
  }
  return records;
}

void gzip_file(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  gzFile gz = gzopen(to.c_str(), "wb6");
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) gzwrite(gz, buf.data(), static_cast<unsigned>(in.gcount()));
  }
  gzclose(gz);
}

uint64_t decode(const std::string& path) {
  auto reader = legion::LogReader::open(path);
  legion::Collector c(reader->header());
  legion::Record r;
  while (reader->next(r)) c.add(r);
  return reader->records();
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t repeats = argc > 1 ? std::stoull(argv[1]) : 4000;
  const auto dir = std::filesystem::temp_directory_path() / "bench_legion_import";
  std::filesystem::create_directories(dir);
  const std::string plain = (dir / "prof_0.prof").string(), gz = (dir / "prof_0.gz").string();
  const uint64_t records = grow(
      std::string(LEGATO_SOURCE_DIR) + "/tests/legion_import/data/legatejl_85d792a6_legate_0.prof",
      plain, repeats);
  gzip_file(plain, gz);
  result("records", static_cast<double>(records), "records");
  result("plain_mb", static_cast<double>(std::filesystem::file_size(plain)) / 1e6, "MB");
  result("gzip_mb", static_cast<double>(std::filesystem::file_size(gz)) / 1e6, "MB");

  uint64_t got = 0;
  const double dec = best_of(3, [&] { got = decode(plain); });
  if (got != records)
    std::fprintf(stderr, "decoded %llu of %llu records\n", static_cast<unsigned long long>(got),
                 static_cast<unsigned long long>(records));
  result("decode_records_per_s", static_cast<double>(records) / dec, "records/s");
  const double dec_gz = best_of(3, [&] { decode(gz); });
  result("decode_gzip_records_per_s", static_cast<double>(records) / dec_gz, "records/s");
  const double imp = best_of(3, [&] { (void)legion::import_log(plain); });
  result("import_records_per_s", static_cast<double>(records) / imp, "records/s");
  analysis::Profile p;
  const double load = best_of(3, [&] { p = analysis::load_profile({plain}); });
  result("load_records_per_s", static_cast<double>(records) / load, "records/s");
  result("items", static_cast<double>(p.items.size()), "items");
  result("model_bytes_per_record",
         static_cast<double>(p.memory_bytes()) / static_cast<double>(records), "B");
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  result("peak_rss_mb", static_cast<double>(ru.ru_maxrss) / 1024.0, "MB");
  std::filesystem::remove_all(dir);
  return 0;
}
