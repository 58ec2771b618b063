// Writes a trace of real work through the trace format's writer API: the
// main thread splits three array operations (fill, transform, sum) into
// chunks, worker threads run them, and every chunk is recorded as a task with
// its measured create/ready/start/stop times, its dependency on the chunk of
// the previous operation, and the main thread's wait for the final sum.
//
//   trace_writer_demo [--n N] [--workers W] [--chunk C] [--out legate_0.prof]
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "trace_format/metadata.hpp"
#include "trace_format/writer.hpp"

using namespace legato::trace;

namespace {

using Clock = std::chrono::steady_clock;

struct Job {
  TaskRecord record;  // uid, op, kind and create/ready filled when queued
  std::function<void()> body;
};

// Workers pull jobs from one queue; each finished job's record is kept.
class WorkerPool {
 public:
  WorkerPool(int workers, Clock::time_point zero) : zero_(zero), done_(workers) {
    for (int w = 0; w < workers; ++w) threads_.emplace_back([this, w] { run(w); });
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  Time now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - zero_).count();
  }
  void submit(Job job) {
    {
      std::lock_guard lock(mu_);
      job.record.ready = now();
      queue_.push_back(std::move(job));
      ++pending_;
    }
    cv_.notify_one();
  }
  void wait_idle() {
    std::unique_lock lock(mu_);
    idle_.wait(lock, [&] { return pending_ == 0; });
  }
  // Records of finished jobs per worker, in the order they ran.
  std::vector<std::vector<TaskRecord>>& done() { return done_; }
  void set_processors(std::vector<uint32_t> ids) { procs_ = std::move(ids); }

 private:
  void run(int w) {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job.record.processor = procs_[static_cast<size_t>(w)];
      job.record.start = now();
      job.body();
      job.record.stop = now();
      {
        std::lock_guard lock(mu_);
        done_[static_cast<size_t>(w)].push_back(job.record);
        if (--pending_ == 0) idle_.notify_all();
      }
    }
  }

  Clock::time_point zero_;
  std::mutex mu_;
  std::condition_variable cv_, idle_;
  std::deque<Job> queue_;
  int pending_ = 0;
  bool stopping_ = false;
  std::vector<std::vector<TaskRecord>> done_;
  std::vector<uint32_t> procs_;
  std::vector<std::thread> threads_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes a trace of a real parallel computation through the trace writer API"};
  int64_t n = 20'000'000;
  int workers = 4;
  int64_t chunk = 1'000'000;
  std::string out = "legate_0.prof";
  app.add_option("--n", n, "Array length")->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  app.add_option("--workers", workers, "Worker threads")->check(CLI::Range(1, 256));
  app.add_option("--chunk", chunk, "Elements per task")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  app.add_option("--out", out, "Trace file to write");
  CLI11_PARSE(app, argc, argv);

  const Clock::time_point zero = Clock::now();
  std::unique_ptr<TraceWriter> w;
  try {
    w = std::make_unique<TraceWriter>(out);
  } catch (const TraceError& e) {
    std::fprintf(stderr, "trace_writer_demo: %s\n", e.what());
    return 1;
  }
  RunInfo run;
  run.id = new_run_id();
  run.pid = getpid();
  run.program = argv[0];
  for (int i = 1; i < argc; ++i) run.args.push_back(argv[i]);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  run.host = host;
  run.start_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  w->write_metadata(
      {{"run", run.to_json()},
       {"clock",
        {{"units", "ns"}, {"source", "steady_clock"}, {"zero_unix_ns", run.start_unix_ns}}},
       {"config", {{"workers", workers}, {"n", n}, {"chunk", chunk}}}});

  const uint32_t io = make_resource_id(0, 0);
  w->add(ProcessorRecord{io, ProcKind::Io, 0, w->intern("io0"), kNoResource});
  WorkerPool pool(workers, zero);
  std::vector<uint32_t> procs;
  for (int i = 0; i < workers; ++i) {
    procs.push_back(make_resource_id(0, static_cast<uint32_t>(1 + i)));
    w->add(ProcessorRecord{procs.back(), ProcKind::Cpu, static_cast<uint32_t>(i),
                           w->intern("c" + std::to_string(i)), kNoResource});
  }
  pool.set_processors(procs);
  w->add(MemoryRecord{make_resource_id(0, 100), MemKind::System, static_cast<uint64_t>(n) * 8,
                      w->intern("sysmem")});

  uint64_t seq = 1;
  const Uid top = make_uid(0, seq++);
  const uint32_t prov = w->intern("trace_writer_demo.cpp:main");
  std::vector<double> a(static_cast<size_t>(n));
  const int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<double> partial(static_cast<size_t>(chunks), 0.0);
  std::vector<Uid> previous(static_cast<size_t>(chunks), 0);

  struct Step {
    const char* name;
    std::function<void(int64_t, int64_t, int64_t)> body;  // chunk index, lo, hi
  };
  const std::vector<Step> steps = {{"fill",
                                    [&](int64_t, int64_t lo, int64_t hi) {
                                      for (int64_t i = lo; i < hi; ++i)
                                        a[i] = 0.5 * static_cast<double>(i);
                                    }},
                                   {"sqrt_plus_one",
                                    [&](int64_t, int64_t lo, int64_t hi) {
                                      for (int64_t i = lo; i < hi; ++i)
                                        a[i] = std::sqrt(a[i]) + 1.0;
                                    }},
                                   {"sum", [&](int64_t c, int64_t lo, int64_t hi) {
                                      double s = 0;
                                      for (int64_t i = lo; i < hi; ++i) s += a[i];
                                      partial[c] = s;
                                    }}};
  const Time top_start = pool.now();
  for (size_t k = 0; k < steps.size(); ++k) {
    const Uid op = make_uid(0, seq++);
    const uint32_t kind = static_cast<uint32_t>(k + 1);
    w->add(TaskKindRecord{kind, w->intern(steps[k].name)});
    w->add(OperationRecord{op, top, OpKind::Task, kind, w->intern(steps[k].name), prov});
    // An operation may only start where the previous one finished: wait.
    if (k > 0) {
      const Time wait_start = pool.now();
      pool.wait_idle();
      const Time wait_end = pool.now();
      w->add(WaitRecord{top, wait_start, wait_end, wait_end, previous.back()});
    }
    for (int64_t c = 0; c < chunks; ++c) {
      Job job;
      job.record.uid = make_uid(0, seq++);
      job.record.op = op;
      job.record.task_kind = kind;
      job.record.variant = 1;
      job.record.create = pool.now();
      const int64_t lo = c * chunk, hi = std::min(n, lo + chunk);
      job.body = [&, c, lo, hi, k] { steps[k].body(c, lo, hi); };
      if (previous[c] != 0) w->add(EdgeRecord{job.record.uid, previous[c], EdgeKind::Data});
      previous[c] = job.record.uid;
      pool.submit(std::move(job));
    }
  }
  const Time wait_start = pool.now();
  pool.wait_idle();
  const Time wait_end = pool.now();
  w->add(WaitRecord{top, wait_start, wait_end, wait_end, previous.back()});
  double sum = 0;
  for (double p : partial) sum += p;
  for (auto& per_worker : pool.done()) {
    for (const auto& r : per_worker) w->add(r);
  }
  w->add(TaskRecord{top, 0, io, 0, 0, top_start, pool.now(), top_start, top_start});
  w->finish();
  std::printf("sum = %.6e over %lld elements in %lld tasks on %d workers; trace written to %s\n",
              sum, static_cast<long long>(n), static_cast<long long>(chunks * 3), workers,
              out.c_str());
  return 0;
}
