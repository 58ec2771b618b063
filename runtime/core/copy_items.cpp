#include "runtime/core/copy_items.hpp"

#include <cstring>
#include <string>

#include "recorder/recorder.hpp"
#include "runtime/core/device_work.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/runtime_impl.hpp"
#include "runtime/core/stores.hpp"
#include "runtime/core/workers.hpp"
#include "runtime/gpu/nvtx.hpp"

namespace legato::rt {
namespace {

// A copy or fill: recorded with the device's times when a GPU ran it (and
// CUPTI reported them).
void record_channel_item(bool on_device, const trace::CopyRecord& r) {
  if (on_device) {
    runtime().gpus().record_device_copy(r);
  } else {
    rec::record(r);
  }
}

}  // namespace

trace::CopyRecord copy_record(const Item& item, trace::Uid op, uint32_t channel,
                              trace::CopyKind kind, uint64_t bytes, trace::Uid src,
                              trace::Uid dst) {
  return trace::CopyRecord{item.uid(),
                           op,
                           channel,
                           kind,
                           bytes,
                           src,
                           dst,
                           rec::stamp(item.start_tick),
                           rec::stamp(item.stop_tick),
                           rec::stamp(item.ready_tick),
                           rec::stamp(item.create_tick)};
}

void record_copy(const Item& item, trace::Uid op, uint32_t channel, trace::CopyKind kind,
                 uint64_t bytes, trace::Uid src, trace::Uid dst) {
  rec::record(copy_record(item, op, channel, kind, bytes, src, dst));
}

CopyItem::CopyItem(trace::Uid uid, std::shared_ptr<Operation> o, StoreInstance* s, Range sr,
                   StoreInstance* d, Range dr)
    : WorkItem(uid, std::move(o)), src(s), src_range(sr), dst(d), dst_range(dr) {}

void CopyItem::enqueue() {
  runtime().copy_worker(*src->memory, *dst->memory).push(shared_from_this());
}

namespace {

// The element at position i of a run of elements of `size` bytes.
inline std::byte* element(std::byte* base, int64_t i, size_t size) {
  return base + static_cast<size_t>(i) * size;
}

[[noreturn]] void bad_index(const Operation& op, trace::CopyKind kind, int64_t index,
                            int64_t extent) {
  const std::string text = std::string(trace::to_string(kind)) + " [" + op.where->text +
                           "]: index " + std::to_string(index) +
                           " is out of bounds for an axis of size " + std::to_string(extent);
  fatal_error(trace::ErrorKind::Fatal, text, op.uid);
}

// What Nsight Systems calls a copy item's range.
const char* range_name(trace::CopyKind kind) {
  switch (kind) {
    case trace::CopyKind::Gather:
      return "Gather";
    case trace::CopyKind::Scatter:
      return "Scatter";
    default:
      return "Copy";
  }
}

}  // namespace

void CopyItem::run() {
  const size_t elem = dst->store->elem_size;
  const int64_t extent = kind == trace::CopyKind::Gather ? src_range.size() : dst_range.size();
  if (GpuProcessor* g = runtime().gpus().owner(*src->memory, *dst->memory)) {
    // Mapping puts all of a gather's or scatter's instances in one framebuffer.
    int64_t bad = 0;
    bool in_bounds = true;
    try {
      const gpu::NvtxRange nvtx(runtime().config().nsys, range_name(kind));
      on_stream(runtime().gpus(), uid(), g->copy_stream, "a copy", [&] {
        if (kind == trace::CopyKind::Copy) {
          gpu::copy_async(dst->at(dst_range.lo, elem), src->at(src_range.lo, elem),
                          static_cast<uint64_t>(dst_range.size()) * elem, g->copy_stream);
          return;
        }
        const gpu::IndirectCopy c{
            kind == trace::CopyKind::Gather,
            dst->at(dst_range.lo, elem),
            src->at(src_range.lo, elem),
            reinterpret_cast<const int64_t*>(index->at(index_range.lo, sizeof(int64_t))),
            index_range.size(),
            extent,
            elem};
        in_bounds =
            gpu::indirect_copy(c, g->copy_scratch, g->copy_host_scratch, &bad, g->copy_stream);
      });
    } catch (const std::exception& e) {
      device_failure(*op, "a copy", e);
    }
    if (!in_bounds) bad_index(*op, kind, bad, extent);
    return;
  }
  if (kind == trace::CopyKind::Copy) {
    std::memmove(dst->at(dst_range.lo, elem), src->at(src_range.lo, elem),
                 static_cast<size_t>(dst_range.size()) * elem);
    return;
  }
  const auto* idx = reinterpret_cast<const int64_t*>(index->at(index_range.lo, sizeof(int64_t)));
  std::byte* from = src->at(src_range.lo, elem);
  std::byte* to = dst->at(dst_range.lo, elem);
  const int64_t n = index_range.size();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = idx[i];
    if (j < 0 || j >= extent) bad_index(*op, kind, j, extent);
    if (kind == trace::CopyKind::Gather) {
      std::memcpy(element(to, i, elem), element(from, j, elem), elem);
    } else {
      std::memcpy(element(to, j, elem), element(from, i, elem), elem);
    }
  }
}

void CopyItem::record_trace() {
  const int64_t n = kind == trace::CopyKind::Copy ? dst_range.size() : index_range.size();
  RuntimeImpl& rt = runtime();
  record_channel_item(
      rt.gpus().owner(*src->memory, *dst->memory) != nullptr,
      copy_record(*this, op_uid, rt.channel(*src->memory, *dst->memory), kind,
                  static_cast<uint64_t>(n) * dst->store->elem_size, src->uid, dst->uid));
}

FillItem::FillItem(trace::Uid uid, std::shared_ptr<Operation> o, StoreInstance* d, Range r,
                   Scalar v)
    : WorkItem(uid, std::move(o)), dst(d), range(r), value(v) {}

void FillItem::enqueue() {
  runtime().fill_worker(*dst->memory).push(shared_from_this());
}

void FillItem::run() {
  const size_t elem = dst->store->elem_size;
  if (GpuProcessor* g = runtime().gpus().owner(*dst->memory, *dst->memory)) {
    std::byte pattern[sizeof(int64_t)];
    fill_elements(dst->store->type, pattern, value, 1);
    try {
      const gpu::NvtxRange nvtx(runtime().config().nsys, "Fill");
      on_stream(runtime().gpus(), uid(), g->copy_stream, "a fill", [&] {
        gpu::fill_async(dst->at(range.lo, elem), pattern, elem, range.size(), g->copy_stream);
      });
    } catch (const std::exception& e) {
      device_failure(*op, "a fill", e);
    }
    return;
  }
  fill_elements(dst->store->type, dst->at(range.lo, elem), value, range.size());
}

void FillItem::record_trace() {
  record_channel_item(
      dst->memory->on_device(),
      copy_record(*this, op_uid, runtime().fill_channel(*dst->memory), trace::CopyKind::Fill,
                  static_cast<uint64_t>(range.size()) * dst->store->elem_size, 0, dst->uid));
}

FoldItem::FoldItem(trace::Uid uid, std::shared_ptr<Operation> o, size_t a)
    : WorkItem(uid, std::move(o)), arg(a) {}

void FoldItem::enqueue() {
  runtime().copy_worker(*target->memory, *target->memory).push(shared_from_this());
}

void FoldItem::run() {
  const StoreArg& a = op->args[arg];
  const size_t elem = a.store->elem_size;
  for (StoreInstance* buf : buffers) {
    reduce_elements(a.reduction, a.store->type, target->at(buf->covered.lo, elem), buf->data,
                    buf->covered.size());
  }
  // The private buffers are done with.
  const rec::Tick now = rec::now();
  for (StoreInstance* buf : buffers) bytes_ += buf->bytes;
  for (StoreInstance* buf : buffers) {
    runtime().stores().free_reduction_buffer(buf, now);
  }
  buffers.clear();
}

void FoldItem::record_trace() {
  record_copy(*this, op_uid, runtime().channel(*target->memory, *target->memory),
              trace::CopyKind::Reduce, bytes_, 0, target->uid);
}

}  // namespace legato::rt
