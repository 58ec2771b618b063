// What the public API's classes (legato.hpp) keep from programs, opened to
// the runtime: a store handle's implementation, a future's state, and
// setting up a point task's context and reading its result. Tests of task
// bodies use it to run a variant by hand.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "runtime/legato.hpp"

namespace legato::rt {

class ApiAccess {
 public:
  static const std::shared_ptr<StoreImpl>& impl(const Store& s) { return s.impl_; }
  static const std::shared_ptr<FutureState>& state(const Future& f) { return f.state_; }
  static Future future(std::shared_ptr<FutureState> state) { return Future(std::move(state)); }

  static TaskContext context(int64_t point, int64_t points, Range domain, std::vector<Range> ranges,
                             std::vector<std::byte*> data, const std::vector<Scalar>* scalars,
                             std::vector<Scalar> futures) {
    return TaskContext(point, points, domain, std::move(ranges), std::move(data), scalars,
                       std::move(futures));
  }
  static void set_gpu(TaskContext& ctx, const GpuResources* gpu) { ctx.gpu_ = gpu; }
  // The point's result, or nullptr when it gave none.
  static const Scalar* result(const TaskContext& ctx) {
    return ctx.has_result_ ? &ctx.result_ : nullptr;
  }
};

}  // namespace legato::rt
