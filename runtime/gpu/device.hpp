// The CUDA calls the runtime makes for GPU processors, behind plain types so
// the rest of the runtime compiles without CUDA's headers. Every call that
// fails throws DeviceError naming the call and CUDA's error; builds without
// CUDA throw on every call (they never get GPU processors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace legato::rt::gpu {

class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Stream = void*;  // a cudaStream_t

// Asks CUDA to load all of the program's kernels when it makes a GPU's
// context (CUDA_MODULE_LOADING=EAGER) unless the environment already says
// how; it must come before the process's first CUDA call to count. CUDA's
// default, loading each kernel at its first launch, puts that loading into
// the first task of each kind (up to 2.6 ms each): vectorized_update took
// 5.3-6.3 ms on an H200 with lazy loading, 1.3-1.5 ms eager.
void prefer_eager_module_loading();
// Makes `device` current on the calling thread.
void set_device(int device);
Stream create_stream();
void destroy_stream(Stream s);
// Waits for everything queued on s; `what` names the work for the error.
void synchronize(Stream s, const std::string& what);
// Whether everything queued on s has finished (without waiting).
bool idle(Stream s, const std::string& what);
// The device's PCI bus id ("0000:3b:00.0"): the same GPU under any numbering.
std::string pci_bus_id(int device);
// Whether contexts made on the device go through CUDA's Multi-Process
// Service (cudaDevAttrMpsEnabled), which runs several processes' kernels
// side by side; without it the GPU runs one process's context at a time.
bool mps_enabled(int device);

// Device memory (cudaMalloc) and pinned host memory mapped into every
// device's address space (cudaHostAlloc, portable and mapped).
std::byte* device_alloc(uint64_t bytes, int device);
void device_free(std::byte* p);
std::byte* pinned_alloc(uint64_t bytes);
void pinned_free(std::byte* p);

// Copies bytes on s; either side may be host or device memory (CUDA tells
// them apart by address).
void copy_async(void* dst, const void* src, uint64_t bytes, Stream s);
// count elements of elem_size bytes (1, 2, 4 or 8) set to `pattern`, on s.
void fill_async(void* dst, const std::byte* pattern, size_t elem_size, int64_t count, Stream s);

// A gather (dst[i] = src[index[i]]) or a scatter (dst[index[i]] = src[i])
// of `count` elements of elem_size bytes (1, 2, 4 or 8), all in device
// memory of the stream's GPU; indices must lie in [0, extent).
struct IndirectCopy {
  bool gather = true;
  void* dst = nullptr;
  const void* src = nullptr;
  const int64_t* index = nullptr;
  int64_t count = 0, extent = 0;
  size_t elem_size = 0;
};
// Runs c on s and waits for it. An index outside [0, extent) moves nothing:
// the call returns false with the first such index (in position order) in
// *bad_index. `scratch` (device) and `host_scratch` (pinned) are 8 bytes
// each that nothing else uses meanwhile. A scatter whose indices repeat
// leaves one of their values, not necessarily the last (as on GPUs in
// cuPyNumeric).
bool indirect_copy(const IndirectCopy& c, std::byte* scratch, std::byte* host_scratch,
                   int64_t* bad_index, Stream s);

}  // namespace legato::rt::gpu
