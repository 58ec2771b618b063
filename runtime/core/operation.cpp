#include "runtime/core/operation.hpp"

#include "recorder/recorder.hpp"
#include "runtime/core/runtime_impl.hpp"

namespace legato::rt {

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

}  // namespace legato::rt
