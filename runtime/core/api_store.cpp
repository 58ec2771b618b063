// The public Store handle and create_store.
#include <memory>
#include <string>

#include "runtime/core/api_support.hpp"
#include "runtime/core/provenance.hpp"
#include "runtime/core/store.hpp"
#include "runtime/core/stores.hpp"

namespace legato::rt {

Store::Store(std::shared_ptr<StoreImpl> impl) : impl_(std::move(impl)) {
  impl_->user_handles.fetch_add(1);
}

Store::Store(const Store& other) : impl_(other.impl_) {
  if (impl_) impl_->user_handles.fetch_add(1);
}

Store& Store::operator=(const Store& other) {
  if (this != &other) {
    Store copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Store::Store(Store&& other) noexcept : impl_(std::move(other.impl_)) {}

Store& Store::operator=(Store&& other) noexcept {
  if (this != &other) {
    drop();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

Store::~Store() {
  drop();
}

void Store::drop() {
  if (!impl_) return;
  if (impl_->user_handles.fetch_sub(1) == 1 && g_runtime != nullptr)
    g_runtime->store_released(impl_);
  impl_.reset();
}

int64_t Store::size() const {
  return impl_ ? impl_->size : 0;
}
DType Store::dtype() const {
  return impl_ ? impl_->type : DType::F64;
}
void Store::stencil_hint(int64_t low, int64_t high) const {
  if (low < 0 || high < 0)
    throw std::invalid_argument("stencil_hint: offsets must not be negative (" +
                                std::to_string(low) + ", " + std::to_string(high) + ")");
  if (!impl_) return;
  impl_->halo_low.store(low, std::memory_order_relaxed);
  impl_->halo_high.store(high, std::memory_order_relaxed);
}

const std::string& Store::name() const {
  static const std::string none;
  return impl_ ? impl_->name : none;
}

Store create_store(int64_t size, DType type, std::string name, std::source_location where) {
  RuntimeImpl& rt = need_runtime("create_store");
  if (size < 0)
    throw std::invalid_argument("create_store at " + where_text(where) + ": negative size " +
                                std::to_string(size));
  const uint64_t id = rt.stores().next_id();
  // An unnamed store has no string in the trace (its id says which it is):
  // array programs make thousands of temporaries.
  const bool named = !name.empty();
  if (!named) name = "store" + std::to_string(id);
  auto impl = std::make_shared<StoreImpl>(id, size, type, std::move(name), provenance_of(where));
  impl->name_string = named ? rt.string(impl->name) : 0;
  rt.stores().add(impl.get());
  return Store(std::move(impl));
}

}  // namespace legato::rt
