#include "runtime/core/collect_item.hpp"

#include "recorder/recorder.hpp"
#include "runtime/core/pipeline.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/stores.hpp"

namespace legato::rt {
CollectItem::CollectItem(trace::Uid uid, std::shared_ptr<Operation> o,
                         std::shared_ptr<StoreImpl> store, StoreInstance* one)
    : WorkItem(uid, std::move(o)), store_(std::move(store)), one_(one) {}

void CollectItem::enqueue() {
  runtime().pipeline().push_ready(shared_from_this());
}

void CollectItem::run() {
  lane_ = rec::thread_lane();
  if (one_ != nullptr) {
    runtime().stores().release_instance(*store_, one_);
  } else {
    runtime().stores().release_instances(*store_);
  }
}

void CollectItem::record_trace() {
  static const uint32_t kName = rec::intern("Instance Collection");
  // Freeing a replaced instance is housekeeping, not work that prepared the
  // operation that replaced it: it is not recorded under that operation.
  rec::record(trace::MetaTaskRecord{uid(), lane_, kName, one_ != nullptr ? 0 : op_uid,
                                    rec::stamp(start_tick), rec::stamp(stop_tick),
                                    rec::stamp(ready_tick), rec::stamp(create_tick)});
}

}  // namespace legato::rt
