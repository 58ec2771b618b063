#include "runtime/types.hpp"

#include <type_traits>

namespace legato::rt {
namespace {

// Integers wrap, as NumPy's do (a plain int64 overflow is undefined); a NaN
// wins a minimum or maximum, as in NumPy, whichever side it is on.
template <class T>
T apply(ReduceOp op, T a, T b) {
  if constexpr (std::is_same_v<T, int64_t>) {
    const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (op == ReduceOp::Sum) return static_cast<T>(ua + ub);
    if (op == ReduceOp::Prod) return static_cast<T>(ua * ub);
  }
  switch (op) {
    case ReduceOp::Sum:
      return static_cast<T>(a + b);
    case ReduceOp::Prod:
      return static_cast<T>(a * b);
    case ReduceOp::Min:
      return b < a || b != b ? b : a;  // NOLINT(misc-redundant-expression): NaN
    case ReduceOp::Max:
      return a < b || b != b ? b : a;  // NOLINT(misc-redundant-expression): NaN
  }
  return a;
}

template <class T>
T identity(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum:
      return T(0);
    case ReduceOp::Prod:
      return T(1);
    case ReduceOp::Min:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
    case ReduceOp::Max:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
  }
  return T(0);
}

template <class T>
void reduce_typed(ReduceOp op, void* dst, const void* src, int64_t n) {
  T* d = static_cast<T*>(dst);
  const T* s = static_cast<const T*>(src);
  for (int64_t i = 0; i < n; ++i) d[i] = apply(op, d[i], s[i]);
}

template <class T>
void fill_typed(void* dst, T v, int64_t n) {
  std::fill_n(static_cast<T*>(dst), n, v);
}

}  // namespace

const char* dtype_name(DType t) {
  switch (t) {
    case DType::F32:
      return "float32";
    case DType::F64:
      return "float64";
    case DType::I64:
      return "int64";
    case DType::Bool:
      return "bool";
  }
  return "?";
}

Scalar reduce_identity(ReduceOp op, DType type) {
  return type == DType::I64 ? Scalar(identity<int64_t>(op)) : Scalar(identity<double>(op));
}

Scalar reduce_scalars(ReduceOp op, const Scalar& a, const Scalar& b) {
  if (a.type == DType::I64 && b.type == DType::I64) return Scalar(apply(op, a.i, b.i));
  return Scalar(apply(op, a.as_double(), b.as_double()));
}

void reduce_elements(ReduceOp op, DType type, void* dst, const void* src, int64_t n) {
  switch (type) {
    case DType::F32:
      reduce_typed<float>(op, dst, src, n);
      break;
    case DType::F64:
      reduce_typed<double>(op, dst, src, n);
      break;
    case DType::I64:
      reduce_typed<int64_t>(op, dst, src, n);
      break;
    case DType::Bool: {
      // Sum/Max act as logical or, Prod/Min as logical and.
      auto* d = static_cast<uint8_t*>(dst);
      const auto* s = static_cast<const uint8_t*>(src);
      const bool any = op == ReduceOp::Sum || op == ReduceOp::Max;
      for (int64_t i = 0; i < n; ++i) d[i] = any ? (d[i] | s[i]) : (d[i] & s[i]);
      break;
    }
  }
}

void fill_elements(DType type, void* dst, const Scalar& v, int64_t n) {
  switch (type) {
    case DType::F32:
      fill_typed<float>(dst, static_cast<float>(v.as_double()), n);
      break;
    case DType::F64:
      fill_typed<double>(dst, v.as_double(), n);
      break;
    case DType::I64:
      fill_typed<int64_t>(dst, v.as_int(), n);
      break;
    case DType::Bool:
      fill_typed<uint8_t>(dst, v.as_double() != 0 ? 1 : 0, n);
      break;
  }
}

}  // namespace legato::rt
