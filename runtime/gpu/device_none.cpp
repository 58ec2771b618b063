// Builds without CUDA: GPU processors are refused at start (--gpus), so
// none of these ever runs.
#include "runtime/gpu/device.hpp"

namespace legato::rt::gpu {
namespace {
[[noreturn]] void no_cuda() {
  throw DeviceError("this build of Legato has no CUDA support");
}
}  // namespace

void prefer_eager_module_loading() {}
void set_device(int) {
  no_cuda();
}
Stream create_stream() {
  no_cuda();
}
void destroy_stream(Stream) {}
void synchronize(Stream, const std::string&) {
  no_cuda();
}
bool idle(Stream, const std::string&) {
  no_cuda();
}
std::string pci_bus_id(int) {
  no_cuda();
}
bool mps_enabled(int) {
  no_cuda();
}
std::byte* device_alloc(uint64_t, int) {
  no_cuda();
}
void device_free(std::byte*) {}
std::byte* pinned_alloc(uint64_t) {
  no_cuda();
}
void pinned_free(std::byte*) {}
void copy_async(void*, const void*, uint64_t, Stream) {
  no_cuda();
}
void fill_async(void*, const std::byte*, size_t, int64_t, Stream) {
  no_cuda();
}
bool indirect_copy(const IndirectCopy&, std::byte*, std::byte*, int64_t*, Stream) {
  no_cuda();
}

}  // namespace legato::rt::gpu
