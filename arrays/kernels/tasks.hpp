// The tasks behind the array library, named as cuPyNumeric names its own so
// profiles read the same: task ids, operators, reductions and operand
// sources. Their scalar arguments are in task_args.hpp.
#pragma once

#include <cstdint>

#include "runtime/legato.hpp"

namespace legato::rt::kernels {

enum class Op : int64_t {
  Add,
  Sub,
  Mul,
  Div,  // arithmetic
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,  // comparisons (bool result)
  And,
  Or,  // bool arrays
  Neg,
  Sqrt,
  Abs,
  Not,
  Identity,  // unary
};
constexpr bool is_comparison(Op op) {
  return op >= Op::Lt && op <= Op::Ne;
}
constexpr bool is_logical(Op op) {
  return op == Op::And || op == Op::Or || op == Op::Not;
}

enum class Reduction : int64_t { Sum, Min, Max, CountNonzero };

// Where an elementwise operand comes from: an array argument, a constant
// scalar, or a future value.
enum class Source : int64_t { Array = 0, Constant = 1, Future = 2 };

struct Tasks {
  TaskId binary;    // BinaryOpTask: out = a op b (arrays or a value)
  TaskId unary;     // UnaryOpTask: out = op a
  TaskId convert;   // ConvertTask: out = (T) a
  TaskId where;     // WhereTask: out = cond ? x : y
  TaskId putmask;   // PutmaskTask: a = mask ? values : a
  TaskId fill;      // FillTask: a = value (views, and values not known yet)
  TaskId reduce;    // ScalarUnaryRedTask: sum, min, max, count of non-zeros
  TaskId dot;       // DotTask
  TaskId matvec;    // MatVecMulTask
  TaskId arange;    // ArangeTask
  TaskId eye;       // EyeTask
  TaskId diag_set;  // DiagTask (vector onto a diagonal)
  TaskId diag_get;  // DiagTask (diagonal into a vector)
  TaskId random;    // RandTask
  TaskId readback;  // ReadbackTask: elements into the program's memory
  TaskId upload;    // UploadTask: elements from the program's memory
  TaskId scalar;    // ScalarBinaryOpTask: arithmetic on future values
  TaskId nonzero;   // NonzeroTask (dependent partitioning)
};

// The tasks, registered with the running runtime on first use.
const Tasks& tasks();

}  // namespace legato::rt::kernels
