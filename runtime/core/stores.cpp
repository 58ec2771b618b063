#include "runtime/core/stores.hpp"

#include "recorder/recorder.hpp"
#include "runtime/core/provenance.hpp"

namespace legato::rt {

void Stores::add(StoreImpl* store) {
  std::lock_guard lock(stores_mu_);
  live_.insert(store);
}

std::vector<StoreImpl*> Stores::live() const {
  std::lock_guard lock(stores_mu_);
  return {live_.begin(), live_.end()};
}

StoreInstance* Stores::add_instance(StoreImpl& store, std::unique_ptr<StoreInstance> inst) {
  std::lock_guard lock(instances_mu_);
  return store.add_instance(std::move(inst));
}

void Stores::release_instances(StoreImpl& store) {
  std::vector<std::unique_ptr<StoreInstance>> instances;
  {
    std::lock_guard lock(instances_mu_);
    store.clear_instances(instances);
  }
  const rec::Tick now = rec::now();
  for (auto& inst : instances) {
    record_instance(*inst, now, 0);
    inst->memory->release(*inst);
  }
  store.valid.clear();
  store.access.clear();
  std::lock_guard lock(stores_mu_);
  live_.erase(&store);
}

void Stores::release_instance(StoreImpl& store, StoreInstance* inst) {
  std::unique_ptr<StoreInstance> taken;
  {
    std::lock_guard lock(instances_mu_);
    if (!store.take_instance(inst, taken)) return;
  }
  record_instance(*taken, rec::now(), 0);
  taken->memory->release(*taken);
}

void Stores::free_reduction_buffer(StoreInstance* buf, rec::Tick now) {
  record_instance(*buf, now, 0);
  buf->memory->release(*buf);
  reduction_bytes_ -= buf->bytes;
  delete buf;
}

void Stores::record_live_instances() const {
  const rec::Tick now = rec::now();
  for_each_live([&](const StoreImpl& s) {
    for (const auto& inst : s.instances) record_instance(*inst, now, trace::kInstanceAliveAtEnd);
  });
}

void Stores::record_instance(const StoreInstance& inst, rec::Tick destroy_tick,
                             uint8_t flags) const {
  if (!rec::active()) return;
  const StoreImpl* s = inst.store;
  rec::record(trace::InstanceRecord{inst.uid, inst.memory->id(), inst.op_uid, inst.bytes, s->id,
                                    s->name_string, provenance_ ? s->where.string_id : 0,
                                    rec::stamp(inst.create_tick), rec::stamp(inst.ready_tick),
                                    rec::stamp(destroy_tick), flags});
}

}  // namespace legato::rt
