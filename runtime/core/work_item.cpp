#include "runtime/core/work_item.hpp"

#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/window.hpp"

namespace legato::rt {

WorkItem::WorkItem(trace::Uid uid, std::shared_ptr<Operation> o)
    : Item(uid), op(std::move(o)), op_uid(op->uid) {
  op->outstanding.fetch_add(1, std::memory_order_relaxed);
}

void WorkItem::retire() {
  std::shared_ptr<Operation> o = std::move(op);
  runtime().window().item_finished(*o, uid());
}

}  // namespace legato::rt
