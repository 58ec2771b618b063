// NCCL, loaded at run time (dlopen), never linked: binaries start on
// machines without it, and runs that cannot use it combine GPU results
// over MPI instead.
#pragma once

#include <memory>
#include <string>

#include "runtime/gpu/device.hpp"
#include "runtime/types.hpp"

namespace legato::rt::gpu {

class Nccl {
 public:
  // Loads libnccl and checks that its major version is the one built
  // against; null, with *problem saying why, when it cannot.
  static std::unique_ptr<Nccl> load(std::string* problem);
  virtual ~Nccl() = default;
  virtual std::string version() const = 0;  // "2.28.3"
  // A new communicator's id: one rank makes it, every rank joins with it.
  // Throws DeviceError.
  virtual std::string make_id() = 0;
  // Joins the communicator of `ranks` ranks as `rank` on the calling
  // thread's current device; every rank must call it. Throws DeviceError.
  virtual void join(const std::string& id, int ranks, int rank) = 0;
  // One value (int64 when `exact`, otherwise double) combined across the
  // communicator, from and into device memory, queued on s. Throws DeviceError.
  virtual void all_reduce(const void* in, void* out, bool exact, ReduceOp op, Stream s) = 0;
};

}  // namespace legato::rt::gpu
