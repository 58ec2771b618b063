// A parallel computation that profiles itself with the recorder: the main
// thread splits three array operations (fill, transform, sum) into chunks,
// worker threads run them, and every chunk is recorded as a task with its
// create/ready/start/stop times and its dependency on the chunk of the
// previous operation; the main thread's waits for the workers are recorded
// too. The trace lands in <logdir>/legate_0.prof.
//
//   parallel_sum [--n N] [--workers W] [--chunk C] [--logdir DIR]
#include <CLI/CLI.hpp>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "recorder/recorder.hpp"

using namespace legato;
using trace::Time;

namespace {

Time ticks(uint64_t t) {
  return static_cast<Time>(t);
}

struct Job {
  trace::TaskRecord record;  // uid, op, kind and create/ready filled when queued
  std::function<void()> body;
};

// Workers pull jobs from one queue and record each job they run.
class WorkerPool {
 public:
  explicit WorkerPool(const std::vector<uint32_t>& processors) {
    for (uint32_t proc : processors) threads_.emplace_back([this, proc] { run(proc); });
  }
  ~WorkerPool() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void submit(Job job) {
    {
      std::lock_guard lock(mu_);
      job.record.ready = ticks(rec::now());
      queue_.push_back(std::move(job));
      ++pending_;
    }
    cv_.notify_one();
  }
  void wait_idle() {
    std::unique_lock lock(mu_);
    idle_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  void run(uint32_t proc) {
    rec::bind_thread(proc);
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job.record.processor = proc;
      job.record.start = ticks(rec::now());
      job.body();
      job.record.stop = ticks(rec::now());
      rec::record(job.record);
      std::lock_guard lock(mu_);
      if (--pending_ == 0) idle_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_, idle_;
  std::deque<Job> queue_;
  int pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A parallel computation that records its own trace with the Legato recorder"};
  int64_t n = 20'000'000;
  int workers = 4;
  int64_t chunk = 1'000'000;
  std::string logdir = ".";
  app.add_option("--n", n, "Array length")->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  app.add_option("--workers", workers, "Worker threads")->check(CLI::Range(1, 256));
  app.add_option("--chunk", chunk, "Elements per task")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 32));
  app.add_option("--logdir", logdir, "Directory for legate_0.prof");
  CLI11_PARSE(app, argc, argv);

  rec::RecorderOptions options;
  options.logdir = logdir;
  options.config = {{"workers", workers}, {"n", n}, {"chunk", chunk}};
  try {
    rec::start(options);
  } catch (const rec::RecorderError& e) {
    std::fprintf(stderr, "parallel_sum: %s\n", e.what());
    return 1;
  }
  const uint32_t io = rec::add_processor(trace::ProcKind::Io, 0, "io0");
  rec::bind_thread(io);
  std::vector<uint32_t> procs;
  for (int i = 0; i < workers; ++i) {
    procs.push_back(rec::add_processor(trace::ProcKind::Cpu, static_cast<uint32_t>(i),
                                       "c" + std::to_string(i)));
  }
  rec::add_memory(trace::MemKind::System, static_cast<uint64_t>(n) * 8, "sysmem");
  const trace::Uid top = rec::new_uid();
  const uint64_t top_start = rec::now();
  const uint32_t provenance = rec::intern("parallel_sum.cpp:main");

  std::vector<double> a(static_cast<size_t>(n));
  const int64_t chunks = (n + chunk - 1) / chunk;
  std::vector<double> partial(static_cast<size_t>(chunks), 0.0);
  std::vector<trace::Uid> previous(static_cast<size_t>(chunks), 0);
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
  {
    WorkerPool pool(procs);
    const auto wait_for_workers = [&](trace::Uid last) {
      const uint64_t start = rec::now();
      pool.wait_idle();
      const uint64_t end = rec::now();
      rec::record(trace::WaitRecord{top, ticks(start), ticks(end), ticks(end), last});
    };
    for (size_t k = 0; k < steps.size(); ++k) {
      const trace::Uid op = rec::new_uid();
      const uint32_t kind = static_cast<uint32_t>(k + 1);
      rec::add_task_kind(kind, steps[k].name);
      rec::record(trace::OperationRecord{op, top, trace::OpKind::Task, kind,
                                         rec::intern(steps[k].name), provenance});
      // An operation starts where the previous one finished.
      if (k > 0) wait_for_workers(previous.back());
      for (int64_t c = 0; c < chunks; ++c) {
        Job job;
        job.record = trace::TaskRecord{rec::new_uid(), op, 0, kind, 1, 0, 0, 0, ticks(rec::now())};
        const int64_t lo = c * chunk, hi = std::min(n, lo + chunk);
        job.body = [&, c, lo, hi, k] { steps[k].body(c, lo, hi); };
        if (previous[c] != 0)
          rec::record(trace::EdgeRecord{job.record.uid, previous[c], trace::EdgeKind::Data});
        previous[c] = job.record.uid;
        pool.submit(std::move(job));
      }
    }
    wait_for_workers(previous.back());
  }
  double sum = 0;
  for (double p : partial) sum += p;
  const uint64_t top_stop = rec::now();
  rec::record(trace::TaskRecord{top, 0, io, 0, 0, ticks(top_start), ticks(top_stop),
                                ticks(top_start), ticks(top_start)});
  const std::string path = rec::trace_path();
  rec::finish();
  std::printf("sum = %.6e over %lld elements in %lld tasks on %d workers; trace written to %s\n",
              sum, static_cast<long long>(n), static_cast<long long>(chunks * 3), workers,
              path.c_str());
  return 0;
}
