// What each kind of item does when it runs, and what it records.
#include <cstdio>
#include <cstring>

#include "recorder/recorder.hpp"
#include "runtime/gpu/device.hpp"
#include "runtime/gpu/nvtx.hpp"
#include "runtime/runtime_impl.hpp"

namespace legato::rt {
namespace {

trace::Time t(uint64_t tick) {
  return static_cast<trace::Time>(tick);
}

}  // namespace

void record_copy(const Item& item, trace::Uid op, uint32_t channel, trace::CopyKind kind,
                 uint64_t bytes, trace::Uid src, trace::Uid dst) {
  rec::record(trace::CopyRecord{item.uid(), op, channel, kind, bytes, src, dst, t(item.start_tick),
                                t(item.stop_tick), t(item.ready_tick), t(item.create_tick)});
}

namespace {

// A copy or fill one GPU ran: recorded with the device's times when CUPTI has them.
void record_device_copy(const Item& item, trace::Uid op, uint32_t channel, trace::CopyKind kind,
                        uint64_t bytes, trace::Uid src, trace::Uid dst) {
  runtime().gpus().record_device_copy(trace::CopyRecord{item.uid(), op, channel, kind, bytes, src,
                                                        dst, t(item.start_tick), t(item.stop_tick),
                                                        t(item.ready_tick), t(item.create_tick)});
}

// A CUDA call failed under an item of op: the program cannot go on.
[[noreturn]] void device_failure(const Operation& op, const std::string& what,
                                 const std::exception& e) {
  const std::string text = what + " of " + std::string(op.name) + " [" + op.where->text +
                           "] failed on a GPU: " + e.what();
  std::fprintf(stderr, "LEGATE ERROR: %s\n", text.c_str());
  fatal_exit(trace::ErrorKind::Fatal, text, op.uid);
}

// Runs f between a push and a pop of the item's uid for CUPTI, then waits for the stream.
template <class F>
void on_stream(Gpus& gpus, trace::Uid item, gpu::Stream stream, const std::string& what, F f) {
  gpus.push(item);
  try {
    f();
  } catch (...) {
    gpus.pop();
    throw;
  }
  gpus.pop();
  gpu::synchronize(stream, what);
}

}  // namespace

void record_instance(const Instance& inst, uint64_t destroy_tick, uint8_t flags) {
  if (!rec::active()) return;
  const StoreImpl* s = inst.store;
  rec::record(
      trace::InstanceRecord{inst.uid, inst.memory->id(), inst.op_uid, inst.bytes, s->id,
                            s->name_string, runtime().config.provenance ? s->where.string_id : 0,
                            t(inst.create_tick), t(inst.ready_tick), t(destroy_tick), flags});
}

void FutureState::contribute(const Scalar* v, trace::Uid from) {
  {
    std::lock_guard lock(mu);
    if (v != nullptr) {
      value = any ? reduce_scalars(op, value, *v) : *v;
      any = true;
    }
    last_producer = from;
    if (--remaining > 0) return;
    ready = true;
    ready_tick = rec::now();
  }
  cv.notify_all();
}

WorkItem::WorkItem(trace::Uid uid, std::shared_ptr<Operation> o)
    : Item(uid), op(std::move(o)), op_uid(op->uid) {
  op->outstanding.fetch_add(1, std::memory_order_relaxed);
}

void WorkItem::retire() {
  std::shared_ptr<Operation> o = std::move(op);
  runtime().item_finished(*o);
}

// --- point tasks ---

PointTask::PointTask(trace::Uid uid, std::shared_ptr<Operation> o, int64_t p, Range c)
    : WorkItem(uid, std::move(o)), point(p), chunk(c) {}

void PointTask::enqueue() {
  worker->push(shared_from_this());
}

void PointTask::run() {
  Operation& o = *op;
  std::vector<Range> ranges;
  std::vector<std::byte*> data;
  for (size_t i = 0; i < o.args.size(); ++i) {
    const StoreArg& a = o.args[i];
    const Range r = a.point_range(chunk);
    ranges.push_back(r);
    if (reduction_buffers.size() > i && reduction_buffers[i] != nullptr) {
      Instance* buf = reduction_buffers[i];
      fill_elements(a.store->type, buf->data, reduce_identity(a.reduction, a.store->type),
                    r.size());
      data.push_back(buf->data);
    } else if (instances.at(i) != nullptr && !r.empty()) {
      data.push_back(instances[i]->at(r.lo, a.store->elem_size));
    } else {
      data.push_back(nullptr);
    }
  }
  std::vector<Scalar> futures;
  for (const auto& f : o.futures) futures.push_back(f->value);
  TaskContext ctx(point, static_cast<int64_t>(o.chunks.size()), chunk, std::move(ranges),
                  std::move(data), &o.scalars, std::move(futures));
  try {
    const gpu::NvtxRange range(runtime().config.nsys, o.task_kind->name.c_str());
    if (gpu != nullptr) {
      run_on_gpu(ctx);
    } else {
      o.task_kind->cpu(ctx);
    }
  } catch (const std::exception& e) {
    const std::string text = "task " + std::string(o.name) + " [" + o.where->text + "] (point " +
                             std::to_string(point) + ") threw: " + e.what();
    std::fprintf(stderr, "LEGATE ERROR: %s\n", text.c_str());
    fatal_exit(trace::ErrorKind::Fatal, text, o.uid);
  }
  // On several ranks the points' share is combined with the other ranks' first.
  FutureState* result = o.partial ? o.partial.get() : o.result.get();
  if (result != nullptr)
    result->contribute(ctx.has_result() ? &ctx.result_value() : nullptr, uid());
}

void PointTask::run_on_gpu(TaskContext& ctx) {
  Gpus& gpus = runtime().gpus();
  ctx.set_gpu(&gpu->resources);
  on_stream(gpus, uid(), gpu->resources.stream, "its kernels", [&] { op->task_kind->gpu(ctx); });
  if (++gpu->tasks_run % Gpus::kSampleEvery == 0) gpus.sample_clock();
}

void PointTask::record_trace() {
  const Operation& o = *op;
  if (o.dep_part && gpu == nullptr) {
    rec::record(trace::DepPartRecord{uid(), o.uid, lane, o.name_string, t(start_tick), t(stop_tick),
                                     t(ready_tick), t(create_tick)});
  } else {
    const uint32_t variant = gpu != nullptr ? 2 : 1;  // as registered
    rec::record(trace::TaskRecord{uid(), o.uid, lane, o.task, variant, t(start_tick), t(stop_tick),
                                  t(ready_tick), t(create_tick)});
  }
}

// --- copies, fills, folds ---

CopyItem::CopyItem(trace::Uid uid, std::shared_ptr<Operation> o, Instance* s, Range sr, Instance* d,
                   Range dr)
    : WorkItem(uid, std::move(o)), src(s), src_range(sr), dst(d), dst_range(dr) {}

void CopyItem::enqueue() {
  runtime().copy_worker(*src->memory, *dst->memory).push(shared_from_this());
}

namespace {

// The element at position i of a run of elements of `size` bytes.
inline std::byte* element(std::byte* base, int64_t i, size_t size) {
  return base + static_cast<size_t>(i) * size;
}

[[noreturn]] void bad_index(const Operation& op, trace::CopyKind kind, int64_t index,
                            int64_t extent) {
  const std::string text = std::string(trace::to_string(kind)) + " [" + op.where->text +
                           "]: index " + std::to_string(index) +
                           " is out of bounds for an axis of size " + std::to_string(extent);
  std::fprintf(stderr, "LEGATE ERROR: %s\n", text.c_str());
  fatal_exit(trace::ErrorKind::Fatal, text, op.uid);
}

// What Nsight Systems calls a copy item's range.
const char* range_name(trace::CopyKind kind) {
  switch (kind) {
    case trace::CopyKind::Gather:
      return "Gather";
    case trace::CopyKind::Scatter:
      return "Scatter";
    default:
      return "Copy";
  }
}

}  // namespace

void CopyItem::run() {
  const size_t elem = dst->store->elem_size;
  const int64_t extent = kind == trace::CopyKind::Gather ? src_range.size() : dst_range.size();
  if (GpuProcessor* g = runtime().gpus().owner(*src->memory, *dst->memory)) {
    // Mapping puts all of a gather's or scatter's instances in one framebuffer.
    int64_t bad = 0;
    bool in_bounds = true;
    try {
      const gpu::NvtxRange nvtx(runtime().config.nsys, range_name(kind));
      on_stream(runtime().gpus(), uid(), g->copy_stream, "a copy", [&] {
        if (kind == trace::CopyKind::Copy) {
          gpu::copy_async(dst->at(dst_range.lo, elem), src->at(src_range.lo, elem),
                          static_cast<uint64_t>(dst_range.size()) * elem, g->copy_stream);
          return;
        }
        const gpu::IndirectCopy c{
            kind == trace::CopyKind::Gather,
            dst->at(dst_range.lo, elem),
            src->at(src_range.lo, elem),
            reinterpret_cast<const int64_t*>(index->at(index_range.lo, sizeof(int64_t))),
            index_range.size(),
            extent,
            elem};
        in_bounds =
            gpu::indirect_copy(c, g->copy_scratch, g->copy_host_scratch, &bad, g->copy_stream);
      });
    } catch (const std::exception& e) {
      device_failure(*op, "a copy", e);
    }
    if (!in_bounds) bad_index(*op, kind, bad, extent);
    return;
  }
  if (kind == trace::CopyKind::Copy) {
    std::memmove(dst->at(dst_range.lo, elem), src->at(src_range.lo, elem),
                 static_cast<size_t>(dst_range.size()) * elem);
    return;
  }
  const auto* idx = reinterpret_cast<const int64_t*>(index->at(index_range.lo, sizeof(int64_t)));
  std::byte* from = src->at(src_range.lo, elem);
  std::byte* to = dst->at(dst_range.lo, elem);
  const int64_t n = index_range.size();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = idx[i];
    if (j < 0 || j >= extent) bad_index(*op, kind, j, extent);
    if (kind == trace::CopyKind::Gather) {
      std::memcpy(element(to, i, elem), element(from, j, elem), elem);
    } else {
      std::memcpy(element(to, j, elem), element(from, i, elem), elem);
    }
  }
}

void CopyItem::record_trace() {
  const int64_t n = kind == trace::CopyKind::Copy ? dst_range.size() : index_range.size();
  RuntimeImpl& rt = runtime();
  const bool device = rt.gpus().owner(*src->memory, *dst->memory) != nullptr;
  (device ? record_device_copy : record_copy)(
      *this, op_uid, rt.channel(*src->memory, *dst->memory), kind,
      static_cast<uint64_t>(n) * dst->store->elem_size, src->uid, dst->uid);
}

FillItem::FillItem(trace::Uid uid, std::shared_ptr<Operation> o, Instance* d, Range r, Scalar v)
    : WorkItem(uid, std::move(o)), dst(d), range(r), value(v) {}

void FillItem::enqueue() {
  runtime().fill_worker(*dst->memory).push(shared_from_this());
}

void FillItem::run() {
  const size_t elem = dst->store->elem_size;
  if (GpuProcessor* g = runtime().gpus().owner(*dst->memory, *dst->memory)) {
    std::byte pattern[sizeof(int64_t)];
    fill_elements(dst->store->type, pattern, value, 1);
    try {
      const gpu::NvtxRange nvtx(runtime().config.nsys, "Fill");
      on_stream(runtime().gpus(), uid(), g->copy_stream, "a fill", [&] {
        gpu::fill_async(dst->at(range.lo, elem), pattern, elem, range.size(), g->copy_stream);
      });
    } catch (const std::exception& e) {
      device_failure(*op, "a fill", e);
    }
    return;
  }
  fill_elements(dst->store->type, dst->at(range.lo, elem), value, range.size());
}

void FillItem::record_trace() {
  RuntimeImpl& rt = runtime();
  const bool device = dst->memory->on_device();
  (device ? record_device_copy : record_copy)(
      *this, op_uid, rt.fill_channel(*dst->memory), trace::CopyKind::Fill,
      static_cast<uint64_t>(range.size()) * dst->store->elem_size, 0, dst->uid);
}

FoldItem::FoldItem(trace::Uid uid, std::shared_ptr<Operation> o, size_t a)
    : WorkItem(uid, std::move(o)), arg(a) {}

void FoldItem::enqueue() {
  runtime().copy_worker(*target->memory, *target->memory).push(shared_from_this());
}

void FoldItem::run() {
  const StoreArg& a = op->args[arg];
  const size_t elem = a.store->elem_size;
  for (Instance* buf : buffers) {
    reduce_elements(a.reduction, a.store->type, target->at(buf->covered.lo, elem), buf->data,
                    buf->covered.size());
  }
  // The private buffers are done with.
  const uint64_t now = rec::now();
  for (Instance* buf : buffers) bytes_ += buf->bytes;
  for (Instance* buf : buffers) {
    record_instance(*buf, now, 0);
    buf->memory->release(*buf);
    runtime().reduction_bytes.fetch_sub(buf->bytes);
    delete buf;
  }
  buffers.clear();
}

void FoldItem::record_trace() {
  record_copy(*this, op_uid, runtime().channel(*target->memory, *target->memory),
              trace::CopyKind::Reduce, bytes_, 0, target->uid);
}

// --- instance collection ---

CollectItem::CollectItem(trace::Uid uid, std::shared_ptr<Operation> o,
                         std::shared_ptr<StoreImpl> store, Instance* one)
    : WorkItem(uid, std::move(o)), store_(std::move(store)), one_(one) {}

void CollectItem::enqueue() {
  runtime().pipeline().push_ready(shared_from_this());
}

void CollectItem::run() {
  lane_ = rec::thread_lane();
  if (one_ != nullptr) {
    runtime().release_instance(*store_, one_);
  } else {
    runtime().release_instances(*store_);
  }
}

void CollectItem::record_trace() {
  static const uint32_t kName = rec::intern("Instance Collection");
  // Freeing a replaced instance is housekeeping, not work that prepared the
  // operation that replaced it: it is not recorded under that operation.
  rec::record(trace::MetaTaskRecord{uid(), lane_, kName, one_ != nullptr ? 0 : op_uid,
                                    t(start_tick), t(stop_tick), t(ready_tick), t(create_tick)});
}

}  // namespace legato::rt
