#include "runtime/core/point_task.hpp"

#include <string>

#include "recorder/recorder.hpp"
#include "runtime/core/api_access.hpp"
#include "runtime/core/device_work.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/task_registry.hpp"
#include "runtime/core/workers.hpp"
#include "runtime/gpu/nvtx.hpp"

namespace legato::rt {
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
      StoreInstance* buf = reduction_buffers[i];
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
  TaskContext ctx =
      ApiAccess::context(point, static_cast<int64_t>(o.chunks.size()), chunk, std::move(ranges),
                         std::move(data), &o.scalars, std::move(futures));
  try {
    const gpu::NvtxRange range(runtime().config().nsys, o.task_kind->name.c_str());
    if (gpu != nullptr) {
      run_on_gpu(ctx);
    } else {
      o.task_kind->cpu(ctx);
    }
  } catch (const std::exception& e) {
    const std::string text = "task " + std::string(o.name) + " [" + o.where->text + "] (point " +
                             std::to_string(point) + ") threw: " + e.what();
    fatal_error(trace::ErrorKind::Fatal, text, o.uid);
  }
  // On several ranks the points' share is combined with the other ranks' first.
  FutureState* result = o.partial ? o.partial.get() : o.result.get();
  if (result != nullptr) result->contribute(ApiAccess::result(ctx), uid());
}

void PointTask::run_on_gpu(TaskContext& ctx) {
  Gpus& gpus = runtime().gpus();
  ApiAccess::set_gpu(ctx, &gpu->resources);
  on_stream(gpus, uid(), gpu->resources.stream, "its kernels", [&] { op->task_kind->gpu(ctx); });
  if (++gpu->tasks_run % Gpus::kSampleEvery == 0) gpus.sample_clock();
}

void PointTask::record_trace() {
  const Operation& o = *op;
  if (o.dep_part && gpu == nullptr) {
    rec::record(trace::DepPartRecord{uid(), o.uid, lane, o.name_string, rec::stamp(start_tick),
                                     rec::stamp(stop_tick), rec::stamp(ready_tick),
                                     rec::stamp(create_tick)});
  } else {
    const uint32_t variant = gpu != nullptr ? 2 : 1;  // as registered
    rec::record(trace::TaskRecord{uid(), o.uid, lane, o.task, variant, rec::stamp(start_tick),
                                  rec::stamp(stop_tick), rec::stamp(ready_tick),
                                  rec::stamp(create_tick)});
  }
}

}  // namespace legato::rt
