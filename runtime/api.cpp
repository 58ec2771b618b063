// The public task API on top of the runtime.
#include <algorithm>
#include <stdexcept>

#include "recorder/recorder.hpp"
#include "runtime/runtime_impl.hpp"

namespace legato::rt {
namespace {

RuntimeImpl& need_runtime(const char* what) {
  if (g_runtime == nullptr) {
    throw std::logic_error(std::string(what) +
                           ": the Legato runtime is not running; call legato::rt::start() first");
  }
  return *g_runtime;
}

void check_range(const Store& s, Range r, const std::string& who) {
  if (!s.valid()) throw std::invalid_argument(who + ": the store is empty (default-constructed)");
  if (r.lo < 0 || r.hi > s.size() || r.lo > r.hi) {
    throw std::out_of_range(who + ": elements [" + std::to_string(r.lo) + ", " +
                            std::to_string(r.hi) + ") are outside store '" + s.name() + "' of " +
                            std::to_string(s.size()) + " elements");
  }
}

}  // namespace

// --- Store ---

Store::Store(std::shared_ptr<StoreImpl> impl) : impl_(std::move(impl)) {
  impl_->user_handles.fetch_add(1);
}

Store::Store(const Store& other) : impl_(other.impl_) {
  if (impl_) impl_->user_handles.fetch_add(1);
}

Store& Store::operator=(const Store& other) {
  if (this != &other) {
    Store copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Store::Store(Store&& other) noexcept : impl_(std::move(other.impl_)) {}

Store& Store::operator=(Store&& other) noexcept {
  if (this != &other) {
    drop();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

Store::~Store() {
  drop();
}

void Store::drop() {
  if (!impl_) return;
  if (impl_->user_handles.fetch_sub(1) == 1 && g_runtime != nullptr)
    g_runtime->store_released(impl_);
  impl_.reset();
}

int64_t Store::size() const {
  return impl_ ? impl_->size : 0;
}
DType Store::dtype() const {
  return impl_ ? impl_->type : DType::F64;
}
const std::string& Store::name() const {
  static const std::string none;
  return impl_ ? impl_->name : none;
}

Store create_store(int64_t size, DType type, std::string name, std::source_location where) {
  RuntimeImpl& rt = need_runtime("create_store");
  if (size < 0)
    throw std::invalid_argument("create_store at " + where_text(where) + ": negative size " +
                                std::to_string(size));
  const uint64_t id = rt.next_store_id.fetch_add(1);
  // An unnamed store has no string in the trace (its id says which it is):
  // array programs make thousands of temporaries.
  const bool named = !name.empty();
  if (!named) name = "store" + std::to_string(id);
  auto impl = std::make_shared<StoreImpl>(id, size, type, std::move(name), provenance_of(where));
  impl->name_string = named ? rt.string(impl->name) : 0;
  {
    std::lock_guard lock(rt.stores_mu);
    rt.live_stores.insert(impl.get());
  }
  return Store(std::move(impl));
}

StoreImpl::StoreImpl(uint64_t i, int64_t n, DType t, std::string nm, const Provenance& w)
    : id(i),
      size(n),
      type(t),
      elem_size(dtype_size(t)),
      name(std::move(nm)),
      where(w),
      provenance(w.text) {}

Instance* StoreImpl::smallest_covering(Range r, const MemoryPool* memory) const {
  Instance* best = nullptr;
  for (auto it = by_lo_.upper_bound(r.lo); it != by_lo_.begin();) {
    --it;
    if (it->first < r.hi - longest_) break;
    const Instance* inst = it->second;
    if (inst->memory == memory && inst->covered.contains(r) &&
        (best == nullptr || inst->bytes < best->bytes)) {
      best = it->second;
    }
  }
  return best;
}

Range StoreImpl::retire_overlapping(Range r, const MemoryPool* memory,
                                    std::vector<Instance*>& retired) {
  for (bool grew = true; grew;) {
    grew = false;
    for (auto it = by_lo_.begin(); it != by_lo_.end();) {
      Instance* inst = it->second;
      if (inst->memory != memory || !inst->covered.overlaps(r)) {
        ++it;
        continue;
      }
      r = {std::min(r.lo, inst->covered.lo), std::max(r.hi, inst->covered.hi)};
      inst->retired = true;
      retired.push_back(inst);
      it = by_lo_.erase(it);
      grew = true;
    }
  }
  return r;
}

bool StoreImpl::take_instance(Instance* inst, std::unique_ptr<Instance>& out) {
  auto it = std::find_if(instances.begin(), instances.end(),
                         [&](const std::unique_ptr<Instance>& i) { return i.get() == inst; });
  if (it == instances.end()) return false;
  out = std::move(*it);
  instances.erase(it);
  return true;
}

Instance* StoreImpl::add_instance(std::unique_ptr<Instance> inst) {
  Instance* raw = inst.get();
  by_lo_.emplace(raw->covered.lo, raw);
  longest_ = std::max(longest_, raw->covered.size());
  instances.push_back(std::move(inst));
  return raw;
}

void StoreImpl::clear_instances(std::vector<std::unique_ptr<Instance>>& out) {
  out.swap(instances);
  by_lo_.clear();
  longest_ = 0;
}

// --- Future ---

bool Future::ready() const {
  if (!state_) return false;
  std::lock_guard lock(state_->mu);
  return state_->ready;
}

double Future::get() const {
  if (!state_) throw std::logic_error("Future::get on an empty future");
  if (g_runtime != nullptr) {
    g_runtime->wait([&] { return state_->ready; }, state_->cv, state_->mu,
                    [&] {
                      return std::pair{state_->last_producer, state_->ready_tick};
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

// --- tasks ---

TaskId register_task(std::string name, TaskBody cpu_variant) {
  return register_task(std::move(name), std::move(cpu_variant), TaskBody());
}

TaskId register_task(std::string name, TaskBody cpu_variant, TaskBody gpu_variant) {
  RuntimeImpl& rt = need_runtime("register_task");
  if (!cpu_variant)
    throw std::invalid_argument("register_task(" + name + "): the CPU variant is empty");
  std::lock_guard lock(rt.tasks_mu);
  const TaskId id = RuntimeImpl::kFirstTaskId + static_cast<TaskId>(rt.tasks.size());
  if (rt.profiling) {
    rec::add_task_kind(id, name);
    rec::add_variant(id, 1, trace::ProcKind::Cpu, name + " (CPU)");
    if (gpu_variant) rec::add_variant(id, 2, trace::ProcKind::GpuHost, name + " (GPU)");
  }
  const uint32_t name_string = rec::intern(name);
  rt.tasks.push_back(
      {std::move(name), name_string, std::move(cpu_variant), std::move(gpu_variant)});
  return id;
}

struct TaskLauncher::Spec {
  TaskId task;
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
  RuntimeImpl& rt = need_runtime("TaskLauncher");
  std::lock_guard lock(rt.tasks_mu);
  if (task < RuntimeImpl::kFirstTaskId || task - RuntimeImpl::kFirstTaskId >= rt.tasks.size()) {
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
  spec_->args.push_back({store.impl(), true, offset, {}, privilege, reduction});
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
  StoreArg a{store.impl(), true, offset, {}, privilege, reduction, row_stride, width};
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
  spec_->args.push_back({store.impl(), false, 0, range, privilege, reduction});
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
  spec_->futures.push_back(f.state());
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
  {
    std::lock_guard lock(rt.tasks_mu);
    const TaskKindInfo& kind = rt.tasks[spec_->task - RuntimeImpl::kFirstTaskId];
    op->task_kind = &kind;
    op->name = kind.name;
    op->name_string = kind.name_string;
  }
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
  return Future(result);
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
void TaskContext::result(double v) {
  result_ = Scalar(v);
  has_result_ = true;
}
void TaskContext::result(int64_t v) {
  result_ = Scalar(v);
  has_result_ = true;
}

// --- fill, copy, fence ---

// A fill, copy or collection operation: named after what it does.
std::shared_ptr<Operation> runtime_op(RuntimeImpl& rt, trace::OpKind kind,
                                      const Provenance& where) {
  auto op = std::make_shared<Operation>();
  op->uid = rt.new_uid();
  op->kind = kind;
  op->name = trace::to_string(kind);
  op->name_string = rec::intern(op->name);
  op->where = &where;
  return op;
}

void fill(const Store& dst, Range range, Scalar value, std::source_location where) {
  RuntimeImpl& rt = need_runtime("fill");
  check_range(dst, range, "fill at " + where_text(where));
  if (range.empty()) return;
  auto op = runtime_op(rt, trace::OpKind::Fill, provenance_of(where));
  op->args.push_back({dst.impl(), false, 0, range, Privilege::Write, ReduceOp::Sum});
  op->fill_value = value;
  rt.submit(std::move(op));
}

void copy(const Store& src, int64_t src_offset, const Store& dst, int64_t dst_offset, int64_t count,
          std::source_location where) {
  RuntimeImpl& rt = need_runtime("copy");
  const std::string who = "copy at " + where_text(where);
  check_range(src, {src_offset, src_offset + count}, who + " (source)");
  check_range(dst, {dst_offset, dst_offset + count}, who + " (destination)");
  if (src.dtype() != dst.dtype()) {
    throw std::invalid_argument(who + ": source is " + dtype_name(src.dtype()) +
                                ", destination is " + dtype_name(dst.dtype()) + "; convert first");
  }
  if (count == 0) return;
  auto op = runtime_op(rt, trace::OpKind::Copy, provenance_of(where));
  op->args.push_back(
      {src.impl(), false, 0, {src_offset, src_offset + count}, Privilege::Read, ReduceOp::Sum});
  op->args.push_back(
      {dst.impl(), false, 0, {dst_offset, dst_offset + count}, Privilege::Write, ReduceOp::Sum});
  rt.submit(std::move(op));
}

namespace {
void indirect(trace::CopyKind kind, const Store& src, Range src_range, const Store& index,
              Range index_range, const Store& dst, Range dst_range, std::source_location where) {
  RuntimeImpl& rt = need_runtime(kind == trace::CopyKind::Gather ? "gather" : "scatter");
  const std::string who = std::string(trace::to_string(kind)) + " at " + where_text(where);
  check_range(src, src_range, who + " (source)");
  check_range(index, index_range, who + " (indices)");
  check_range(dst, dst_range, who + " (destination)");
  if (index.dtype() != DType::I64) {
    throw std::invalid_argument(who + ": indices must be int64, not " +
                                std::string(dtype_name(index.dtype())));
  }
  if (src.dtype() != dst.dtype()) {
    throw std::invalid_argument(who + ": source is " + dtype_name(src.dtype()) +
                                ", destination is " + dtype_name(dst.dtype()) + "; convert first");
  }
  if (index_range.empty()) return;
  auto op = runtime_op(rt, trace::OpKind::Copy, provenance_of(where));
  op->copy_kind = kind;
  const Privilege dst_privilege =
      kind == trace::CopyKind::Scatter ? Privilege::ReadWrite : Privilege::Write;
  op->args.push_back({src.impl(), false, 0, src_range, Privilege::Read, ReduceOp::Sum});
  op->args.push_back({dst.impl(), false, 0, dst_range, dst_privilege, ReduceOp::Sum});
  op->args.push_back({index.impl(), false, 0, index_range, Privilege::Read, ReduceOp::Sum});
  rt.submit(std::move(op));
}
}  // namespace

void gather(const Store& src, Range src_range, const Store& index, int64_t index_offset,
            const Store& dst, int64_t dst_offset, int64_t count, std::source_location where) {
  indirect(trace::CopyKind::Gather, src, src_range, index, {index_offset, index_offset + count},
           dst, {dst_offset, dst_offset + count}, where);
}

void scatter(const Store& src, int64_t src_offset, const Store& index, int64_t index_offset,
             const Store& dst, Range dst_range, int64_t count, std::source_location where) {
  indirect(trace::CopyKind::Scatter, src, {src_offset, src_offset + count}, index,
           {index_offset, index_offset + count}, dst, dst_range, where);
}

void fence(std::source_location) {
  need_runtime("fence").fence();
}

}  // namespace legato::rt
