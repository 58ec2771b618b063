// Reductions, products, values and reading data back into the program.
#include <cmath>
#include <stdexcept>

#include "arrays/array.hpp"
#include "arrays/array_launch.hpp"
#include "arrays/kernels/cpu_support.hpp"

namespace legato::rt {

using detail::ArrayLauncher;
using detail::who;
using kernels::Op;

namespace {

// Integer and bool reductions are exact (int64 futures); floats fold in double.
DType result_type(DType t) {
  return t == DType::F32 || t == DType::F64 ? DType::F64 : DType::I64;
}

Value reduce(const Array& a, kernels::Reduction red, ReduceOp fold, const char* name,
             const std::source_location& where) {
  const DType type = result_type(a.dtype());
  if (a.size() == 0) {
    if (red == kernels::Reduction::Min || red == kernels::Reduction::Max) {
      throw std::invalid_argument(who(name, where) + "zero-size array to reduction operation " +
                                  name + " which has no identity");
    }
    return Value(0.0);
  }
  Future f = ArrayLauncher(kernels::tasks().reduce, detail::layout_of({&a}), where)
                 .arg(a, Privilege::Read)
                 .args(kernels::ReduceArgs{red, a.dtype()})
                 .execute(std::pair{fold, type});
  return Value(std::move(f), type);
}

// The type of a op b: int64 for +, - and * of two int64 values (exact,
// wrapping as NumPy's int64 does), else float64.
DType value_type(Op op, const Value& a, const Value& b) {
  const bool exact = op == Op::Add || op == Op::Sub || op == Op::Mul;
  return exact && a.dtype() == DType::I64 && b.dtype() == DType::I64 ? DType::I64 : DType::F64;
}

// a op b on values: folded at once when both are constants, otherwise a
// ScalarBinaryOpTask that waits for the futures.
Value scalar_op(Op op, const Value& a, const Value& b, const std::source_location& where) {
  const DType type = value_type(op, a, b);
  if (a.is_constant() && b.is_constant() && type == DType::I64) {
    const int64_t x = a.constant_scalar().i, y = b.constant_scalar().i;
    return op == Op::Add   ? kernels::add_wrap(x, y)
           : op == Op::Sub ? kernels::sub_wrap(x, y)
                           : kernels::mul_wrap(x, y);
  }
  if (a.is_constant() && b.is_constant()) {
    const double x = a.constant(), y = b.constant();
    switch (op) {
      case Op::Add:
        return x + y;
      case Op::Sub:
        return x - y;
      case Op::Mul:
        return x * y;
      case Op::Div:
        return x / y;
      case Op::Sqrt:
        return std::sqrt(x);
      default:
        throw std::logic_error("unknown value operator");
    }
  }
  Future f = ArrayLauncher(kernels::tasks().scalar, {false, 1, 1}, where)
                 .args(kernels::ScalarOpArgs{op, detail::source_of(a), detail::source_of(b),
                                             detail::constant_of(a), detail::constant_of(b), type})
                 .future_of(a)
                 .future_of(b)
                 .execute(std::pair{ReduceOp::Sum, type});
  return Value(std::move(f), type);
}

}  // namespace

// --- values ---

double Value::item(std::source_location) const {
  return constant_ ? c_.as_double() : future_.get();
}

int64_t Value::item_int(std::source_location where) const {
  if (type_ == DType::I64) return constant_ ? c_.i : future_.get_int();
  const double v = item(where);
  if (!(v >= -0x1p63 && v < 0x1p63)) {
    throw std::domain_error("item_int at " + call_site_text(where) + ": cannot convert float " +
                            std::to_string(v) + " to int64");
  }
  return static_cast<int64_t>(v);
}

Value operator+(const ValueArg& a, const ValueArg& b) {
  return scalar_op(Op::Add, a.value, b.value, a.where);
}
Value operator-(const ValueArg& a, const ValueArg& b) {
  return scalar_op(Op::Sub, a.value, b.value, a.where);
}
Value operator*(const ValueArg& a, const ValueArg& b) {
  return scalar_op(Op::Mul, a.value, b.value, a.where);
}
Value operator/(const ValueArg& a, const ValueArg& b) {
  return scalar_op(Op::Div, a.value, b.value, a.where);
}
Value sqrt(const Value& v, std::source_location where) {
  return scalar_op(Op::Sqrt, v, Value(0.0), where);
}

// --- reductions ---

Value Array::sum(std::source_location where) const {
  return reduce(*this, kernels::Reduction::Sum, ReduceOp::Sum, "sum", where);
}
Value Array::min(std::source_location where) const {
  return reduce(*this, kernels::Reduction::Min, ReduceOp::Min, "minimum", where);
}
Value Array::max(std::source_location where) const {
  return reduce(*this, kernels::Reduction::Max, ReduceOp::Max, "maximum", where);
}
Value sum(const Array& a, std::source_location where) {
  return a.sum(where);
}

namespace detail {
Value count_nonzero(const Array& a, const std::source_location& where) {
  return reduce(a, kernels::Reduction::CountNonzero, ReduceOp::Sum, "count_nonzero", where);
}
}  // namespace detail

Value Array::dot(const Array& o, std::source_location where) const {
  if (ndim_ != 1 || o.ndim() != 1) {
    throw std::invalid_argument(who("dot", where) + "needs two 1-D arrays, not " + shape_text() +
                                " and " + o.shape_text() + "; use matvec for a matrix");
  }
  if (cols_ != o.cols()) {
    throw std::invalid_argument(who("dot", where) + "shapes " + shape_text() + " and " +
                                o.shape_text() + " not aligned");
  }
  if (dtype_ != o.dtype() || dtype_ == DType::Bool) {
    throw std::invalid_argument(who("dot", where) +
                                "needs two float or int64 arrays of one type, not " +
                                dtype_name(dtype_) + " and " + dtype_name(o.dtype()));
  }
  const DType type = result_type(dtype_);
  if (size() == 0) return Value(0.0);
  Future f = ArrayLauncher(kernels::tasks().dot, detail::layout_of({this, &o}), where)
                 .arg(*this, Privilege::Read)
                 .arg(o, Privilege::Read)
                 .args(kernels::DotArgs{dtype_})
                 .execute(std::pair{ReduceOp::Sum, type});
  return Value(std::move(f), type);
}

Value dot(const Array& a, const Array& b, std::source_location where) {
  return a.dot(b, where);
}

Array matvec(const Array& a, const Array& x, std::source_location where) {
  if (a.ndim() != 2 || x.ndim() != 1) {
    throw std::invalid_argument(who("matvec", where) + "needs a 2-D matrix and a 1-D vector, not " +
                                a.shape_text() + " and " + x.shape_text());
  }
  if (a.cols() != x.cols()) {
    throw std::invalid_argument(who("matvec", where) + "shapes " + a.shape_text() + " and " +
                                x.shape_text() + " not aligned: " + std::to_string(a.cols()) +
                                " (dim 1) != " + std::to_string(x.cols()) + " (dim 0)");
  }
  if (a.dtype() != x.dtype() || a.dtype() == DType::Bool) {
    throw std::invalid_argument(who("matvec", where) +
                                "needs a float or int64 matrix and vector of one type, not " +
                                dtype_name(a.dtype()) + " and " + dtype_name(x.dtype()));
  }
  Array y = zeros(a.rows(), a.dtype(), where);
  if (a.rows() == 0 || a.cols() == 0) return y;
  ArrayLauncher(kernels::tasks().matvec, {true, a.rows(), a.cols()}, where)
      .rows(a.store(), a.offset(), a.row_stride(), a.cols(), Privilege::Read)
      .whole(x.store(), {x.offset(), x.offset() + x.cols()}, Privilege::Read)
      .per_index(y.store(), y.offset(), Privilege::Write)
      .args(kernels::MatVecArgs{a.dtype()})
      .execute();
  return y;
}

// --- reading back ---

namespace {

// The elements of a into dst (host elements of type host: a's own, or
// double); waits.
void readback(const Array& a, void* dst, DType host, const std::source_location& where) {
  if (a.size() == 0) return;
  // The points write straight into `dst`; the future says they are done.
  // Every rank of a run reads all of it.
  ArrayLauncher(kernels::tasks().readback, detail::layout_of({&a}), where)
      .replicated()
      .arg(a, Privilege::Read)
      .args(kernels::ReadbackArgs{a.dtype(), reinterpret_cast<uintptr_t>(dst), host})
      .execute(std::pair{ReduceOp::Sum, DType::I64})
      .get();
}

// The program's elements at src (of type host) into a; waits.
void upload(Array& a, const void* src, DType host, const std::source_location& where) {
  if (a.size() == 0) return;
  // The points read straight from `src`; the future says they are done.
  ArrayLauncher(kernels::tasks().upload, detail::layout_of({&a}), where)
      .arg(a, Privilege::Write)
      .args(kernels::UploadArgs{a.dtype(), reinterpret_cast<uintptr_t>(src), host})
      .execute(std::pair{ReduceOp::Sum, DType::I64})
      .get();
}

}  // namespace

std::vector<double> Array::to_vector(std::source_location where) const {
  std::vector<double> out(static_cast<size_t>(size()));
  readback(*this, out.data(), DType::F64, where);
  return out;
}

void Array::read(void* dst, std::source_location where) const {
  readback(*this, dst, dtype_, where);
}

Array from_values(const std::vector<double>& values, DType type, std::source_location where) {
  Array a = empty(static_cast<int64_t>(values.size()), type, where);
  upload(a, values.data(), DType::F64, where);
  return a;
}

Array from_buffer(const void* data, const std::vector<int64_t>& shape, DType type,
                  std::source_location where) {
  if (shape.size() != 1 && shape.size() != 2) {
    throw std::invalid_argument(who("from_buffer", where) + "arrays have 1 or 2 dimensions, not " +
                                std::to_string(shape.size()));
  }
  Array a =
      shape.size() == 1 ? empty(shape[0], type, where) : empty(shape[0], shape[1], type, where);
  upload(a, data, type, where);
  return a;
}

Array from_values(const std::vector<double>& values, int64_t rows, int64_t cols, DType type,
                  std::source_location where) {
  detail::check_shape(rows, cols, type, "from_values", where);
  if (rows * cols != static_cast<int64_t>(values.size()))
    throw std::invalid_argument(detail::who("from_values", where) + std::to_string(values.size()) +
                                " values do not make a " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " array");
  Array a = empty(rows, cols, type, where);
  upload(a, values.data(), DType::F64, where);
  return a;
}

double Array::item(std::source_location where) const {
  if (size() != 1) {
    throw std::invalid_argument(who("item", where) +
                                "can only convert an array of size 1 to a scalar, not " +
                                shape_text());
  }
  return to_vector(where)[0];
}

int64_t Array::item_int(std::source_location where) const {
  if (size() != 1) {
    throw std::invalid_argument(who("item_int", where) +
                                "can only convert an array of size 1 to a scalar, not " +
                                shape_text());
  }
  int64_t v = 0;
  readback(*this, &v, DType::I64, where);
  return v;
}

}  // namespace legato::rt
