// Trace format benchmark: encodes and decodes realistic task streams and
// prints `RESULT <metric> <value> <unit>` lines. Targets (bench/README.md):
// decode >= 30 M records/s on one core, <= 4 bytes per task record on disk.
//
// Two streams (task_stream.hpp): "mixed" (a solver's whole-array operations)
// gives the headline figures; "chunked" (the seeds' per-slice loop) gets a
// _chunked suffix. Baselines measured in the same run: zstd alone on the same
// payloads, and the order-0 entropy of the task columns' residuals (what a
// perfect coder of each column on its own would need).
#include <zstd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unordered_map>

#include "bench_args.hpp"
#include "result.hpp"
#include "task_stream.hpp"
#include "trace_format/reader.hpp"

using namespace legato;
using Clock = std::chrono::steady_clock;

namespace {

using legato::bench::result;

// Best of `reps` runs of f(), in seconds.
template <class F>
double best_of(int reps, F&& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

// Order-0 entropy (bits per value) of a sequence.
double entropy_bits(const std::vector<int64_t>& v) {
  std::unordered_map<int64_t, double> counts;
  for (int64_t x : v) counts[x] += 1;
  double bits = 0;
  for (const auto& [value, c] : counts)
    bits -= c / static_cast<double>(v.size()) * std::log2(c / static_cast<double>(v.size()));
  return bits;
}

// Bytes per task that an ideal order-0 coder needs for the task columns'
// residuals under the format's own predictors.
double task_entropy_bytes(const bench::TaskStream& s) {
  std::vector<std::vector<int64_t>> cols(9);
  for (const auto& per_proc : s.tasks) {
    trace::TaskRecord prev{};
    for (const auto& t : per_proc) {
      cols[0].push_back(static_cast<int64_t>(t.uid - prev.uid));
      cols[1].push_back(static_cast<int64_t>(t.op - prev.op));
      cols[2].push_back(static_cast<int64_t>(t.processor) - prev.processor);
      cols[3].push_back(t.task_kind);
      cols[4].push_back(t.variant);
      cols[5].push_back(t.start - prev.stop);
      cols[6].push_back(t.stop - t.start);
      cols[7].push_back(t.ready - t.start);
      cols[8].push_back(t.create - t.ready);
      prev = t;
    }
  }
  double bits = 0;
  for (const auto& c : cols) bits += entropy_bits(c);
  return bits / 8;
}

void run(const bench::StreamShape& shape, int ops, bool headline) {
  const std::string suffix = headline ? "" : std::string("_") + shape.name;
  const auto dir = std::filesystem::temp_directory_path();
  const std::string full = (dir / "legato_bench_full.prof").string();
  const std::string tasks_only = (dir / "legato_bench_tasks.prof").string();
  const bench::TaskStream stream = bench::make_task_stream(shape, ops, 4, 2, 42);
  const double records = static_cast<double>(stream.total());
  const double tasks = static_cast<double>(stream.task_count());
  std::printf("stream %s: %d operations, %.0f records, %.0f tasks\n", shape.name, ops, records,
              tasks);

  const double encode_s = best_of(3, [&] {
    trace::TraceWriter w(full);
    bench::write_stream(w, stream, 64, false);
    w.finish();
  });
  {
    trace::TraceWriter w(tasks_only);
    bench::write_stream(w, stream, 64, true);
    w.finish();
  }
  uint64_t decoded = 0;
  std::vector<std::vector<uint8_t>> stored;
  std::vector<size_t> raw_sizes;
  const double decode_s = best_of(5, [&] {
    auto reader = trace::TraceReader::open(full);
    trace::Frame f;
    decoded = 0;
    while (reader->next(f)) {
      if (f.header.type == trace::FrameType::Events) decoded += f.records.size();
    }
  });
  if (decoded != static_cast<uint64_t>(records)) {
    std::fprintf(stderr, "decoded %llu records, wrote %.0f\n",
                 static_cast<unsigned long long>(decoded), records);
    std::exit(1);
  }
  // zstd alone on the same frames.
  {
    auto reader = trace::TraceReader::open(full);
    std::FILE* fp = std::fopen(full.c_str(), "rb");
    trace::Frame f;
    while (reader->next(f)) {
      if (f.header.compression != trace::Compression::Zstd) continue;
      std::vector<uint8_t> s(f.header.stored_size);
      std::fseek(fp, static_cast<long>(f.offset + trace::kFrameHeaderSize), SEEK_SET);
      if (std::fread(s.data(), 1, s.size(), fp) != s.size()) std::exit(1);
      stored.push_back(std::move(s));
      raw_sizes.push_back(f.header.raw_size);
    }
    std::fclose(fp);
  }
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  std::vector<uint8_t> out;
  const double zstd_s = best_of(5, [&] {
    for (size_t i = 0; i < stored.size(); ++i) {
      out.resize(raw_sizes[i]);
      ZSTD_decompressDCtx(dctx, out.data(), out.size(), stored[i].data(), stored[i].size());
    }
  });
  ZSTD_freeDCtx(dctx);

  const double full_bytes = static_cast<double>(std::filesystem::file_size(full));
  // What the cap on records per frame (a bound on what one damaged frame
  // loses) costs in size: the same stream with frames closed by size alone,
  // at the writer's default level and at the recorder's (zstd 1).
  const auto bytes_with = [&](uint32_t cap, int level) {
    trace::WriterOptions o;
    o.max_frame_records = cap;
    o.zstd_level = level;
    {
      trace::TraceWriter w(full, o);
      bench::write_stream(w, stream, 64, false);
      w.finish();
    }
    return static_cast<double>(std::filesystem::file_size(full));
  };
  const uint32_t cap = trace::WriterOptions{}.max_frame_records;
  for (const int level : {3, 1}) {
    const double uncapped = bytes_with(UINT32_MAX, level), capped = bytes_with(cap, level);
    result("frame_cap_size_cost_zstd" + std::to_string(level) + suffix,
           100.0 * (capped / uncapped - 1.0), "%");
  }
  const double task_bytes = static_cast<double>(std::filesystem::file_size(tasks_only));
  result("encode_records_per_s" + suffix, records / encode_s, "records/s");
  result("decode_records_per_s" + suffix, static_cast<double>(decoded) / decode_s, "records/s");
  result("decode_time_vs_zstd_alone" + suffix, decode_s / zstd_s, "x");
  result("bytes_per_task_record" + suffix, task_bytes / tasks, "B");
  result("task_entropy_floor" + suffix, task_entropy_bytes(stream), "B");
  result("bytes_per_record" + suffix, full_bytes / records, "B");
  std::filesystem::remove(full);
  std::filesystem::remove(tasks_only);
}

}  // namespace

int main(int argc, char** argv) {
  const legato::bench::CountArgs args(
      argc, argv, "bench_trace_format [OPS]",
      "Trace format encode/decode speed and size on two synthetic task streams (OPS operations, "
      "default 200000).");
  const int ops = static_cast<int>(args.get(1, 200000));
  run(bench::kMixedShape, ops, true);
  run(bench::kChunkedShape, ops, false);
  return 0;
}
