// The public API's fills, copies, gathers, scatters and fences.
#include <stdexcept>
#include <string>

#include "runtime/core/api_access.hpp"
#include "runtime/core/api_support.hpp"
#include "runtime/core/operation.hpp"
#include "runtime/core/window.hpp"

namespace legato::rt {

void fill(const Store& dst, Range range, Scalar value, std::source_location where) {
  RuntimeImpl& rt = need_runtime("fill");
  check_range(dst, range, "fill at " + where_text(where));
  if (range.empty()) return;
  auto op = runtime_op(rt, trace::OpKind::Fill, provenance_of(where));
  op->args.push_back({ApiAccess::impl(dst), false, 0, range, Privilege::Write, ReduceOp::Sum});
  op->fill_value = value;
  rt.submit(std::move(op));
}

void copy(const Store& src, int64_t src_offset, const Store& dst, int64_t dst_offset, int64_t count,
          std::source_location where) {
  RuntimeImpl& rt = need_runtime("copy");
  const std::string who = "copy at " + where_text(where);
  check_range(src, {src_offset, src_offset + count}, who + " (source)");
  check_range(dst, {dst_offset, dst_offset + count}, who + " (destination)");
  if (src.dtype() != dst.dtype()) {
    throw std::invalid_argument(who + ": source is " + dtype_name(src.dtype()) +
                                ", destination is " + dtype_name(dst.dtype()) + "; convert first");
  }
  if (count == 0) return;
  auto op = runtime_op(rt, trace::OpKind::Copy, provenance_of(where));
  op->args.push_back({ApiAccess::impl(src),
                      false,
                      0,
                      {src_offset, src_offset + count},
                      Privilege::Read,
                      ReduceOp::Sum});
  op->args.push_back({ApiAccess::impl(dst),
                      false,
                      0,
                      {dst_offset, dst_offset + count},
                      Privilege::Write,
                      ReduceOp::Sum});
  rt.submit(std::move(op));
}

namespace {
void indirect(trace::CopyKind kind, const Store& src, Range src_range, const Store& index,
              Range index_range, const Store& dst, Range dst_range, std::source_location where) {
  RuntimeImpl& rt = need_runtime(kind == trace::CopyKind::Gather ? "gather" : "scatter");
  const std::string who = std::string(trace::to_string(kind)) + " at " + where_text(where);
  check_range(src, src_range, who + " (source)");
  check_range(index, index_range, who + " (indices)");
  check_range(dst, dst_range, who + " (destination)");
  if (index.dtype() != DType::I64) {
    throw std::invalid_argument(who + ": indices must be int64, not " +
                                std::string(dtype_name(index.dtype())));
  }
  if (src.dtype() != dst.dtype()) {
    throw std::invalid_argument(who + ": source is " + dtype_name(src.dtype()) +
                                ", destination is " + dtype_name(dst.dtype()) + "; convert first");
  }
  if (index_range.empty()) return;
  auto op = runtime_op(rt, trace::OpKind::Copy, provenance_of(where));
  op->copy_kind = kind;
  const Privilege dst_privilege =
      kind == trace::CopyKind::Scatter ? Privilege::ReadWrite : Privilege::Write;
  op->args.push_back({ApiAccess::impl(src), false, 0, src_range, Privilege::Read, ReduceOp::Sum});
  op->args.push_back({ApiAccess::impl(dst), false, 0, dst_range, dst_privilege, ReduceOp::Sum});
  op->args.push_back(
      {ApiAccess::impl(index), false, 0, index_range, Privilege::Read, ReduceOp::Sum});
  rt.submit(std::move(op));
}
}  // namespace

void gather(const Store& src, Range src_range, const Store& index, int64_t index_offset,
            const Store& dst, int64_t dst_offset, int64_t count, std::source_location where) {
  indirect(trace::CopyKind::Gather, src, src_range, index, {index_offset, index_offset + count},
           dst, {dst_offset, dst_offset + count}, where);
}

void scatter(const Store& src, int64_t src_offset, const Store& index, int64_t index_offset,
             const Store& dst, Range dst_range, int64_t count, std::source_location where) {
  indirect(trace::CopyKind::Scatter, src, {src_offset, src_offset + count}, index,
           {index_offset, index_offset + count}, dst, dst_range, where);
}

void fence(std::source_location) {
  need_runtime("fence").window().fence();
}

}  // namespace legato::rt
