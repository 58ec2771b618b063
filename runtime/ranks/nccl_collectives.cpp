#include "runtime/ranks/nccl_collectives.hpp"

#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>

#include "runtime/core/gpus.hpp"
#include "runtime/ranks/comm.hpp"
#include "runtime/ranks/gpu_sharing.hpp"

namespace legato::rt {
namespace {

constexpr size_t kSlot = sizeof(double);  // one value

// This rank's answer for refusal().
NcclAnswer answer(const GpuProcessor& gpu, std::unique_ptr<gpu::Nccl>& nccl) {
  std::string problem;
  nccl = gpu::Nccl::load(&problem);
  if (!nccl) return {false, problem};
  try {
    return {true, gpu_identity(gpu.device)};
  } catch (const gpu::DeviceError& e) {
    return {false, e.what()};
  }
}

}  // namespace

std::string NcclAnswer::to_wire() const {
  return (can ? "+" : "-") + detail;
}

NcclAnswer NcclAnswer::from_wire(const std::string& wire) {
  if (wire.empty()) return {false, "no answer"};
  return {wire[0] == '+', wire.substr(1)};
}

std::unique_ptr<GpuCollectives> GpuCollectives::start(Gpus& gpus) {
  GpuProcessor& gpu = gpus.at(0);
  std::unique_ptr<gpu::Nccl> nccl;
  // Every rank learns every rank's answer, so all make the same choice.
  std::vector<NcclAnswer> answers;
  for (const std::string& wire : comm::all_gather(answer(gpu, nccl).to_wire()))
    answers.push_back(NcclAnswer::from_wire(wire));
  const std::string why = refusal(answers);
  if (!why.empty()) {
    if (comm::rank() == 0) {
      std::fprintf(stderr, "legato: warning: GPU results are combined over MPI, not NCCL: %s\n",
                   why.c_str());
    }
    return nullptr;
  }
  try {
    gpu::set_device(gpu.device);
    const std::string id = comm::broadcast(comm::rank() == 0 ? nccl->make_id() : std::string());
    nccl->join(id, comm::size(), comm::rank());
  } catch (const gpu::DeviceError& e) {
    throw std::runtime_error(std::string("cannot combine GPU results across ranks with NCCL: ") +
                             e.what() + "; check NCCL_DEBUG=WARN output for the cause");
  }
  return std::unique_ptr<GpuCollectives>(new GpuCollectives(gpus, gpu, std::move(nccl)));
}

std::string GpuCollectives::refusal(const std::vector<NcclAnswer>& answers) {
  std::set<std::string> seen;
  for (size_t r = 0; r < answers.size(); ++r) {
    const NcclAnswer& a = answers[r];
    if (!a.can) return "rank " + std::to_string(r) + ": " + a.detail;
    if (!seen.insert(a.detail).second) {
      return "rank " + std::to_string(r) + " shares its GPU (" + a.detail +
             ") with another rank, and NCCL takes one rank per GPU";
    }
  }
  return "";
}

GpuCollectives::GpuCollectives(Gpus& gpus, GpuProcessor& gpu, std::unique_ptr<gpu::Nccl> nccl)
    : gpus_(gpus), gpu_(gpu), nccl_(std::move(nccl)) {
  stream_ = gpu::create_stream();
  device_ = gpu::device_alloc(2 * kSlot, gpu.device);
  host_ = gpu::pinned_alloc(2 * kSlot);
}

GpuCollectives::~GpuCollectives() {
  nccl_.reset();  // the communicator first
  gpu::pinned_free(host_);
  gpu::device_free(device_);
  gpu::destroy_stream(stream_);
}

void GpuCollectives::post(const Scalar& in, ReduceOp op, trace::Uid item) {
  gpu::set_device(gpu_.device);
  type_ = in.type;
  const bool exact = in.type == DType::I64;
  std::memcpy(host_, exact ? static_cast<const void*>(&in.i) : &in.f, kSlot);
  gpus_.push(item);
  try {
    gpu::copy_async(device_, host_, kSlot, stream_);
    nccl_->all_reduce(device_, device_ + kSlot, exact, op, stream_);
    gpu::copy_async(host_ + kSlot, device_ + kSlot, kSlot, stream_);
  } catch (...) {
    gpus_.pop();
    throw;
  }
  gpus_.pop();
}

bool GpuCollectives::done() {
  return gpu::idle(stream_, "combining a result with NCCL");
}

Scalar GpuCollectives::result() const {
  Scalar out;
  out.type = type_;
  std::memcpy(type_ == DType::I64 ? static_cast<void*>(&out.i) : &out.f, host_ + kSlot, kSlot);
  return out;
}

std::string GpuCollectives::description() const {
  return "NCCL " + nccl_->version() + " on " + gpu_.fbmem->name();
}

uint32_t GpuCollectives::memory_id() const {
  return gpu_.fbmem->id();
}

}  // namespace legato::rt
