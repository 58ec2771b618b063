// Fills of device memory with one element's bytes (deferred fills made
// valid in framebuffer memory).
#include <cuda_runtime_api.h>

#include <cstring>

#include "runtime/gpu/device.hpp"

namespace legato::rt::gpu {
namespace {

template <class T>
__global__ void fill_kernel(T* dst, T value, int64_t count) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    dst[i] = value;
}

template <class T>
void launch(void* dst, const std::byte* pattern, int64_t count, cudaStream_t s) {
  T value;
  std::memcpy(&value, pattern, sizeof(T));
  constexpr int kThreads = 256;
  const int64_t blocks = (count + kThreads - 1) / kThreads;
  const unsigned grid = static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
  fill_kernel<T><<<grid, kThreads, 0, s>>>(static_cast<T*>(dst), value, count);
}

}  // namespace

void fill_async(void* dst, const std::byte* pattern, size_t elem_size, int64_t count, Stream s) {
  if (count <= 0) return;
  const auto st = static_cast<cudaStream_t>(s);
  switch (elem_size) {
    case 1:
      launch<uint8_t>(dst, pattern, count, st);
      break;
    case 2:
      launch<uint16_t>(dst, pattern, count, st);
      break;
    case 4:
      launch<uint32_t>(dst, pattern, count, st);
      break;
    case 8:
      launch<uint64_t>(dst, pattern, count, st);
      break;
    default:
      throw DeviceError("fill of " + std::to_string(elem_size) + "-byte elements on a GPU");
  }
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    throw DeviceError(std::string("fill kernel launch failed with ") + cudaGetErrorName(e) + ": " +
                      cudaGetErrorString(e));
  }
}

}  // namespace legato::rt::gpu
