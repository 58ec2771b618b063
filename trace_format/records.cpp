#include "trace_format/records.hpp"

namespace legato::trace {

namespace {
template <class R>
constexpr bool all_valid() {
  bool ok = true;
  for_each_record_type([&](auto t) { ok = ok && codecs_are_valid<typename decltype(t)::type>(); });
  return ok;
}
static_assert(all_valid<void>(), "every record's column codecs must be decodable row by row");
}  // namespace

std::string_view to_string(RecordKind k) {
  std::string_view name = "unknown";
  for_each_record_type([&](auto t) {
    using R = typename decltype(t)::type;
    if (R::kKind == k) name = R::kName;
  });
  return name;
}

std::string_view to_string(ProcKind k) {
  switch (k) {
    case ProcKind::Cpu:
      return "cpu";
    case ProcKind::Utility:
      return "utility";
    case ProcKind::Io:
      return "io";
    case ProcKind::GpuHost:
      return "gpu_host";
    case ProcKind::GpuDevice:
      return "gpu_device";
    case ProcKind::OpenMp:
      return "openmp";
    case ProcKind::DepPart:
      return "dep_part";
    case ProcKind::Profiler:
      return "profiler";
    case ProcKind::Thread:
      return "thread";
    case ProcKind::Python:
      return "python";
  }
  return "unknown";
}

std::string_view to_string(MemKind k) {
  switch (k) {
    case MemKind::System:
      return "system";
    case MemKind::Framebuffer:
      return "framebuffer";
    case MemKind::ZeroCopy:
      return "zero_copy";
    case MemKind::Socket:
      return "socket";
  }
  return "unknown";
}

std::string_view to_string(ChannelKind k) {
  switch (k) {
    case ChannelKind::HostCopy:
      return "host_copy";
    case ChannelKind::HostToDevice:
      return "host_to_device";
    case ChannelKind::DeviceToHost:
      return "device_to_host";
    case ChannelKind::DeviceToDevice:
      return "device_to_device";
    case ChannelKind::PeerToPeer:
      return "peer_to_peer";
    case ChannelKind::Network:
      return "network";
    case ChannelKind::Fill:
      return "fill";
  }
  return "unknown";
}

std::string_view to_string(CopyKind k) {
  switch (k) {
    case CopyKind::Copy:
      return "copy";
    case CopyKind::Fill:
      return "fill";
    case CopyKind::Gather:
      return "gather";
    case CopyKind::Scatter:
      return "scatter";
    case CopyKind::Reduce:
      return "reduce";
  }
  return "unknown";
}

std::string_view to_string(OpKind k) {
  switch (k) {
    case OpKind::Task:
      return "task";
    case OpKind::Copy:
      return "copy";
    case OpKind::Fill:
      return "fill";
    case OpKind::Partition:
      return "partition";
    case OpKind::Reduction:
      return "reduction";
    case OpKind::Collective:
      return "collective";
    case OpKind::Attach:
      return "attach";
    case OpKind::Collect:
      return "collect";
  }
  return "unknown";
}

std::string_view to_string(EdgeKind k) {
  switch (k) {
    case EdgeKind::Data:
      return "data";
    case EdgeKind::Anti:
      return "anti";
    case EdgeKind::Copy:
      return "copy";
    case EdgeKind::Instance:
      return "instance";
    case EdgeKind::Control:
      return "control";
    case EdgeKind::MakeValid:
      return "index space make_valid";
    case EdgeKind::FetchMetadata:
      return "instance fetch_metadata";
    case EdgeKind::External:
      return "external event";
  }
  return "unknown";
}

std::string_view to_string(ErrorKind k) {
  switch (k) {
    case ErrorKind::OutOfMemory:
      return "out_of_memory";
    case ErrorKind::Fatal:
      return "fatal";
    case ErrorKind::Warning:
      return "warning";
    case ErrorKind::Signal:
      return "signal";
  }
  return "unknown";
}

}  // namespace legato::trace
