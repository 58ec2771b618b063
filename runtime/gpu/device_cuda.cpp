// CUDA builds: the runtime API (statically linked; it loads the driver
// itself at the first call).
#include <cuda_runtime_api.h>

#include <cstdlib>

#include "runtime/gpu/device.hpp"

namespace legato::rt::gpu {
namespace {

void check(cudaError_t e, const std::string& call) {
  if (e == cudaSuccess) return;
  throw DeviceError(call + " failed with " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

cudaStream_t stream(Stream s) {
  return static_cast<cudaStream_t>(s);
}

}  // namespace

void prefer_eager_module_loading() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // 0: a value already set stays
}

void set_device(int device) {
  check(cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
}

Stream create_stream() {
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  return s;
}

void destroy_stream(Stream s) {
  if (s != nullptr) cudaStreamDestroy(stream(s));
}

void synchronize(Stream s, const std::string& what) {
  check(cudaStreamSynchronize(stream(s)), what + ": cudaStreamSynchronize");
}

bool idle(Stream s, const std::string& what) {
  const cudaError_t e = cudaStreamQuery(stream(s));
  if (e == cudaErrorNotReady) return false;
  check(e, what + ": cudaStreamQuery");
  return true;
}

std::string pci_bus_id(int device) {
  char id[32] = {};
  check(cudaDeviceGetPCIBusId(id, sizeof(id), device), "cudaDeviceGetPCIBusId");
  return id;
}

bool mps_enabled(int device) {
  int on = 0;
  check(cudaDeviceGetAttribute(&on, cudaDevAttrMpsEnabled, device),
        "cudaDeviceGetAttribute(cudaDevAttrMpsEnabled)");
  return on != 0;
}

std::byte* device_alloc(uint64_t bytes, int device) {
  void* p = nullptr;
  check(cudaMalloc(&p, bytes),
        "cudaMalloc of " + std::to_string(bytes >> 20) + " MiB on GPU " + std::to_string(device));
  return static_cast<std::byte*>(p);
}

void device_free(std::byte* p) {
  if (p != nullptr) cudaFree(p);
}

std::byte* pinned_alloc(uint64_t bytes) {
  void* p = nullptr;
  check(cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped),
        "cudaHostAlloc of " + std::to_string(bytes >> 20) + " MiB");
  return static_cast<std::byte*>(p);
}

void pinned_free(std::byte* p) {
  if (p != nullptr) cudaFreeHost(p);
}

void copy_async(void* dst, const void* src, uint64_t bytes, Stream s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream(s)), "cudaMemcpyAsync");
}

}  // namespace legato::rt::gpu
