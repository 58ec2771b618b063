// Legato's task API: what a program uses to run on the runtime.
//
//   legato::rt::start();                                   // reads LEGATE_CONFIG
//   auto add = legato::rt::register_task("add", [](legato::rt::TaskContext& ctx) {...});
//   legato::rt::Store a = legato::rt::create_store(n, legato::rt::DType::F64, "a");
//   legato::rt::fill(a, {0, n}, 1.0);
//   legato::rt::TaskLauncher(add, n).add_aligned(a, 0, Privilege::ReadWrite).execute();
//   legato::rt::finish();
//
// Every call returns at once; the work runs when its inputs are ready. Each
// call captures the caller's file:line, which travels into the trace and into
// out-of-memory reports.
#pragma once

#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/types.hpp"

namespace legato::rt {

class StoreImpl;
struct FutureState;
struct Config;
// The runtime's own way into what the classes below keep from programs
// (runtime/core/api_access.hpp).
class ApiAccess;

// Starts the runtime from LEGATE_CONFIG (once; later calls do nothing). On a
// bad configuration it prints a LEGATE ERROR and exits with status 1; with
// --help it prints the options and exits with status 0.
void start();
// Waits for all work, releases every store, stops the threads and finishes
// the trace. Also runs at exit if the program does not call it.
void finish();
bool running();
const Config& config();
// Changes every time the runtime starts (task ids belong to one start).
uint64_t epoch();

// A one-dimensional array of elements of one type, living in the runtime's
// memories. Handles share the store; when the last one goes, the runtime
// frees the store's instances once nothing uses them.
class Store {
 public:
  Store() = default;
  Store(const Store& other);
  Store& operator=(const Store& other);
  Store(Store&& other) noexcept;
  Store& operator=(Store&& other) noexcept;
  ~Store();

  bool valid() const { return impl_ != nullptr; }
  // Whether two handles name the same store.
  bool operator==(const Store& other) const { return impl_ == other.impl_; }
  int64_t size() const;
  DType dtype() const;
  const std::string& name() const;
  // Tells the runtime the program will touch up to `low` elements before and
  // `high` after any range it works on (a stencil's halo): an instance made
  // for a range covers those too, so growing into them later needs no second,
  // larger instance. Call it before the operations it is about.
  void stencil_hint(int64_t low, int64_t high) const;

 private:
  friend class ApiAccess;
  friend Store create_store(int64_t, DType, std::string, std::source_location);
  explicit Store(std::shared_ptr<StoreImpl> impl);
  void drop();
  std::shared_ptr<StoreImpl> impl_;
};

// Deferred: nothing is allocated until an operation needs the data.
Store create_store(int64_t size, DType type, std::string name = "",
                   std::source_location where = std::source_location::current());

// The result of an operation: a scalar that becomes available later.
class Future {
 public:
  Future() = default;
  bool valid() const { return state_ != nullptr; }
  bool ready() const;
  // Blocks the top-level task (recorded as a wait) until the value is there.
  double get() const;
  int64_t get_int() const;

 private:
  friend class ApiAccess;
  explicit Future(std::shared_ptr<FutureState> s) : state_(std::move(s)) {}
  std::shared_ptr<FutureState> state_;
};

class TaskContext;
using TaskId = uint32_t;
using TaskBody = std::function<void(TaskContext&)>;

// A task kind with its CPU variant.
TaskId register_task(std::string name, TaskBody cpu_variant);
// ... and a GPU variant: with GPU processors (--gpus) the runtime runs the
// task's points on them, its data in framebuffer memory (TaskContext::data
// gives device pointers) and its kernels on TaskContext::gpu()->stream.
TaskId register_task(std::string name, TaskBody cpu_variant, TaskBody gpu_variant);

// What a GPU variant gets besides its arguments: the CUDA stream of its GPU
// (a cudaStream_t) and a small device buffer with its pinned host mirror
// for scalar results. The runtime waits for the stream after the body.
struct GpuResources {
  int device = 0;
  void* stream = nullptr;
  std::byte* scratch = nullptr;       // device memory
  std::byte* host_scratch = nullptr;  // pinned host memory
  size_t scratch_bytes = 0;
};

// Launches a task over the domain [0, size): the runtime splits it into
// point tasks by the processor count and the minimum chunk size.
class TaskLauncher {
 public:
  TaskLauncher(TaskId task, int64_t size,
               std::source_location where = std::source_location::current());
  // Each point gets its share [lo, hi) of the domain as store elements
  // offset + [lo, hi).
  TaskLauncher& add_aligned(const Store& store, int64_t offset, Privilege privilege,
                            ReduceOp reduction = ReduceOp::Sum);
  // Each domain index i is a row: store elements
  // [offset + i*row_stride, offset + i*row_stride + width) (a 2-D view).
  TaskLauncher& add_rows(const Store& store, int64_t offset, int64_t row_stride, int64_t width,
                         Privilege privilege, ReduceOp reduction = ReduceOp::Sum);
  // Every point gets the same elements.
  TaskLauncher& add_whole(const Store& store, Range range, Privilege privilege,
                          ReduceOp reduction = ReduceOp::Sum);
  // How many elements one domain index stands for (a row's width), so the
  // minimum chunk size counts elements.
  TaskLauncher& set_elements_per_index(int64_t elements);
  TaskLauncher& add_scalar(double value);
  TaskLauncher& add_scalar(int64_t value);
  // The task waits for f; its points read the value with TaskContext::future.
  TaskLauncher& add_future(const Future& f);
  // The points' results (TaskContext::result) fold with op into the future
  // execute() returns (of type: F64, or I64 for exact integers).
  TaskLauncher& reduce_result(ReduceOp op, DType type = DType::F64);
  // Runs as one point on the dependent-partitioning processor (for
  // operations whose output depends on the data, such as nonzero), or, on a
  // run with GPUs and a task with a GPU variant, on a GPU.
  TaskLauncher& on_dependent_partitioning();
  // On a run of several ranks, every rank runs the whole domain (with every
  // argument's data brought to it) instead of its block: for tasks whose
  // result each rank needs itself, such as reading data back into the program.
  TaskLauncher& replicate();
  Future execute();

 private:
  struct Spec;
  std::shared_ptr<Spec> spec_;
};

class TaskContext {
 public:
  int64_t point() const { return point_; }
  size_t arguments() const { return ranges_.size(); }  // store arguments
  int64_t points() const { return points_; }
  // This point's share of the launch domain.
  Range domain() const { return domain_; }
  // The store elements argument `arg` covers for this point.
  Range range(size_t arg) const;
  // The first of those elements (for a reduction argument: this point's
  // private buffer, which starts at the reduction's identity).
  template <class T>
  T* data(size_t arg) const {
    return reinterpret_cast<T*>(data_[arg]);
  }
  double scalar(size_t i) const;
  int64_t scalar_int(size_t i) const;
  double future(size_t i) const;
  int64_t future_int(size_t i) const;
  // Scalar i and future i as they were given, with their type (an int64
  // stays exact, where scalar() and future() give it as a double).
  const Scalar& scalar_value(size_t i) const;
  const Scalar& future_value(size_t i) const;
  void result(double v);
  void result(int64_t v);
  // GPU variants: their GPU's stream and scratch; null on CPU processors.
  const GpuResources* gpu() const { return gpu_; }

 private:
  friend class ApiAccess;  // the runtime sets contexts up and reads results
  TaskContext(int64_t point, int64_t points, Range domain, std::vector<Range> ranges,
              std::vector<std::byte*> data, const std::vector<Scalar>* scalars,
              std::vector<Scalar> futures);

  int64_t point_, points_;
  Range domain_;
  std::vector<Range> ranges_;
  std::vector<std::byte*> data_;
  const std::vector<Scalar>* scalars_;
  std::vector<Scalar> futures_;
  Scalar result_;
  bool has_result_ = false;
  const GpuResources* gpu_ = nullptr;
};

// dst[range] = value (deferred; nothing is allocated for a store that has
// no data yet until an operation reads it).
void fill(const Store& dst, Range range, Scalar value,
          std::source_location where = std::source_location::current());
// dst[dst_offset .. +count) = src[src_offset .. +count), on a copy channel.
void copy(const Store& src, int64_t src_offset, const Store& dst, int64_t dst_offset, int64_t count,
          std::source_location where = std::source_location::current());
// Indirect copies on a copy channel, indices (int64) counted from the start
// of src_range (gather) or dst_range (scatter); an index outside the range
// stops the program with an error naming the operation. Copies run on the
// CPU, or with GPUs as device copies and kernels in a GPU's framebuffer; a
// scatter with repeated indices then leaves one of their values, not
// necessarily the last.
//   gather:  dst[dst_offset + i] = src[src_range.lo + index[index_offset + i]]
//   scatter: dst[dst_range.lo + index[index_offset + i]] = src[src_offset + i]
void gather(const Store& src, Range src_range, const Store& index, int64_t index_offset,
            const Store& dst, int64_t dst_offset, int64_t count,
            std::source_location where = std::source_location::current());
void scatter(const Store& src, int64_t src_offset, const Store& index, int64_t index_offset,
             const Store& dst, Range dst_range, int64_t count,
             std::source_location where = std::source_location::current());
// Blocks the top-level task until everything issued so far has finished.
void fence(std::source_location where = std::source_location::current());

// The user's line for code that is not C++: while a CallSite lives, the
// calls its thread makes are recorded (provenance, error messages, the
// out-of-memory report) as made at `file:line` instead of at the C++ line
// that made them. A front end (Python) opens one around each call it
// forwards; the innermost one counts. A file name whose bytes are not
// UTF-8 is recorded with those bytes written \xNN and each backslash
// doubled (trace_format/FORMAT.md section 3), as trace metadata keeps paths.
class CallSite {
 public:
  CallSite(std::string_view file, uint32_t line);
  ~CallSite();
  CallSite(const CallSite&) = delete;
  CallSite& operator=(const CallSite&) = delete;

 private:
  const char* saved_file_;
  uint32_t saved_line_;
};
// "file:line" of a call: the open CallSite's, else the C++ caller's.
std::string call_site_text(const std::source_location& where);

}  // namespace legato::rt
