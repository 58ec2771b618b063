// Indexing: nonzero, gather a[idx], scatter a[idx] = v, masked updates.
#include <stdexcept>

#include "arrays/array.hpp"
#include "arrays/array_launch.hpp"
#include "arrays/kernels/cpu_support.hpp"

namespace legato::rt {

using detail::ArrayLauncher;
using detail::who;
using kernels::Op;

Array nonzero(const Array& a, std::source_location where) {
  // The size of the result depends on the data: the program waits for the
  // count, then one task on the dependent-partitioning processor writes it.
  const int64_t count = detail::count_nonzero(a, where).item_int(where);
  Array out = empty(count, DType::I64, where);
  if (count == 0) return out;
  ArrayLauncher(kernels::tasks().nonzero, detail::layout_of({&a}), where)
      .arg(a, Privilege::Read)
      .whole(out.store(), {out.offset(), out.offset() + count}, Privilege::Write)
      .args(kernels::NonzeroArgs{a.dtype()})
      .dependent_partitioning()
      .execute();
  return out;
}

Array::Indexed Array::operator[](const ArrayArg& index) {
  return Indexed(*this, index.array, index.where);
}

Array::Indexed::Indexed(Array target, Array index, std::source_location where)
    : target_(std::move(target)), index_(std::move(index)), where_(where) {
  if (is_mask()) {
    detail::check_same_shape(target_, index_, "boolean index", where_);
  } else if (index_.dtype() != DType::I64) {
    throw std::invalid_argument(who("index", where_) +
                                "arrays used as indices must be int64 or bool, not " +
                                dtype_name(index_.dtype()));
  } else if (index_.ndim() != 1 || target_.ndim() != 1) {
    throw std::invalid_argument(
        who("index", where_) + "an int64 index array must be 1-D and index a 1-D array (not " +
        index_.shape_text() + " into " + target_.shape_text() + "); flatten() first");
  }
}

Array Array::Indexed::positions() const {
  return is_mask() ? nonzero(index_, where_) : index_;
}

Array Array::Indexed::flat(bool for_writing) const {
  if (target_.ndim() == 1) return target_;
  if (target_.contiguous()) return target_.flatten();
  if (for_writing) {
    throw std::invalid_argument(
        who("indexed assignment", where_) +
        "cannot scatter into a 2-D view with gaps between rows; index a contiguous array");
  }
  return target_.copy(where_).flatten();
}

Array::Indexed::operator Array() const {
  const Array src = flat(false);
  const Array pos = positions();
  Array out = empty(pos.size(), src.dtype(), where_);
  if (pos.size() > 0) {
    rt::gather(src.store(), {src.offset(), src.offset() + src.size()}, pos.store(), pos.offset(),
               out.store(), out.offset(), pos.size(), where_);
  }
  return out;
}

ArrayArg::ArrayArg(const Array::Indexed& ix, std::source_location w)
    : array(static_cast<Array>(ix)), where(w) {}

void Array::Indexed::scatter(const Array& pos, const Array& values) {
  Array dst = flat(true);
  const int64_t n = pos.size();
  if (values.size() != n) {
    throw std::invalid_argument(who("indexed assignment", where_) + "cannot assign " +
                                std::to_string(values.size()) + " input values to the " +
                                std::to_string(n) + " output values where the index selects");
  }
  Array src = values.flatten();
  if (src.dtype() != dst.dtype()) src = src.astype(dst.dtype(), where_);
  if (n > 0) {
    rt::scatter(src.store(), src.offset(), pos.store(), pos.offset(), dst.store(),
                {dst.offset(), dst.offset() + dst.size()}, n, where_);
  }
}

// a[idx] = values (an array of one value per selected element) or value.
void Array::Indexed::assign(const ArrayArg* values, const ValueArg* value) {
  if (value != nullptr && is_mask()) {
    detail::masked_update(target_, index_, Op::Identity, *value, where_);  // one masked task
    return;
  }
  const Array pos = positions();
  scatter(pos, values != nullptr ? values->array
                                 : full(pos.size(), value->value, target_.dtype(), where_));
}

Array::Indexed& Array::Indexed::operator=(const ArrayArg& values) {
  assign(&values, nullptr);
  return *this;
}

Array::Indexed& Array::Indexed::operator=(const ValueArg& value) {
  assign(nullptr, &value);
  return *this;
}

Array::Indexed& Array::Indexed::operator=(const Indexed& values) {
  const ArrayArg o(static_cast<Array>(values), where_);
  assign(&o, nullptr);
  return *this;
}

// a[idx] op= values or value.
Array::Indexed& Array::Indexed::update(int op_code, const ArrayArg* values, const ValueArg* value) {
  const Op op = static_cast<Op>(op_code);
  if (op == Op::Div && target_.dtype() == DType::I64) {
    throw std::invalid_argument(detail::who("divide", where_) +
                                "cannot divide an int64 array in place: the quotient is float64; "
                                "astype(DType::F64) first");
  }
  if (value != nullptr && is_mask()) {
    detail::masked_update(target_, index_, op, *value, where_);  // one masked task
    return *this;
  }
  // Gather, compute, scatter back: the positions are found once.
  const Array pos = positions();
  const Array src = flat(true);
  Array selected = empty(pos.size(), target_.dtype(), where_);
  if (pos.size() > 0) {
    rt::gather(src.store(), {src.offset(), src.offset() + src.size()}, pos.store(), pos.offset(),
               selected.store(), selected.offset(), pos.size(), where_);
  }
  const detail::Term rhs = values != nullptr ? detail::Term(*values) : detail::Term(*value);
  scatter(pos, detail::binary(op, {selected, where_}, rhs, nullptr));
  return *this;
}

#define LEGATO_INDEXED_UPDATE(sym, code)                            \
  Array::Indexed& Array::Indexed::operator sym(const ArrayArg& v) { \
    return update(static_cast<int>(Op::code), &v, nullptr);         \
  }                                                                 \
  Array::Indexed& Array::Indexed::operator sym(const ValueArg& v) { \
    return update(static_cast<int>(Op::code), nullptr, &v);         \
  }
LEGATO_INDEXED_UPDATE(+=, Add)
LEGATO_INDEXED_UPDATE(-=, Sub)
LEGATO_INDEXED_UPDATE(*=, Mul)
LEGATO_INDEXED_UPDATE(/=, Div)
#undef LEGATO_INDEXED_UPDATE

}  // namespace legato::rt
