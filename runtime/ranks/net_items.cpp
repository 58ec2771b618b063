#include "runtime/ranks/net_items.hpp"

#include "runtime/core/copy_items.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/network.hpp"

namespace legato::rt {
namespace {

// Transfer uids live apart from the recorder's (which count up from 1).
constexpr uint64_t kTransferUids = uint64_t{1} << 47;
}  // namespace

void NetItem::enqueue() {
  runtime().network().push(std::static_pointer_cast<NetItem>(shared_from_this()));
}

trace::Uid TransferItem::uid_for(int to, uint64_t sequence) {
  return trace::make_uid(static_cast<uint32_t>(to), kTransferUids | sequence);
}

TransferItem::TransferItem(std::shared_ptr<Operation> o, StoreImpl* s, Range r, int f, int t,
                           size_t a, uint64_t seq)
    : NetItem(uid_for(t, seq), std::move(o)),
      store(s),
      range(r),
      from(f),
      to(t),
      arg(a),
      sequence(seq) {
  accesses.push_back({s, r, sending() ? Privilege::Read : Privilege::Write});
}

bool TransferItem::sending() const {
  return from == comm::rank();
}

uint64_t TransferItem::bytes() const {
  return static_cast<uint64_t>(range.size()) * store->elem_size;
}

void TransferItem::record_trace() {
  if (sending()) return;  // one transfer, one record: the receiver's
  record_copy(*this, op_uid,
              runtime().network_channel(from, source_memory, source_name, *instance->memory),
              trace::CopyKind::Copy, bytes(), 0, instance->uid);
}

AllreduceItem::AllreduceItem(std::shared_ptr<Operation> o, uint64_t seq)
    : NetItem(runtime().new_uid(), std::move(o)), sequence(seq) {}

Scalar AllreduceItem::local() const {
  std::lock_guard lock(op->partial->mu);
  return op->partial->value;
}

void AllreduceItem::deliver(const Scalar& combined) {
  op->result->contribute(&combined, uid());
}

void AllreduceItem::record_trace() {
  record_copy(*this, op_uid, runtime().network().allreduce_channel(), trace::CopyKind::Reduce,
              sizeof(double), 0, 0);
}

}  // namespace legato::rt
