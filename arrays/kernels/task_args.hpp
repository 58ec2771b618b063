// The scalar arguments of the array tasks: one struct per task, each field
// named and described once here. The front end packs a struct into the
// task's scalars (ArrayLauncher::args), and both variants of the task, CPU
// and CUDA, unpack it (unpack<BinaryOpArgs>(ctx)). Each struct's `fields`
// lists its members in the order they travel.
//
// An array task's scalars are, in order: its GeometryArgs, one row stride per
// store argument (row_stride), then the fields of the task's struct.
// Fields of type double and Scalar travel as given (a Scalar's int64 stays
// exact); integers, enums and bools travel as int64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "arrays/kernels/tasks.hpp"

namespace legato::rt::kernels {

// --- the mechanism: fields to scalars and back ---

// The types a field may have.
template <class T>
constexpr bool kArgumentType = std::is_same_v<T, Scalar> || std::is_same_v<T, double> ||
                               std::is_integral_v<T> || std::is_enum_v<T>;

template <class T>
Scalar to_scalar(const T& v) {
  static_assert(kArgumentType<T>, "a task argument is a Scalar, a double, an integer or an enum");
  if constexpr (std::is_same_v<T, Scalar>) {
    return v;
  } else if constexpr (std::is_same_v<T, double>) {
    return Scalar(v);
  } else {
    return Scalar(static_cast<int64_t>(v));
  }
}

// Scalar i of the task as a field of type T.
template <class T>
T scalar_as(const TaskContext& ctx, size_t i) {
  static_assert(kArgumentType<T>, "a task argument is a Scalar, a double, an integer or an enum");
  const Scalar& s = ctx.scalar_value(i);
  if constexpr (std::is_same_v<T, Scalar>) {
    return s;
  } else if constexpr (std::is_same_v<T, double>) {
    return s.as_double();
  } else if constexpr (std::is_same_v<T, bool>) {
    return s.as_int() != 0;
  } else {
    return static_cast<T>(s.as_int());
  }
}

// Appends a's fields, in order, to a task's scalars.
template <class A>
void pack(const A& a, std::vector<Scalar>& scalars) {
  std::apply([&](auto... f) { (scalars.push_back(to_scalar(a.*f)), ...); }, A::fields);
}

// An A from the task's scalars first, first + 1, ...
template <class A>
A unpack(const TaskContext& ctx, size_t first) {
  A a{};
  std::apply(
      [&](auto... f) {
        ((a.*f = scalar_as<std::remove_cvref_t<decltype(a.*f)>>(ctx, first++)), ...);
      },
      A::fields);
  return a;
}

// --- the geometry every array task's scalars start with ---

// How the task's domain maps onto its stores' elements.
struct GeometryArgs {
  bool row_mode = false;  // the domain counts rows (2-D views), not elements
  int64_t width = 0;      // the row width in elements (row mode)
  static constexpr auto fields = std::tuple{&GeometryArgs::row_mode, &GeometryArgs::width};
};
constexpr size_t kGeometryScalars = std::tuple_size_v<decltype(GeometryArgs::fields)>;

// The row stride (elements) of store argument `arg`; 1 for stores not
// passed as rows.
inline int64_t row_stride(const TaskContext& ctx, size_t arg) {
  return scalar_as<int64_t>(ctx, kGeometryScalars + arg);
}

// The task's own struct, after the geometry and the row strides.
template <class A>
A unpack(const TaskContext& ctx) {
  return unpack<A>(ctx, kGeometryScalars + ctx.arguments());
}

// --- elementwise tasks ---

// BinaryOpTask: out = left op right. Stores: the array operands, then out;
// futures in operand order.
struct BinaryOpArgs {
  Op op = Op::Add;
  DType type = DType::F64;      // the operands' element type
  Source left = Source::Array;  // where each operand comes from
  Source right = Source::Array;
  Scalar left_value, right_value;  // constants (0.0 for arrays and futures)
  static constexpr auto fields =
      std::tuple{&BinaryOpArgs::op,    &BinaryOpArgs::type,       &BinaryOpArgs::left,
                 &BinaryOpArgs::right, &BinaryOpArgs::left_value, &BinaryOpArgs::right_value};
};

// UnaryOpTask: out = op a. Stores: a, out.
struct UnaryOpArgs {
  Op op = Op::Identity;
  DType type = DType::F64;  // a's element type (and out's)
  static constexpr auto fields = std::tuple{&UnaryOpArgs::op, &UnaryOpArgs::type};
};

// ConvertTask: out = (to) a. Stores: a, out.
struct ConvertArgs {
  DType from = DType::F64;
  DType to = DType::F64;
  static constexpr auto fields = std::tuple{&ConvertArgs::from, &ConvertArgs::to};
};

// WhereTask: out = cond ? x : y. Stores: cond, [x], [y], out; futures: x's, then y's.
struct WhereArgs {
  DType type = DType::F64;  // x's, y's and out's element type
  Source x = Source::Array;
  Source y = Source::Array;
  Scalar x_value, y_value;  // constants (0.0 for arrays and futures)
  static constexpr auto fields = std::tuple{&WhereArgs::type, &WhereArgs::x, &WhereArgs::y,
                                            &WhereArgs::x_value, &WhereArgs::y_value};
};

// PutmaskTask: where the mask is set, a = values (op Identity) or
// a = a op values. Stores: a (read-write), mask, [values].
struct PutmaskArgs {
  DType type = DType::F64;  // a's element type
  Op op = Op::Identity;
  Source source = Source::Array;  // where the values come from
  Scalar value;                   // the constant (0.0 for an array or a future)
  static constexpr auto fields =
      std::tuple{&PutmaskArgs::type, &PutmaskArgs::op, &PutmaskArgs::source, &PutmaskArgs::value};
};

// FillTask: out = value. Stores: out.
struct FillArgs {
  DType type = DType::F64;           // out's element type
  Source source = Source::Constant;  // Constant, or Future (the task's future 0)
  Scalar value;                      // the constant (0.0 for a future)
  static constexpr auto fields = std::tuple{&FillArgs::type, &FillArgs::source, &FillArgs::value};
};

// --- reductions, products, reading back, values ---

// ScalarUnaryRedTask. Stores: a; the point's result goes to the future.
struct ReduceArgs {
  Reduction reduction = Reduction::Sum;
  DType type = DType::F64;  // a's element type
  static constexpr auto fields = std::tuple{&ReduceArgs::reduction, &ReduceArgs::type};
};

// Tasks whose one scalar is their arrays' element type.
struct TypeArgs {
  DType type = DType::F64;
  static constexpr auto fields = std::tuple{&TypeArgs::type};
};
using DotArgs = TypeArgs;      // DotTask. Stores: a, b
using MatVecArgs = TypeArgs;   // MatVecMulTask. Stores: A (rows), x (whole), y (one per row)
using EyeArgs = TypeArgs;      // EyeTask. Stores: out (full rows)
using NonzeroArgs = TypeArgs;  // NonzeroTask. Stores: a (all of it), out (int64 positions)

// ReadbackTask and UploadTask: an array's elements to or from the
// program's memory, row-major over the array. Stores: the array.
struct HostCopyArgs {
  DType type = DType::F64;  // the array's element type
  uintptr_t address = 0;    // the program's elements (destination or source)
  DType host = DType::F64;  // their element type (the array's own: exact; or double)
  static constexpr auto fields =
      std::tuple{&HostCopyArgs::type, &HostCopyArgs::address, &HostCopyArgs::host};
};
using ReadbackArgs = HostCopyArgs;
using UploadArgs = HostCopyArgs;

// ScalarBinaryOpTask: left op right on values. No stores; futures in
// operand order. An int64 result (+, - and * of two int64 values) is
// computed in int64, exactly; anything else in double.
struct ScalarOpArgs {
  Op op = Op::Add;
  Source left = Source::Constant;  // Constant or Future
  Source right = Source::Constant;
  Scalar left_value, right_value;  // constants (0.0 for futures)
  DType type = DType::F64;         // the result's type
  static constexpr auto fields =
      std::tuple{&ScalarOpArgs::op,         &ScalarOpArgs::left,        &ScalarOpArgs::right,
                 &ScalarOpArgs::left_value, &ScalarOpArgs::right_value, &ScalarOpArgs::type};
};

// --- creation ---

// ArangeTask: out[i] = start + i * step. Stores: out.
struct ArangeArgs {
  DType type = DType::F64;
  double start = 0.0;
  double step = 1.0;
  static constexpr auto fields =
      std::tuple{&ArangeArgs::type, &ArangeArgs::start, &ArangeArgs::step};
};

// DiagTask (a vector onto a diagonal; stores: out (full rows, read-write),
// v (one element per row)) and DiagExtractTask (a diagonal into a vector;
// stores: a (rows), out (one element per row)).
struct DiagArgs {
  DType type = DType::F64;
  int64_t first_column = 0;  // the diagonal's column in the first row
  static constexpr auto fields = std::tuple{&DiagArgs::type, &DiagArgs::first_column};
};

// RandTask: out[i] = the random value of (seed, stream, i). Stores: out.
struct RandomArgs {
  DType type = DType::F64;
  uint64_t seed = 0;    // the generator's seed
  uint64_t stream = 0;  // which of the generator's draws this is
  static constexpr auto fields =
      std::tuple{&RandomArgs::type, &RandomArgs::seed, &RandomArgs::stream};
};

}  // namespace legato::rt::kernels
