// The out-of-memory report, in the form Legate users know: what could not
// be allocated for which operation, and which stores and instances hold the
// memory.
#include <cinttypes>
#include <cstdio>
#include <map>
#include <sstream>

#include "recorder/recorder.hpp"
#include "runtime/runtime_impl.hpp"

namespace legato::rt {
namespace {

std::string hex16(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

}  // namespace

void RuntimeImpl::out_of_memory(const Operation& op, size_t arg, const Instance& wanted,
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
  using Age = std::pair<uint64_t, trace::Uid>;  // ready tick, uid
  const auto age = [](const Instance& i) { return Age{i.ready_tick, i.uid}; };
  std::map<Age, const StoreImpl*, std::greater<>> stores;
  {
    std::lock_guard lock(instances_mu);
    std::lock_guard stores_lock(stores_mu);
    for (const StoreImpl* s : live_stores) {
      Age newest{0, 0};
      for (const auto& inst : s->instances) {
        if (inst->memory != &memory) continue;
        reserved += inst->bytes;
        newest = std::max(newest, age(*inst));
      }
      if (newest.second != 0) stores[newest] = s;
    }
    out << " There is not enough space because Legato is reserving " << reserved
        << " of the available " << memory.capacity() << " bytes for the following LogicalStores:\n";
    for (const auto& [newest, s] : stores) {
      out << "LogicalStore allocated at " << s->provenance << ":\n";
      std::vector<const Instance*> insts;
      for (const auto& inst : s->instances) {
        if (inst->memory == &memory) insts.push_back(inst.get());
      }
      std::sort(insts.begin(), insts.end(),
                [&](const Instance* a, const Instance* b) { return age(*a) > age(*b); });
      for (const Instance* inst : insts) {
        out << "  Instance " << hex16(inst->uid) << " of size " << inst->bytes
            << " covering elements <" << inst->covered.lo << ">..<" << inst->covered.hi - 1 << ">\n"
            << "      created for an operation launched at " << inst->op_provenance << "\n";
      }
    }
  }
  if (const uint64_t r = reduction_bytes.load(); r > 0) {
    out << "(another " << r << " bytes are in private reduction buffers of running tasks)\n";
  }
  out << "Every instance also takes " << MemoryPool::kHeaderBytes
      << " bytes of bookkeeping and is aligned to " << MemoryPool::kAlignment
      << " bytes; the largest free block is " << memory.largest_free() << " bytes. Raise "
      << (memory.on_device()                          ? "--fbmem"
          : memory.kind() == trace::MemKind::ZeroCopy ? "--zcmem"
                                                      : "--sysmem")
      << ", or keep fewer large arrays alive at once.\n";
  const std::string report = out.str();
  std::fprintf(stderr, "LEGATE ERROR: %s", report.c_str());
  std::fflush(stderr);
  fatal_exit(trace::ErrorKind::OutOfMemory, report, op.uid, memory.id());
}

}  // namespace legato::rt
