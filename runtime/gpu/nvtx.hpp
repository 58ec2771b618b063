// NVTX ranges for Nsight Systems (--nsys): a range on the calling thread
// around a point task or a piece of runtime work, named after it. NVTX is
// header-only; without a tool attached (nsys sets NVTX_INJECTION64_PATH) a
// range costs a check of a null function pointer.
#pragma once

namespace legato::rt::gpu {

// Whether this build can mark NVTX ranges (built with the CUDA toolkit).
bool nvtx_available();

class NvtxRange {
 public:
  // `name` must outlive the range (task kind and meta-task names do).
  NvtxRange(bool on, const char* name);
  ~NvtxRange();
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

 private:
  bool on_;
};

}  // namespace legato::rt::gpu
