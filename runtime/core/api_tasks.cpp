// The public task API: registering tasks, launching them, what a point
// task sees (TaskContext), and futures.
#include <optional>
#include <stdexcept>
#include <string>

#include "runtime/core/api_access.hpp"
#include "runtime/core/api_support.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/task_registry.hpp"
#include "runtime/core/window.hpp"

namespace legato::rt {

TaskId register_task(std::string name, TaskBody cpu_variant) {
  return register_task(std::move(name), std::move(cpu_variant), TaskBody());
}

TaskId register_task(std::string name, TaskBody cpu_variant, TaskBody gpu_variant) {
  RuntimeImpl& rt = need_runtime("register_task");
  if (!cpu_variant)
    throw std::invalid_argument("register_task(" + name + "): the CPU variant is empty");
  return rt.tasks().add(std::move(name), std::move(cpu_variant), std::move(gpu_variant));
}

struct TaskLauncher::Spec {
  TaskId task;
  const TaskKindInfo* kind;
  int64_t domain;
  const Provenance* where;
  std::vector<StoreArg> args;
  std::vector<Scalar> scalars;
  std::vector<std::shared_ptr<FutureState>> futures;
  std::optional<ReduceOp> result;
  bool dep_part = false;
  bool replicate = false;
  int64_t unit_elements = 1;
  DType result_type = DType::F64;
};

TaskLauncher::TaskLauncher(TaskId task, int64_t size, std::source_location where)
    : spec_(std::make_shared<Spec>()) {
  spec_->task = task;
  spec_->domain = size;
  spec_->where = &provenance_of(where);
  spec_->kind = need_runtime("TaskLauncher").tasks().find(task);
  if (spec_->kind == nullptr) {
    throw std::invalid_argument("TaskLauncher at " + spec_->where->text + ": task id " +
                                std::to_string(task) + " was not registered");
  }
  if (size < 0)
    throw std::invalid_argument("TaskLauncher at " + spec_->where->text + ": negative domain size");
}

TaskLauncher& TaskLauncher::add_aligned(const Store& store, int64_t offset, Privilege privilege,
                                        ReduceOp reduction) {
  check_range(
      store, {offset, offset + spec_->domain},
      "TaskLauncher at " + spec_->where->text + ", argument " + std::to_string(spec_->args.size()));
  spec_->args.push_back({ApiAccess::impl(store), true, offset, {}, privilege, reduction});
  return *this;
}

TaskLauncher& TaskLauncher::add_rows(const Store& store, int64_t offset, int64_t row_stride,
                                     int64_t width, Privilege privilege, ReduceOp reduction) {
  const std::string who =
      "TaskLauncher at " + spec_->where->text + ", argument " + std::to_string(spec_->args.size());
  if (width < 0 || row_stride < width) {
    throw std::invalid_argument(who + ": rows of width " + std::to_string(width) +
                                " do not fit a row stride of " + std::to_string(row_stride));
  }
  StoreArg a{ApiAccess::impl(store), true, offset, {}, privilege, reduction, row_stride, width};
  check_range(store, spec_->domain > 0 ? a.op_range(spec_->domain) : Range{offset, offset}, who);
  spec_->args.push_back(std::move(a));
  return *this;
}

TaskLauncher& TaskLauncher::set_elements_per_index(int64_t elements) {
  spec_->unit_elements = std::max<int64_t>(1, elements);
  return *this;
}

TaskLauncher& TaskLauncher::add_whole(const Store& store, Range range, Privilege privilege,
                                      ReduceOp reduction) {
  check_range(
      store, range,
      "TaskLauncher at " + spec_->where->text + ", argument " + std::to_string(spec_->args.size()));
  spec_->args.push_back({ApiAccess::impl(store), false, 0, range, privilege, reduction});
  return *this;
}

TaskLauncher& TaskLauncher::add_scalar(double value) {
  spec_->scalars.emplace_back(value);
  return *this;
}

TaskLauncher& TaskLauncher::add_scalar(int64_t value) {
  spec_->scalars.emplace_back(value);
  return *this;
}

TaskLauncher& TaskLauncher::add_future(const Future& f) {
  if (!f.valid())
    throw std::invalid_argument("TaskLauncher at " + spec_->where->text + ": an empty future");
  spec_->futures.push_back(ApiAccess::state(f));
  return *this;
}

TaskLauncher& TaskLauncher::reduce_result(ReduceOp op, DType type) {
  spec_->result = op;
  spec_->result_type = type == DType::I64 ? DType::I64 : DType::F64;
  return *this;
}

TaskLauncher& TaskLauncher::on_dependent_partitioning() {
  spec_->dep_part = true;
  return *this;
}

TaskLauncher& TaskLauncher::replicate() {
  spec_->replicate = true;
  return *this;
}

Future TaskLauncher::execute() {
  RuntimeImpl& rt = need_runtime("TaskLauncher::execute");
  auto op = std::make_shared<Operation>();
  op->uid = rt.new_uid();
  op->kind = trace::OpKind::Task;
  op->task = spec_->task;
  op->task_kind = spec_->kind;
  op->name = spec_->kind->name;
  op->name_string = spec_->kind->name_string;
  op->where = spec_->where;
  op->domain = spec_->domain;
  op->dep_part = spec_->dep_part;
  op->replicate = spec_->replicate;
  op->unit_elements = spec_->unit_elements;
  op->args = spec_->args;
  op->scalars = spec_->scalars;
  op->futures = spec_->futures;
  std::shared_ptr<FutureState> result;
  if (spec_->result) {
    result = std::make_shared<FutureState>();
    result->op = *spec_->result;
    result->value = reduce_identity(*spec_->result, spec_->result_type);
    op->result = result;
  }
  rt.submit(std::move(op));
  return ApiAccess::future(result);
}

TaskContext::TaskContext(int64_t point, int64_t points, Range domain, std::vector<Range> ranges,
                         std::vector<std::byte*> data, const std::vector<Scalar>* scalars,
                         std::vector<Scalar> futures)
    : point_(point),
      points_(points),
      domain_(domain),
      ranges_(std::move(ranges)),
      data_(std::move(data)),
      scalars_(scalars),
      futures_(std::move(futures)) {}

Range TaskContext::range(size_t arg) const {
  return ranges_.at(arg);
}
double TaskContext::scalar(size_t i) const {
  return scalars_->at(i).as_double();
}
int64_t TaskContext::scalar_int(size_t i) const {
  return scalars_->at(i).as_int();
}
double TaskContext::future(size_t i) const {
  return futures_.at(i).as_double();
}
int64_t TaskContext::future_int(size_t i) const {
  return futures_.at(i).as_int();
}
const Scalar& TaskContext::scalar_value(size_t i) const {
  return scalars_->at(i);
}
const Scalar& TaskContext::future_value(size_t i) const {
  return futures_.at(i);
}
void TaskContext::result(double v) {
  result_ = Scalar(v);
  has_result_ = true;
}
void TaskContext::result(int64_t v) {
  result_ = Scalar(v);
  has_result_ = true;
}

bool Future::ready() const {
  if (!state_) return false;
  std::lock_guard lock(state_->mu);
  return state_->ready;
}

double Future::get() const {
  if (!state_) throw std::logic_error("Future::get on an empty future");
  // In a fork the value may never come (the threads that make it are the
  // parent's), and the lock may have been held by one of them.
  if (runtime_left_in_parent()) no_runtime("Future::get");
  if (g_runtime != nullptr) {
    g_runtime->window().wait(
        [&] { return state_->ready; }, state_->cv, state_->mu,
        [&] {
          return OperationWindow::Event{state_->last_producer, state_->ready_tick};
        });
  }
  std::lock_guard lock(state_->mu);
  return state_->value.as_double();
}

int64_t Future::get_int() const {
  get();
  std::lock_guard lock(state_->mu);
  return state_->value.as_int();
}

}  // namespace legato::rt
