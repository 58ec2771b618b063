// CUDA builds: NCCL's communicator and all-reduce, through dlopen.
#include <nccl.h>

#include <utility>
#include <vector>

#include "runtime/gpu/nccl.hpp"
#include "runtime/gpu/shared_library.hpp"

#ifndef LEGATO_NCCL_DIR
#define LEGATO_NCCL_DIR ""
#endif

namespace legato::rt::gpu {
namespace {

struct NcclApi {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
};

std::string soname() {
  return "libnccl.so." + std::to_string(NCCL_MAJOR);
}

ncclRedOp_t red_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::Prod:
      return ncclProd;
    case ReduceOp::Min:
      return ncclMin;
    case ReduceOp::Max:
      return ncclMax;
    default:
      return ncclSum;
  }
}

class NcclImpl final : public Nccl {
 public:
  NcclImpl(NcclApi api, int version) : api_(api), version_(version) {}
  ~NcclImpl() override {
    if (comm_ != nullptr) api_.comm_destroy(comm_);
  }

  std::string version() const override {
    // NCCL 2.9 and later: major * 10000 + minor * 100 + patch.
    return std::to_string(version_ / 10000) + "." + std::to_string(version_ / 100 % 100) + "." +
           std::to_string(version_ % 100);
  }

  std::string make_id() override {
    ncclUniqueId id;
    check(api_.get_unique_id(&id), "ncclGetUniqueId");
    return std::string(id.internal, sizeof(id.internal));
  }

  void join(const std::string& id, int ranks, int rank) override {
    ncclUniqueId uid;
    if (id.size() != sizeof(uid.internal))
      throw DeviceError("ncclCommInitRank: the communicator id has the wrong size");
    id.copy(uid.internal, sizeof(uid.internal));
    check(api_.comm_init_rank(&comm_, ranks, uid, rank), "ncclCommInitRank");
  }

  void all_reduce(const void* in, void* out, bool exact, ReduceOp op, Stream s) override {
    check(api_.all_reduce(in, out, 1, exact ? ncclInt64 : ncclFloat64, red_op(op), comm_,
                          static_cast<cudaStream_t>(s)),
          "ncclAllReduce");
  }

 private:
  void check(ncclResult_t r, const char* call) const {
    if (r != ncclSuccess) throw DeviceError(std::string(call) + " failed: " + api_.error_string(r));
  }

  NcclApi api_;
  int version_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Nccl> Nccl::load(std::string* problem) {
  const auto fail = [&](const std::string& why) -> std::unique_ptr<Nccl> {
    if (problem != nullptr) *problem = why;
    return nullptr;
  };
  std::vector<std::string> candidates = {soname()};
  if (LEGATO_NCCL_DIR[0] != '\0')
    candidates.push_back(std::string(LEGATO_NCCL_DIR) + "/" + soname());
  SharedLibrary lib(std::move(candidates));
  if (!lib.loaded()) {
    return fail(soname() + " could not be loaded (" + lib.errors().back() + "): install NCCL " +
                std::to_string(NCCL_MAJOR) + " or add its directory to LD_LIBRARY_PATH");
  }
  NcclApi api;
  lib.bind(api.get_version, "ncclGetVersion")
      .bind(api.get_unique_id, "ncclGetUniqueId")
      .bind(api.comm_init_rank, "ncclCommInitRank")
      .bind(api.comm_destroy, "ncclCommDestroy")
      .bind(api.all_reduce, "ncclAllReduce")
      .bind(api.error_string, "ncclGetErrorString");
  if (!lib.missing().empty()) {
    return fail(soname() + " lacks a function this build needs: install NCCL " +
                std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + " or later");
  }
  int version = 0;
  if (api.get_version(&version) != ncclSuccess || version / 10000 != NCCL_MAJOR) {
    return fail("the loaded NCCL (version code " + std::to_string(version) + ") is not NCCL " +
                std::to_string(NCCL_MAJOR) + ", which this build needs");
  }
  lib.keep();  // for the rest of the process: NCCL's threads may outlive the communicator
  return std::make_unique<NcclImpl>(api, version);
}

}  // namespace legato::rt::gpu
