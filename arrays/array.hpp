// NumPy-style arrays on the Legato runtime. Every operation is deferred:
// it becomes runtime tasks (split by the minimum chunk size), copies or
// fills, and returns at once; only item() and to_vector() wait (a recorded
// wait of the top-level task).
//
//   using namespace legato::rt;
//   Array x = Generator(42).random(1000);
//   Array y = sqrt(x) * 2.0 + 1.0;
//   y[y > 2.5] += 1.0;                 // nonzero, gather, add, scatter
//   double total = y.sum().item();
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include "runtime/legato.hpp"

namespace legato::rt {

class Array;
struct ArrayArg;
struct ValueArg;

// A scalar that may not exist yet: a constant, or the future result of a
// reduction. Arithmetic on values is deferred too; item() waits. A value is
// float64 or int64 (dtype()): an integer constant, the sum of an int64 or
// bool array, and +, - and * of two int64 values stay exact int64 (wrapping
// as NumPy's do); anything with a float64 value, and /, is float64.
class Value {
 public:
  Value(double v) : constant_(true), c_(v), type_(DType::F64) {}   // NOLINT: a number is a value
  Value(int64_t v) : constant_(true), c_(v), type_(DType::I64) {}  // NOLINT
  Value(int v) : Value(static_cast<int64_t>(v)) {}                 // NOLINT
  Value(Future f, DType type) : constant_(false), type_(type), future_(std::move(f)) {}
  // As a double (an int64 value past 2^53 rounds: read those with item_int).
  double item(std::source_location where = std::source_location::current()) const;
  // Exact for an int64 value; a float64 one truncated toward zero, and
  // std::domain_error for NaN, infinities and values out of int64's range.
  int64_t item_int(std::source_location where = std::source_location::current()) const;
  bool is_constant() const { return constant_; }
  double constant() const { return c_.as_double(); }
  // The constant exactly as given (an int64 or a double).
  const Scalar& constant_scalar() const { return c_; }
  const Future& future() const { return future_; }
  DType dtype() const { return type_; }

 private:
  bool constant_;
  Scalar c_;
  DType type_ = DType::F64;
  Future future_;
};
// Arithmetic on values (deferred: a ScalarBinaryOpTask when a side is not
// known yet); see ValueArg below.
Value operator+(const ValueArg& a, const ValueArg& b);
Value operator-(const ValueArg& a, const ValueArg& b);
Value operator*(const ValueArg& a, const ValueArg& b);
Value operator/(const ValueArg& a, const ValueArg& b);
Value sqrt(const Value& v, std::source_location where = std::source_location::current());

// A 1-D or 2-D array, or a view of one (views share storage).
class Array {
 public:
  Array() = default;
  DType dtype() const { return dtype_; }
  int ndim() const { return ndim_; }
  int64_t size() const { return rows_ * cols_; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  std::vector<int64_t> shape() const;
  std::string shape_text() const;  // "(10,)" or "(3, 4)"
  bool valid() const { return store_.valid(); }

  // Views: elements [lo, hi) of a 1-D array, rows [lo, hi) of a 2-D one.
  Array slice(int64_t lo, int64_t hi) const;
  // Rows [r0, r1) and columns [c0, c1) of a 2-D array.
  Array view(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const;
  // The same elements seen with another shape (contiguous arrays only).
  Array reshape(int64_t rows, int64_t cols) const;
  // A view when the array is contiguous, else a copy made at `where`.
  Array flatten(std::source_location where = std::source_location::current()) const;
  Array astype(DType type, std::source_location where = std::source_location::current()) const;
  Array copy(std::source_location where = std::source_location::current()) const;
  // cuPyNumeric's stencil_hint: the operations to come touch up to low[d]
  // elements before and high[d] after what they work on in each dimension,
  // so the first instance of the array is made that much larger (one
  // instance instead of a small one and then a larger one).
  void stencil_hint(const std::vector<int64_t>& low, const std::vector<int64_t>& high,
                    std::source_location where = std::source_location::current()) const;

  // Writes into this array (or view): b.slice(1, n - 1).assign(a).
  void assign(const Array& src, std::source_location where = std::source_location::current());
  void assign(const Value& v, std::source_location where = std::source_location::current());

  Array& operator+=(const ArrayArg& o);
  Array& operator-=(const ArrayArg& o);
  Array& operator*=(const ArrayArg& o);
  Array& operator/=(const ArrayArg& o);
  Array& operator+=(const ValueArg& v);
  Array& operator-=(const ValueArg& v);
  Array& operator*=(const ValueArg& v);
  Array& operator/=(const ValueArg& v);

  Value sum(std::source_location where = std::source_location::current()) const;
  Value min(std::source_location where = std::source_location::current()) const;
  Value max(std::source_location where = std::source_location::current()) const;
  Value dot(const Array& o, std::source_location where = std::source_location::current()) const;
  // The value of a one-element array (waits); item_int() reads an int64
  // array's exactly (a float one as astype(DType::I64) converts it).
  double item(std::source_location where = std::source_location::current()) const;
  int64_t item_int(std::source_location where = std::source_location::current()) const;
  // Every element, converted to double (waits; int64 past 2^53 rounds).
  std::vector<double> to_vector(std::source_location where = std::source_location::current()) const;
  // Every element in the array's own type, row-major, into dst, which holds
  // size() of them: float, double, int64_t, or one byte 0/1 per bool (waits;
  // exact for every type).
  void read(void* dst, std::source_location where = std::source_location::current()) const;

  // Indexing with an int64 index array (gather) or a bool mask (nonzero +
  // gather); assigning to the result scatters back.
  class Indexed;
  Indexed operator[](const ArrayArg& index);

  // Internals for the implementation.
  const Store& store() const { return store_; }
  int64_t offset() const { return offset_; }
  int64_t row_stride() const { return stride_; }
  bool contiguous() const { return ndim_ == 1 || rows_ <= 1 || stride_ == cols_; }
  static Array make(Store store, DType type, int ndim, int64_t rows, int64_t cols, int64_t offset,
                    int64_t stride);

 private:
  Store store_;
  DType dtype_ = DType::F64;
  int ndim_ = 1;
  int64_t rows_ = 1, cols_ = 0;  // a 1-D array is one row of cols_ elements
  int64_t offset_ = 0;           // of element (0, 0) in the store
  int64_t stride_ = 0;           // store elements from one row to the next
};

// Creation. Shapes: n for 1-D, (rows, cols) for 2-D. A negative dimension,
// or a shape whose bytes would be more than 2^63 - 1 (NumPy's limit too),
// throws std::invalid_argument ("array is too big").
Array empty(int64_t n, DType type = DType::F64,
            std::source_location where = std::source_location::current());
Array empty(int64_t rows, int64_t cols, DType type = DType::F64,
            std::source_location where = std::source_location::current());
Array zeros(int64_t n, DType type = DType::F64,
            std::source_location where = std::source_location::current());
Array zeros(int64_t rows, int64_t cols, DType type = DType::F64,
            std::source_location where = std::source_location::current());
Array ones(int64_t n, DType type = DType::F64,
           std::source_location where = std::source_location::current());
Array ones(int64_t rows, int64_t cols, DType type = DType::F64,
           std::source_location where = std::source_location::current());
Array full(int64_t n, const Value& v, DType type = DType::F64,
           std::source_location where = std::source_location::current());
Array full(int64_t rows, int64_t cols, const Value& v, DType type = DType::F64,
           std::source_location where = std::source_location::current());
Array empty_like(const Array& a, std::source_location where = std::source_location::current());
// An array of the program's values (row-major for rows x cols), copied in
// before it returns (a recorded wait, as reading values back is).
Array from_values(const std::vector<double>& values, DType type = DType::F64,
                  std::source_location where = std::source_location::current());
Array from_values(const std::vector<double>& values, int64_t rows, int64_t cols,
                  DType type = DType::F64,
                  std::source_location where = std::source_location::current());
// The elements of `shape` (one or two dimensions) of `type` at data, already
// in the array's own type (as read() gives them), copied in before it
// returns: exact for every type.
Array from_buffer(const void* data, const std::vector<int64_t>& shape, DType type,
                  std::source_location where = std::source_location::current());
// 0, 1, ..., n - 1 (none for n <= 0, as NumPy's arange).
Array arange(int64_t n, DType type = DType::I64,
             std::source_location where = std::source_location::current());
Array eye(int64_t n, DType type = DType::F64,
          std::source_location where = std::source_location::current());
// diag(1-D v, k): a square matrix with v on diagonal k; diag(2-D a, k): diagonal k of a.
Array diag(const Array& a, int64_t k = 0,
           std::source_location where = std::source_location::current());

// A seeded random source: the same seed gives the same numbers, however the
// work is split.
class Generator {
 public:
  explicit Generator(uint64_t seed) : seed_(seed) {}
  // Uniform in [0, 1) (float types), or in [0, 2^31) for int64, or true/false for bool.
  Array random(int64_t n, DType type = DType::F64,
               std::source_location where = std::source_location::current());
  Array random(int64_t rows, int64_t cols, DType type = DType::F64,
               std::source_location where = std::source_location::current());

 private:
  uint64_t seed_;
  uint64_t drawn_ = 0;
};

// The operands of operators: an array (or a[idx]) or a value, each with the
// place in the program where the operator was written. C++ gives operators
// no default arguments, but a conversion to these types can take one, so
// every task an operator launches names the caller's line.
struct ArrayArg {
  ArrayArg(const Array& a, std::source_location w = std::source_location::current())  // NOLINT
      : array(a), where(w) {}
  // a[idx] as an operand: its elements (gathered).
  ArrayArg(const Array::Indexed& ix,
           std::source_location w = std::source_location::current());  // NOLINT
  Array array;
  std::source_location where;
};
struct ValueArg {
  ValueArg(const Value& v, std::source_location w = std::source_location::current())  // NOLINT
      : value(v), where(w) {}
  ValueArg(double v, std::source_location w = std::source_location::current())  // NOLINT
      : value(v), where(w) {}
  ValueArg(int v, std::source_location w = std::source_location::current())  // NOLINT
      : value(v), where(w) {}
  ValueArg(int64_t v, std::source_location w = std::source_location::current())  // NOLINT
      : value(v), where(w) {}
  Value value;
  std::source_location where;
};

// a[index]: reading gathers, assigning scatters. index is an int64 array of
// positions in a 1-D array (0 <= i < n), or a bool mask of a's shape (its
// nonzero() positions; a 2-D array is indexed in row-major order). With a
// mask and a single value, assignment and updates are one masked task
// (a[mask] += 2.0, as NumPy's putmask); otherwise they gather, compute and
// scatter.
class Array::Indexed {
 public:
  Indexed(Array target, Array index, std::source_location where);
  operator Array() const;  // NOLINT: reading a[idx] gives its elements
  Indexed& operator=(const ArrayArg& values);
  Indexed& operator=(const ValueArg& value);
  Indexed& operator=(const Indexed& values);
  Indexed& operator+=(const ArrayArg& v);
  Indexed& operator-=(const ArrayArg& v);
  Indexed& operator*=(const ArrayArg& v);
  Indexed& operator/=(const ArrayArg& v);
  Indexed& operator+=(const ValueArg& v);
  Indexed& operator-=(const ValueArg& v);
  Indexed& operator*=(const ValueArg& v);
  Indexed& operator/=(const ValueArg& v);

 private:
  bool is_mask() const { return index_.dtype() == DType::Bool; }
  Array positions() const;             // int64 indices into flat(target)
  Array flat(bool for_writing) const;  // the target seen as 1-D
  void assign(const ArrayArg* values, const ValueArg* value);
  Indexed& update(int op, const ArrayArg* values, const ValueArg* value);
  void scatter(const Array& positions, const Array& values);
  Array target_, index_;
  std::source_location where_;
};

// Elementwise arithmetic and comparisons. Arrays must have the same shape and
// type (a value is converted to the array's type); at least one side is an
// array.
#define LEGATO_ARRAY_OPERATOR(op)                          \
  Array operator op(const ArrayArg& a, const ArrayArg& b); \
  Array operator op(const ArrayArg& a, const ValueArg& b); \
  Array operator op(const ValueArg& a, const ArrayArg& b);
LEGATO_ARRAY_OPERATOR(+)
LEGATO_ARRAY_OPERATOR(-)
LEGATO_ARRAY_OPERATOR(*)
LEGATO_ARRAY_OPERATOR(/)
LEGATO_ARRAY_OPERATOR(<)
LEGATO_ARRAY_OPERATOR(<=)
LEGATO_ARRAY_OPERATOR(>)
LEGATO_ARRAY_OPERATOR(>=)
LEGATO_ARRAY_OPERATOR(==)
LEGATO_ARRAY_OPERATOR(!=)
LEGATO_ARRAY_OPERATOR(&)  // bool arrays
LEGATO_ARRAY_OPERATOR(|)
#undef LEGATO_ARRAY_OPERATOR
Array operator-(const ArrayArg& a);
Array operator~(const ArrayArg& a);
Array sqrt(const Array& a, std::source_location where = std::source_location::current());
Array abs(const Array& a, std::source_location where = std::source_location::current());

// Into an existing array (out), as numpy's add(x, y, out=z).
void add(const Array& x, const Array& y, Array& out,
         std::source_location where = std::source_location::current());
void subtract(const Array& x, const Array& y, Array& out,
              std::source_location where = std::source_location::current());
void multiply(const Array& x, const Array& y, Array& out,
              std::source_location where = std::source_location::current());
void divide(const Array& x, const Array& y, Array& out,
            std::source_location where = std::source_location::current());

// where(cond, x, y): x where cond is true, else y. With two values the
// result is int64 when both are, else float64 (as NumPy's).
Array where(const Array& cond, const Array& x, const Array& y,
            std::source_location where = std::source_location::current());
Array where(const Array& cond, const Value& x, const Value& y,
            std::source_location where = std::source_location::current());
// a[mask] = values[mask] (values: an array of a's shape, or one value), in place.
void putmask(Array& a, const Array& mask, const Array& values,
             std::source_location where = std::source_location::current());
void putmask(Array& a, const Array& mask, const Value& value,
             std::source_location where = std::source_location::current());

// The indices of the non-zero elements of a 1-D array (int64), computed on
// the dependent-partitioning processor once their count is known (a wait).
Array nonzero(const Array& a, std::source_location where = std::source_location::current());

Value sum(const Array& a, std::source_location where = std::source_location::current());
Value dot(const Array& a, const Array& b,
          std::source_location where = std::source_location::current());
// Matrix-vector product: A (rows x cols) times x (cols).
Array matvec(const Array& a, const Array& x,
             std::source_location where = std::source_location::current());

}  // namespace legato::rt
