// An item that belongs to an operation: the base of point tasks, copies,
// fills, folds, collections and network exchanges.
#pragma once

#include <memory>
#include <vector>

#include "runtime/core/operation.hpp"

namespace legato::rt {

// An item that belongs to an operation and takes part in its bookkeeping.
class WorkItem : public Item {
 public:
  WorkItem(trace::Uid uid, std::shared_ptr<Operation> op);

  struct Access {
    StoreImpl* store;
    Range range;
    Privilege privilege;
  };
  std::vector<Access> accesses;   // what the dependence analysis orders it by
  std::shared_ptr<Operation> op;  // dropped when it finishes
  const trace::Uid op_uid;

 protected:
  void retire() override;
};

}  // namespace legato::rt
