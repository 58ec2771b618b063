// The out-of-memory report, in the form Legate users know: what could not
// be allocated for which operation, and which stores and instances hold the
// memory.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>

#include "recorder/recorder.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/stores.hpp"

namespace legato::rt {
namespace {

std::string hex16(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

}  // namespace

void RuntimeImpl::out_of_memory(const Operation& op, size_t arg, const StoreInstance& wanted,
                                MemoryPool& memory) {
  std::ostringstream out;
  const StoreImpl& store = *op.args[arg].store;
  out << "Failed to allocate " << wanted.bytes << " bytes on memory " << hex16(memory.id())
      << " (of kind " << memory.kind_label() << ") for store argument {" << arg << "} of "
      << (op.kind == trace::OpKind::Task ? "Task " : "") << op.name << "[" << op.where->text
      << "] (UID " << (op.uid & 0xffffffffffffULL) << ")\n";
  out << "corresponding to a LogicalStore allocated at " << store.provenance;
  uint64_t reserved = 0;
  // Stores by their newest instance, newest first, in the order the instances
  // were allocated (uids come from per-thread blocks, so they do not tell).
  using Age = std::pair<rec::Tick, trace::Uid>;  // ready tick, uid
  const auto age = [](const StoreInstance& i) { return Age{i.ready_tick, i.uid}; };
  // Each store's instances in this memory, newest first, read under the
  // instances lock (collection may free others meanwhile).
  struct Held {
    const StoreImpl* store;
    std::vector<const StoreInstance*> instances;
  };
  std::map<Age, Held, std::greater<>> stores;
  stores_->for_each_live([&](const StoreImpl& s) {
    Held held{&s, {}};
    for (const auto& inst : s.instances) {
      if (inst->memory != &memory) continue;
      reserved += inst->bytes;
      held.instances.push_back(inst.get());
    }
    if (held.instances.empty()) return;
    std::sort(held.instances.begin(), held.instances.end(),
              [&](const StoreInstance* a, const StoreInstance* b) { return age(*a) > age(*b); });
    stores[age(*held.instances.front())] = std::move(held);
  });
  out << " There is not enough space because Legato is reserving " << reserved
      << " of the available " << memory.capacity() << " bytes for the following LogicalStores:\n";
  for (const auto& [newest, held] : stores) {
    out << "LogicalStore allocated at " << held.store->provenance << ":\n";
    for (const StoreInstance* inst : held.instances) {
      out << "  Instance " << hex16(inst->uid) << " of size " << inst->bytes
          << " covering elements <" << inst->covered.lo << ">..<" << inst->covered.hi - 1 << ">\n"
          << "      created for an operation launched at " << inst->op_provenance << "\n";
    }
  }
  if (const uint64_t r = stores_->reduction_bytes(); r > 0) {
    out << "(another " << r << " bytes are in private reduction buffers of running tasks)\n";
  }
  out << "Every instance also takes " << memory.header_bytes()
      << " bytes of bookkeeping and is aligned to " << memory.alignment()
      << " bytes; the largest free block is " << memory.largest_free() << " bytes. Raise "
      << (memory.on_device()                          ? "--fbmem"
          : memory.kind() == trace::MemKind::ZeroCopy ? "--zcmem"
                                                      : "--sysmem")
      << ", or keep fewer large arrays alive at once.\n";
  fatal_error(trace::ErrorKind::OutOfMemory, out.str(), op.uid, memory.id());
}

}  // namespace legato::rt
