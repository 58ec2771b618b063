// Gathers and scatters between framebuffer instances (indirect copies the
// mapper placed on a GPU), with the index check the host copy makes.
#include <cuda_runtime_api.h>

#include <cstring>
#include <limits>

#include "runtime/gpu/device.hpp"

namespace legato::rt::gpu {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNoBadIndex = std::numeric_limits<unsigned long long>::max();

// Moves element i for every position i this thread covers; a position whose
// index lies outside [0, extent) moves nothing and lowers *bad to i.
template <bool Gather, class T>
__global__ void indirect_kernel(T* dst, const T* src, const int64_t* index, int64_t count,
                                int64_t extent, unsigned long long* bad) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const int64_t j = index[i];
    if (j < 0 || j >= extent) {
      atomicMin(bad, static_cast<unsigned long long>(i));
    } else if constexpr (Gather) {
      dst[i] = src[j];
    } else {
      dst[j] = src[i];
    }
  }
}

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  throw DeviceError(std::string(what) + " failed with " + cudaGetErrorName(e) + ": " +
                    cudaGetErrorString(e));
}

template <class T>
void launch(const IndirectCopy& c, unsigned long long* bad, cudaStream_t s) {
  const int64_t blocks = (c.count + kThreads - 1) / kThreads;
  const unsigned grid = static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
  auto* dst = static_cast<T*>(c.dst);
  const auto* src = static_cast<const T*>(c.src);
  if (c.gather) {
    indirect_kernel<true, T><<<grid, kThreads, 0, s>>>(dst, src, c.index, c.count, c.extent, bad);
  } else {
    indirect_kernel<false, T><<<grid, kThreads, 0, s>>>(dst, src, c.index, c.count, c.extent, bad);
  }
  check(cudaGetLastError(), c.gather ? "gather kernel launch" : "scatter kernel launch");
}

}  // namespace

bool indirect_copy(const IndirectCopy& c, std::byte* scratch, std::byte* host_scratch,
                   int64_t* bad_index, Stream st) {
  if (c.count <= 0) return true;
  const auto s = static_cast<cudaStream_t>(st);
  auto* bad = reinterpret_cast<unsigned long long*>(scratch);
  check(cudaMemsetAsync(bad, 0xff, sizeof *bad, s), "cudaMemsetAsync of the index check");
  switch (c.elem_size) {
    case 1:
      launch<uint8_t>(c, bad, s);
      break;
    case 2:
      launch<uint16_t>(c, bad, s);
      break;
    case 4:
      launch<uint32_t>(c, bad, s);
      break;
    case 8:
      launch<uint64_t>(c, bad, s);
      break;
    default:
      throw DeviceError(std::string(c.gather ? "gather" : "scatter") + " of " +
                        std::to_string(c.elem_size) + "-byte elements on a GPU");
  }
  check(cudaMemcpyAsync(host_scratch, bad, sizeof *bad, cudaMemcpyDeviceToHost, s),
        "cudaMemcpyAsync of the index check");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize after an indirect copy");
  unsigned long long first = 0;
  std::memcpy(&first, host_scratch, sizeof first);
  if (first == kNoBadIndex) return true;
  check(cudaMemcpyAsync(host_scratch, c.index + first, sizeof(int64_t), cudaMemcpyDeviceToHost, s),
        "cudaMemcpyAsync of an index out of bounds");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize after an indirect copy");
  std::memcpy(bad_index, host_scratch, sizeof *bad_index);
  return false;
}

}  // namespace legato::rt::gpu
