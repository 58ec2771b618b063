// The Legion Prof log importer, in two parts.
// 1. The targets (bench/README.md): a synthetic multi-node Legate-like GPU
//    run of 10 M records written by the test writer
//    (legion_import/testing), loaded through the same path as
//    `legate_prof view`: legion_load_records_per_s (all cores, one thread
//    per node file; best of 3 loads, as bench_analysis times a Legato
//    trace's), legion_bytes_per_record_in_memory (the model's tables
//    over the log's records), legion_first_frame_ms_10m (the viewer,
//    headless, from opening the files to the first frame with lanes).
//    Beside the load, a Legato trace of as many records and ranks
//    (run_trace.hpp) loaded in turn with it: legato_load_records_per_s_same_run
//    and legion_over_legato_load, which tell a slow moment of the machine
//    from a slow importer; the best load's user and system CPU time
//    (legion_load_user_s, legion_load_system_s), which tell the loader's
//    own work from the price of the fresh pages it fills. Then what the
//    commands do with the loaded run (after_load): the utilization
//    summary, the report, and its compression against zlib's.
// 2. A log grown from the real log A of tests/legion_import/data: its
//    timeline records (tasks, meta tasks, mapper and runtime calls, prof
//    tasks, waits, instances, operations and the event graph) repeated with
//    shifted times, ops and events, plain and gzip: decode, import and load
//    speed of one file with a real record mix.
// 3. One node's log of as many records as part 1's run (a single-node
//    Legate run writes one file): loaded with a core to spare, which
//    prefaults the tables' pages ahead of the collecting thread
//    (base::PagesAhead), the tables' room reserved from the first records'
//    rate (Collector::expect): legion_one_file_load_records_per_s.
// 4. The same synthetic run written as format 1008 and as 1011 and 1012
//    (wider records, PhysicalInstanceUsage whose redop is written only for
//    reductions), loaded in turn: legion_1011_over_1008_load and
//    legion_1012_over_1008_load, records per second against records per
//    second (a fifth of part 1's records, over as many nodes).
//   bench_legion_import [--records N] [--nodes K] [--repeats R] [--only PART]
//   (defaults: 10,000,000 records over 4 nodes; log A repeated 4,000 times;
//   PART: synthetic, grown, one-node or formats, else all four)
#include <sys/resource.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "analysis/stats.hpp"
#include "html_export/gzip.hpp"
#include "html_export/report.hpp"
#include "html_export/report_data.hpp"
#include "legion_import/collect.hpp"
#include "legion_import/import.hpp"
#include "legion_import/log_reader.hpp"
#include "legion_import/testing/legion_log_writer.hpp"
#include "load/load.hpp"
#include "result.hpp"
#include "run_trace.hpp"
#include "viewer/headless.hpp"

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

// zlib's default level, as a gzip stream (the report's compression before
// ISA-L's).
std::string deflate6(const std::string& in) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

uint64_t decode(const std::string& path) {
  auto reader = legion::LogReader::open(path);
  legion::Collector c(reader->header());
  c.expect(reader->size_hint());  // as import_log does
  legion::Record r;
  while (reader->next(r)) c.add(r);
  return reader->records();
}

// One call's wall time and the CPU time of all the process's threads in it.
struct Spent {
  double wall = 0, user = 0, sys = 0;
};

double cpu_seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

template <class F>
Spent spent(F&& f) {
  rusage a{}, b{};
  getrusage(RUSAGE_SELF, &a);
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double wall = seconds_since(t0);
  getrusage(RUSAGE_SELF, &b);
  return Spent{wall, cpu_seconds(b.ru_utime) - cpu_seconds(a.ru_utime),
               cpu_seconds(b.ru_stime) - cpu_seconds(a.ru_stime)};
}

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

// What the commands do with the loaded run: the utilization summary of
// `legate_prof stats`, and the HTML report (`archive`, and the end of a
// profiled run), its data compressed by ISA-L (html::gzip) against zlib's
// default level, the baseline, on the same bytes.
void after_load(const analysis::Profile& p) {
  std::vector<analysis::UtilizationSummary> summary;
  result("legion_utilization_summary_s",
         best_of(3, [&] { summary = analysis::utilization_summary(p); }), "s");
  const auto out = std::filesystem::temp_directory_path() / "bench_legion_report";
  html::ReportInfo info;
  result("legion_report_render_s", best_of(2, [&] { info = html::write_report(p, out.string()); }),
         "s");
  result("legion_report_mb", static_cast<double>(info.total_bytes) / 1e6, "MB");
  std::filesystem::remove_all(out);
  // The compression against its baseline on the detail chunks' bytes, one
  // after the other.
  std::string packed;
  for (uint32_t k = 0; k < html::item_chunks(p); ++k) packed += html::pack_item_chunk(p, k);
  std::string ours, zlib6;
  const double ours_s = best_of(2, [&] { ours = html::gzip(packed); });
  const double zlib6_s = best_of(1, [&] { zlib6 = deflate6(packed); });
  std::printf("# report data %.1f MB: ISA-L %.1f MB in %.3f s, zlib -6 %.1f MB in %.3f s\n",
              static_cast<double>(packed.size()) / 1e6, static_cast<double>(ours.size()) / 1e6,
              ours_s, static_cast<double>(zlib6.size()) / 1e6, zlib6_s);
  result("report_zlib6_over_gzip_time", zlib6_s / ours_s, "x");
  result("report_gzip_over_zlib6_bytes",
         static_cast<double>(ours.size()) / static_cast<double>(zlib6.size()), "x");
}

void synthetic_run(uint64_t records, uint32_t nodes) {
  const auto dir = std::filesystem::temp_directory_path() / "bench_legion_run";
  std::filesystem::remove_all(dir);
  auto t0 = std::chrono::steady_clock::now();
  const uint64_t written =
      legion::testing::write_synthetic_run(dir.string(), nodes, records / nodes, false);
  const double write_s = seconds_since(t0);
  std::vector<std::string> files;
  uint64_t bytes = 0;
  for (uint32_t n = 0; n < nodes; ++n) {
    files.push_back((dir / ("prof_" + std::to_string(n) + ".prof")).string());
    bytes += std::filesystem::file_size(files.back());
  }
  std::printf("# synthetic run: %u nodes, %llu records, %.0f MB plain, written in %.1f s\n", nodes,
              static_cast<unsigned long long>(written), static_cast<double>(bytes) / 1e6, write_s);
  result("legion_records", static_cast<double>(written), "records");

  const double dec = best_of(2, [&] {
    for (const auto& f : files) decode(f);
  });
  result("legion_decode_records_per_s_1thread", static_cast<double>(written) / dec, "records/s");
  // Best of 3, as bench_analysis times a Legato trace's load (the target's
  // reference). On a VM that hands freed memory back to its host, the first
  // load after a slow one finds its pages cold: the best of the first two,
  // this benchmark's figure before 2026-11-25, is printed beside it.
  analysis::Profile p;
  const double one = best_of(
      3, [&] { p = load::load_profile(files, legato::load::LoadOptions::with_threads(1)); });
  result("legion_load_records_per_s_1thread", static_cast<double>(written) / one, "records/s");
  // The reference in the same run: a Legato trace of as many records over
  // as many ranks, its loads taken in turn with the Legion log's so that
  // both meet the same moments of a noisy machine.
  const bench::RunTrace legato = bench::write_run_trace(
      (dir / "legato").string(), bench::ops_for_records(records, static_cast<int>(nodes)),
      static_cast<int>(nodes));
  // Each load's CPU time beside its wall time: the system time is the
  // fresh pages the load fills, and on a VM whose host takes back freed
  // memory (free page reporting) it swings with the host, not the loader.
  Spent loads[3], legato_loads[3];
  for (int i = 0; i < 3; ++i) {
    loads[i] = spent([&] { p = load::load_profile(files); });
    legato_loads[i] = spent([&] { (void)load::load_profile(legato.files); });
    std::printf(
        "# load %d: Legion log %.3f s (user %.2f s, system %.2f s), Legato trace %.3f s "
        "(user %.2f s, system %.2f s)\n",
        i + 1, loads[i].wall, loads[i].user, loads[i].sys, legato_loads[i].wall,
        legato_loads[i].user, legato_loads[i].sys);
  }
  const auto fastest = [](const Spent* s, int n) {
    return *std::min_element(s, s + n,
                             [](const Spent& a, const Spent& b) { return a.wall < b.wall; });
  };
  const Spent best = fastest(loads, 3), legato_best_load = fastest(legato_loads, 3);
  const double first_two = fastest(loads, 2).wall, all = best.wall,
               legato_best = legato_best_load.wall;
  result("legion_load_records_per_s", static_cast<double>(written) / all, "records/s");
  result("legion_load_user_s", best.user, "s");
  result("legion_load_system_s", best.sys, "s");
  std::printf("# best of the first two loads: %.4g records/s\n",
              static_cast<double>(written) / first_two);
  const double legato_rate = static_cast<double>(legato.records) / legato_best;
  std::printf("# the same-size Legato trace: %llu records in %d files\n",
              static_cast<unsigned long long>(legato.records), static_cast<int>(nodes));
  result("legato_load_records_per_s_same_run", legato_rate, "records/s");
  result("legato_load_system_s_same_run", legato_best_load.sys, "s");
  result("legion_over_legato_load", static_cast<double>(written) / all / legato_rate, "x");
  if (!p.warnings.empty()) std::printf("# warning: %s\n", p.warnings.front().c_str());
  std::printf("# %zu items, %zu waits, %zu lanes\n", p.items.size(), p.waits.size(),
              p.lanes.size());
  result("legion_bytes_per_record_in_memory",
         static_cast<double>(p.memory_bytes()) / static_cast<double>(written), "B");
  p = analysis::Profile{};

  viewer::HeadlessContext ctx(1920, 1080);
  viewer::ViewOptions options;
  options.files = files;
  t0 = std::chrono::steady_clock::now();
  viewer::App app(options);
  app.wait_loaded();
  ctx.frame(app);
  result("legion_first_frame_ms_10m", seconds_since(t0) * 1e3, "ms");
  std::printf("# the first frame drew %zu boxes\n", app.view().boxes_drawn());
  result("legion_peak_rss_mb", peak_rss_mb(), "MB");
  after_load(load::load_profile(files));  // after the first frame, which it would disturb
  std::filesystem::remove_all(dir);
}

void grown_log_a(uint64_t repeats) {
  const auto dir = std::filesystem::temp_directory_path() / "bench_legion_import";
  std::filesystem::create_directories(dir);
  const std::string plain = (dir / "prof_0.prof").string(), gz = (dir / "prof_0.gz").string();
  const uint64_t records = grow(
      std::string(LEGATO_SOURCE_DIR) + "/tests/legion_import/data/legatejl_85d792a6_legate_0.prof",
      plain, repeats);
  gzip_file(plain, gz);
  std::printf("# log A grown %llu times\n", static_cast<unsigned long long>(repeats));
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
  const double load = best_of(3, [&] { p = load::load_profile({plain}); });
  result("load_records_per_s", static_cast<double>(records) / load, "records/s");
  const double load_gz = best_of(3, [&] { p = load::load_profile({gz}); });
  result("load_gzip_records_per_s", static_cast<double>(records) / load_gz, "records/s");
  result("items", static_cast<double>(p.items.size()), "items");
  result("model_bytes_per_record",
         static_cast<double>(p.memory_bytes()) / static_cast<double>(records), "B");
  std::filesystem::remove_all(dir);
}

void one_node_log(uint64_t records) {
  const auto dir = std::filesystem::temp_directory_path() / "bench_legion_one_node";
  std::filesystem::remove_all(dir);
  const uint64_t written = legion::testing::write_synthetic_run(dir.string(), 1, records, false);
  const std::string file = (dir / "prof_0.prof").string();
  std::printf("# one node's log: %llu records, %.0f MB plain\n",
              static_cast<unsigned long long>(written),
              static_cast<double>(std::filesystem::file_size(file)) / 1e6);
  Spent loads[3];
  analysis::Profile p;
  for (Spent& load : loads) load = spent([&] { p = load::load_profile({file}); });
  const Spent best = *std::min_element(
      loads, loads + 3, [](const Spent& a, const Spent& b) { return a.wall < b.wall; });
  std::printf("# best load %.3f s (user %.2f s, system %.2f s)\n", best.wall, best.user, best.sys);
  result("legion_one_file_load_records_per_s", static_cast<double>(written) / best.wall,
         "records/s");
  std::filesystem::remove_all(dir);
}

void formats(uint64_t records, uint32_t nodes) {
  using legion::testing::LogVersion;
  const auto dir = std::filesystem::temp_directory_path() / "bench_legion_formats";
  std::filesystem::remove_all(dir);
  constexpr LogVersion kVersions[] = {LogVersion::V1008, LogVersion::V1011, LogVersion::V1012};
  std::vector<std::string> files[3];
  uint64_t written[3] = {};
  for (int v = 0; v < 3; ++v) {
    const auto sub = dir / std::to_string(legion::testing::format_of(kVersions[v]));
    written[v] = legion::testing::write_synthetic_run(sub.string(), nodes, records / nodes, false,
                                                      kVersions[v]);
    uint64_t bytes = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
      files[v].push_back((sub / ("prof_" + std::to_string(n) + ".prof")).string());
      bytes += std::filesystem::file_size(files[v].back());
    }
    std::printf("# format %u: %llu records, %.0f MB plain\n",
                legion::testing::format_of(kVersions[v]),
                static_cast<unsigned long long>(written[v]), static_cast<double>(bytes) / 1e6);
  }
  // In turn, so that each meets the same moments of a noisy machine.
  double best[3] = {1e30, 1e30, 1e30};
  for (int round = 0; round < 3; ++round) {
    for (int v = 0; v < 3; ++v) {
      const auto t0 = std::chrono::steady_clock::now();
      const analysis::Profile p = load::load_profile(files[v]);
      best[v] = std::min(best[v], seconds_since(t0));
      if (round == 0 && !p.warnings.empty())
        std::printf("# format %u warning: %s\n", legion::testing::format_of(kVersions[v]),
                    p.warnings.front().c_str());
    }
  }
  double rate[3];
  for (int v = 0; v < 3; ++v) {
    rate[v] = static_cast<double>(written[v]) / best[v];
    result("legion_" + std::to_string(legion::testing::format_of(kVersions[v])) +
               "_load_records_per_s",
           rate[v], "records/s");
  }
  result("legion_1011_over_1008_load", rate[1] / rate[0], "x");
  result("legion_1012_over_1008_load", rate[2] / rate[0], "x");
  std::filesystem::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t records = 10'000'000, repeats = 4000;
  uint32_t nodes = 4;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--only" && i + 1 < argc &&
        std::set<std::string>{"synthetic", "grown", "one-node", "formats"}.count(argv[i + 1])) {
      only = argv[++i];
      continue;
    }
    char* end = nullptr;
    const unsigned long long v = i + 1 < argc ? std::strtoull(argv[i + 1], &end, 10) : 0;
    const bool number = end && *end == '\0' && v > 0;
    if (a == "--records" && number) {
      records = v;
    } else if (a == "--nodes" && number && v <= 64) {
      nodes = static_cast<uint32_t>(v);
    } else if (a == "--repeats" && number) {
      repeats = v;
    } else {
      std::fprintf(stderr,
                   "usage: bench_legion_import [--records N] [--nodes K (1..64)] [--repeats R] "
                   "[--only synthetic|grown|one-node|formats]\n");
      return 2;
    }
    ++i;
  }
  if (only.empty() || only == "synthetic") synthetic_run(records, nodes);
  if (only.empty() || only == "grown") grown_log_a(repeats);
  if (only.empty() || only == "one-node") one_node_log(records);
  if (only.empty() || only == "formats") formats(std::max<uint64_t>(records / 5, nodes), nodes);
  return 0;
}
