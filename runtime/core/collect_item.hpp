// Instance collection: freeing a store's instances on a utility thread.
#pragma once

#include <memory>

#include "runtime/core/work_item.hpp"

namespace legato::rt {

// Frees a store's instances once nothing uses them (or only `one` of them,
// an instance a wider one replaced), on a utility thread.
class CollectItem final : public WorkItem {
 public:
  CollectItem(trace::Uid uid, std::shared_ptr<Operation> op, std::shared_ptr<StoreImpl> store,
              StoreInstance* one = nullptr);

 protected:
  void enqueue() override;
  void run() override;
  void record_trace() override;

 private:
  std::shared_ptr<StoreImpl> store_;
  StoreInstance* one_;
  uint32_t lane_ = 0;
};

}  // namespace legato::rt
