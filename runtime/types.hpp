// Value types of the runtime's public API: element types, ranges,
// privileges, reduction operators and scalars.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace legato::rt {

enum class DType : uint8_t { F32, F64, I64, Bool };

constexpr size_t dtype_size(DType t) {
  switch (t) {
    case DType::F32:
      return 4;
    case DType::F64:
      return 8;
    case DType::I64:
      return 8;
    case DType::Bool:
      return 1;
  }
  return 1;
}
const char* dtype_name(DType t);

// A half-open element range [lo, hi).
struct Range {
  int64_t lo = 0, hi = 0;
  int64_t size() const { return hi > lo ? hi - lo : 0; }
  bool empty() const { return hi <= lo; }
  bool overlaps(const Range& o) const { return lo < o.hi && o.lo < hi; }
  bool contains(const Range& o) const { return o.empty() || (lo <= o.lo && o.hi <= hi); }
  bool operator==(const Range&) const = default;
};

enum class Privilege : uint8_t { Read, Write, ReadWrite, Reduce };
constexpr bool reads(Privilege p) {
  return p != Privilege::Write;
}
constexpr bool writes(Privilege p) {
  return p != Privilege::Read;
}

enum class ReduceOp : uint8_t { Sum, Prod, Min, Max };

// A scalar value of one of the element types (task arguments, results).
struct Scalar {
  DType type = DType::F64;
  union {
    double f;
    int64_t i;
  };
  Scalar() : f(0) {}
  explicit Scalar(double v) : type(DType::F64), f(v) {}
  explicit Scalar(int64_t v) : type(DType::I64), i(v) {}
  double as_double() const { return type == DType::I64 ? static_cast<double>(i) : f; }
  // A double truncated toward zero; NaN, infinities and values out of
  // int64's range give INT64_MIN (as NumPy's casts do on x86), where a
  // plain cast would be undefined.
  int64_t as_int() const {
    if (type == DType::I64) return i;
    return f >= -0x1p63 && f < 0x1p63 ? static_cast<int64_t>(f)
                                      : std::numeric_limits<int64_t>::min();
  }
};

// The identity of op for type (what a reduction buffer starts with).
Scalar reduce_identity(ReduceOp op, DType type);
Scalar reduce_scalars(ReduceOp op, const Scalar& a, const Scalar& b);
// dst[i] = dst[i] op src[i] for n elements of type.
void reduce_elements(ReduceOp op, DType type, void* dst, const void* src, int64_t n);
// Sets n elements of type at dst to v.
void fill_elements(DType type, void* dst, const Scalar& v, int64_t n);

}  // namespace legato::rt
