// Elementwise operations: operators, in-place updates, assignment, where,
// putmask, conversions.
#include <stdexcept>

#include "arrays/array.hpp"
#include "arrays/array_launch.hpp"
#include "arrays/kernels/cpu_support.hpp"

namespace legato::rt {

using detail::ArrayLauncher;
using detail::who;
using kernels::Op;

namespace {

const char* op_name(Op op) {
  switch (op) {
    case Op::Add:
      return "add";
    case Op::Sub:
      return "subtract";
    case Op::Mul:
      return "multiply";
    case Op::Div:
      return "divide";
    case Op::Lt:
      return "less";
    case Op::Le:
      return "less_equal";
    case Op::Gt:
      return "greater";
    case Op::Ge:
      return "greater_equal";
    case Op::Eq:
      return "equal";
    case Op::Ne:
      return "not_equal";
    case Op::And:
      return "logical_and";
    case Op::Or:
      return "logical_or";
    case Op::Neg:
      return "negative";
    case Op::Sqrt:
      return "sqrt";
    case Op::Abs:
      return "absolute";
    case Op::Not:
      return "invert";
    case Op::Identity:
      return "copy";
  }
  return "?";
}

// The type of op's result on inputs of type t (after checking op applies).
DType result_type(Op op, DType t, const std::source_location& where) {
  const bool logical = kernels::is_logical(op);
  if (logical && t != DType::Bool) {
    throw std::invalid_argument(who(op_name(op), where) + "needs bool arrays, not " +
                                dtype_name(t));
  }
  if (!logical && !kernels::is_comparison(op) && t == DType::Bool) {
    throw std::invalid_argument(
        who(op_name(op), where) +
        "arithmetic on bool arrays is not supported; use & | ~, or astype first");
  }
  if (op == Op::Sqrt && t == DType::I64) {
    throw std::invalid_argument(who(op_name(op), where) +
                                "sqrt of int64 arrays is not supported; astype(DType::F64) first");
  }
  if (kernels::is_comparison(op) || logical) return DType::Bool;
  if (op == Op::Div && t == DType::I64) return DType::F64;
  return t;
}

}  // namespace

// out = a op b; out is created when null.
Array detail::binary(Op op, const Term& a, const Term& b, Array* out) {
  const std::source_location where = a.where;
  if (!a.is_array && !b.is_array)
    throw std::invalid_argument(who(op_name(op), where) + "needs an array operand");
  const Array& shape = a.is_array ? a.array : b.array;
  if (a.is_array && b.is_array) {
    detail::check_same_shape(a.array, b.array, op_name(op), where);
    if (a.array.dtype() != b.array.dtype()) {
      throw std::invalid_argument(who(op_name(op), where) + "operands have different types (" +
                                  dtype_name(a.array.dtype()) + " and " +
                                  dtype_name(b.array.dtype()) + "); convert one with astype");
    }
  }
  const DType in = shape.dtype();
  const DType res = result_type(op, in, where);
  Array result;
  if (out != nullptr) {
    detail::check_same_shape(shape, *out, op_name(op), where);
    if (out->dtype() != res) {
      throw std::invalid_argument(who(op_name(op), where) + "out is " + dtype_name(out->dtype()) +
                                  ", the result is " + dtype_name(res));
    }
    result = *out;
  } else {
    result = shape.ndim() == 1 ? empty(shape.cols(), res, where)
                               : empty(shape.rows(), shape.cols(), res, where);
  }
  if (shape.size() == 0) return result;
  // An input that reads what this writes at other positions is read first.
  const auto input = [&](const Term& t) {
    return t.is_array && out != nullptr ? detail::unaliased(t.array, result, where) : t.array;
  };
  const Array a_in = input(a), b_in = input(b);
  const detail::Layout layout = a.is_array && b.is_array
                                    ? detail::layout_of({&a_in, &b_in, &result})
                                    : detail::layout_of({a.is_array ? &a_in : &b_in, &result});
  ArrayLauncher l(kernels::tasks().binary, layout, where);
  if (a.is_array) l.arg(a_in, Privilege::Read);
  if (b.is_array) l.arg(b_in, Privilege::Read);
  l.arg(result, Privilege::Write)
      .args(kernels::BinaryOpArgs{op, in, source_of(a), source_of(b), constant_of(a),
                                  constant_of(b)});
  // Futures in operand order: the kernel reads them as it meets them.
  if (!a.is_array) l.future_of(a.value);
  if (!b.is_array) l.future_of(b.value);
  l.execute();
  return result;
}

namespace {

Array unary(Op op, const Array& a, const std::source_location& where) {
  const DType res = op == Op::Identity ? a.dtype() : result_type(op, a.dtype(), where);
  Array out = empty_like(a, where);
  if (a.size() > 0) {
    ArrayLauncher(kernels::tasks().unary, detail::layout_of({&a, &out}), where)
        .arg(a, Privilege::Read)
        .arg(out, Privilege::Write)
        .args(kernels::UnaryOpArgs{op, res})
        .execute();
  }
  return out;
}

void convert_into(const Array& src, Array& dst, const std::source_location& where) {
  if (src.size() == 0) return;
  ArrayLauncher(kernels::tasks().convert, detail::layout_of({&src, &dst}), where)
      .arg(src, Privilege::Read)
      .arg(dst, Privilege::Write)
      .args(kernels::ConvertArgs{src.dtype(), dst.dtype()})
      .execute();
}

}  // namespace

#define LEGATO_ARRAY_OPERATOR(op, code)                     \
  Array operator op(const ArrayArg& a, const ArrayArg& b) { \
    return detail::binary(Op::code, a, b, nullptr);         \
  }                                                         \
  Array operator op(const ArrayArg& a, const ValueArg& b) { \
    return detail::binary(Op::code, a, b, nullptr);         \
  }                                                         \
  Array operator op(const ValueArg& a, const ArrayArg& b) { \
    return detail::binary(Op::code, a, b, nullptr);         \
  }
LEGATO_ARRAY_OPERATOR(+, Add)
LEGATO_ARRAY_OPERATOR(-, Sub)
LEGATO_ARRAY_OPERATOR(*, Mul)
LEGATO_ARRAY_OPERATOR(/, Div)
LEGATO_ARRAY_OPERATOR(<, Lt)
LEGATO_ARRAY_OPERATOR(<=, Le)
LEGATO_ARRAY_OPERATOR(>, Gt)
LEGATO_ARRAY_OPERATOR(>=, Ge)
LEGATO_ARRAY_OPERATOR(==, Eq)
LEGATO_ARRAY_OPERATOR(!=, Ne)
LEGATO_ARRAY_OPERATOR(&, And)
LEGATO_ARRAY_OPERATOR(|, Or)
#undef LEGATO_ARRAY_OPERATOR

Array operator-(const ArrayArg& a) {
  return unary(Op::Neg, a.array, a.where);
}
Array operator~(const ArrayArg& a) {
  return unary(Op::Not, a.array, a.where);
}
Array sqrt(const Array& a, std::source_location where) {
  return unary(Op::Sqrt, a, where);
}
Array abs(const Array& a, std::source_location where) {
  return unary(Op::Abs, a, where);
}

void add(const Array& x, const Array& y, Array& out, std::source_location where) {
  detail::binary(Op::Add, {x, where}, {y, where}, &out);
}
void subtract(const Array& x, const Array& y, Array& out, std::source_location where) {
  detail::binary(Op::Sub, {x, where}, {y, where}, &out);
}
void multiply(const Array& x, const Array& y, Array& out, std::source_location where) {
  detail::binary(Op::Mul, {x, where}, {y, where}, &out);
}
void divide(const Array& x, const Array& y, Array& out, std::source_location where) {
  detail::binary(Op::Div, {x, where}, {y, where}, &out);
}

Array& Array::operator+=(const ArrayArg& o) {
  detail::binary(Op::Add, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator+=(const ValueArg& o) {
  detail::binary(Op::Add, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator-=(const ArrayArg& o) {
  detail::binary(Op::Sub, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator-=(const ValueArg& o) {
  detail::binary(Op::Sub, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator*=(const ArrayArg& o) {
  detail::binary(Op::Mul, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator*=(const ValueArg& o) {
  detail::binary(Op::Mul, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator/=(const ArrayArg& o) {
  detail::binary(Op::Div, {*this, o.where}, o, this);
  return *this;
}
Array& Array::operator/=(const ValueArg& o) {
  detail::binary(Op::Div, {*this, o.where}, o, this);
  return *this;
}

Array Array::astype(DType type, std::source_location where) const {
  Array out = ndim_ == 1 ? empty(cols_, type, where) : empty(rows_, cols_, type, where);
  convert_into(*this, out, where);
  return out;
}

Array Array::copy(std::source_location where) const {
  return unary(Op::Identity, *this, where);
}

void Array::assign(const Array& src, std::source_location where) {
  detail::check_same_shape(src, *this, "assign", where);
  if (size() == 0) return;
  if (src.dtype() != dtype_) {
    convert_into(src, *this, where);
  } else if (src.contiguous() && contiguous()) {
    rt::copy(src.store_, src.offset_, store_, offset_, size(), where);  // a copy on a channel
  } else {
    ArrayLauncher(kernels::tasks().unary, detail::layout_of({&src, this}), where)
        .arg(src, Privilege::Read)
        .arg(*this, Privilege::Write)
        .args(kernels::UnaryOpArgs{Op::Identity, dtype_})
        .execute();
  }
}

void Array::assign(const Value& v, std::source_location where) {
  if (size() == 0) return;
  if (v.is_constant() && contiguous()) {
    // The value as an element of this array's type, exactly (an int64 never
    // passes through a double).
    const Scalar& c = v.constant_scalar();
    const Scalar s =
        dtype_ == DType::I64
            ? Scalar(kernels::element_of<int64_t>(c))
            : Scalar(dtype_ == DType::Bool ? static_cast<double>(kernels::element_of<uint8_t>(c))
                                           : c.as_double());
    rt::fill(store_, {offset_, offset_ + size()}, s, where);  // deferred until the data is needed
    return;
  }
  ArrayLauncher(kernels::tasks().fill, detail::layout_of({this}), where)
      .arg(*this, Privilege::Write)
      .args(kernels::FillArgs{dtype_, detail::source_of(v), detail::constant_of(v)})
      .future_of(v)
      .execute();
}

Array where(const Array& cond, const Array& x, const Array& y, std::source_location at) {
  detail::check_same_shape(cond, x, "where", at);
  detail::check_same_shape(cond, y, "where", at);
  if (cond.dtype() != DType::Bool)
    throw std::invalid_argument(who("where", at) + "the condition must be a bool array");
  if (x.dtype() != y.dtype()) {
    throw std::invalid_argument(who("where", at) + "x and y have different types (" +
                                dtype_name(x.dtype()) + " and " + dtype_name(y.dtype()) + ")");
  }
  Array out = empty_like(x, at);
  if (out.size() == 0) return out;
  ArrayLauncher(kernels::tasks().where, detail::layout_of({&cond, &x, &y, &out}), at)
      .arg(cond, Privilege::Read)
      .arg(x, Privilege::Read)
      .arg(y, Privilege::Read)
      .arg(out, Privilege::Write)
      .args(kernels::WhereArgs{x.dtype(), kernels::Source::Array, kernels::Source::Array,
                               Scalar(0.0), Scalar(0.0)})
      .execute();
  return out;
}

Array where(const Array& cond, const Value& x, const Value& y, std::source_location at) {
  if (cond.dtype() != DType::Bool)
    throw std::invalid_argument(who("where", at) + "the condition must be a bool array");
  const DType type = x.dtype() == DType::I64 && y.dtype() == DType::I64 ? DType::I64 : DType::F64;
  Array out =
      cond.ndim() == 1 ? empty(cond.cols(), type, at) : empty(cond.rows(), cond.cols(), type, at);
  if (out.size() == 0) return out;
  ArrayLauncher(kernels::tasks().where, detail::layout_of({&cond, &out}), at)
      .arg(cond, Privilege::Read)
      .arg(out, Privilege::Write)
      .args(kernels::WhereArgs{type, detail::source_of(x), detail::source_of(y),
                               detail::constant_of(x), detail::constant_of(y)})
      .future_of(x)
      .future_of(y)
      .execute();
  return out;
}

namespace detail {

void masked_update(Array& a, const Array& mask, Op op, const Term& v,
                   const std::source_location& at) {
  const char* name = op == Op::Identity ? "putmask" : "masked update";
  check_same_shape(a, mask, name, at);
  if (mask.dtype() != DType::Bool)
    throw std::invalid_argument(who(name, at) + "the mask must be a bool array");
  if (op != Op::Identity && a.dtype() == DType::Bool) {
    throw std::invalid_argument(who(name, at) + "arithmetic on bool arrays is not supported");
  }
  if (op == Op::Div && a.dtype() == DType::I64) {
    // True division gives float64, which an int64 array cannot hold (and an
    // integer division by zero would stop the program).
    throw std::invalid_argument(who(name, at) +
                                "cannot divide an int64 array in place: the quotient is "
                                "float64; astype(DType::F64) first");
  }
  if (v.is_array) {
    check_same_shape(a, v.array, name, at);
    if (v.array.dtype() != a.dtype()) {
      throw std::invalid_argument(who(name, at) + "values are " + dtype_name(v.array.dtype()) +
                                  ", the array is " + dtype_name(a.dtype()));
    }
  }
  if (a.size() == 0) return;
  // Values or a mask read from what this writes at other positions: read first.
  const Array values = v.is_array ? unaliased(v.array, a, at) : Array();
  const Array m = unaliased(mask, a, at);
  const Layout layout = v.is_array ? layout_of({&a, &m, &values}) : layout_of({&a, &m});
  ArrayLauncher l(kernels::tasks().putmask, layout, at);
  l.arg(a, Privilege::ReadWrite).arg(m, Privilege::Read);
  if (v.is_array) l.arg(values, Privilege::Read);
  l.args(kernels::PutmaskArgs{a.dtype(), op, source_of(v), constant_of(v)});
  if (!v.is_array) l.future_of(v.value);
  l.execute();
}

}  // namespace detail

void putmask(Array& a, const Array& mask, const Array& values, std::source_location at) {
  detail::masked_update(a, mask, Op::Identity, {values, at}, at);
}

void putmask(Array& a, const Array& mask, const Value& value, std::source_location at) {
  detail::masked_update(a, mask, Op::Identity, ValueArg(value, at), at);
}

}  // namespace legato::rt
