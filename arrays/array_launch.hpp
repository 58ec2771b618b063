// How the array library turns arrays into task launches: element mode for
// contiguous arrays, row mode (a domain index per row) for 2-D views.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "arrays/array.hpp"
#include "arrays/kernels/task_args.hpp"

namespace legato::rt::detail {

struct Layout {
  bool rows = false;   // the domain counts rows of `width` elements
  int64_t domain = 0;  // elements, or rows
  int64_t width = 0;
};
// The layout every array of one elementwise operation (all of one shape) uses.
Layout layout_of(std::initializer_list<const Array*> arrays);

// Collects the arguments of an array task; its scalars are the geometry,
// then the task's struct (arrays/kernels/task_args.hpp).
class ArrayLauncher {
 public:
  ArrayLauncher(TaskId task, const Layout& layout, std::source_location where);
  // An array of the layout's shape.
  ArrayLauncher& arg(const Array& a, Privilege p);
  // One element per domain index, starting at element `offset` of the store.
  ArrayLauncher& per_index(const Store& s, int64_t offset, Privilege p);
  // Rows of `width` elements `stride` apart, one per domain index.
  ArrayLauncher& rows(const Store& s, int64_t offset, int64_t stride, int64_t width, Privilege p);
  // The same contiguous elements for every point.
  ArrayLauncher& whole(const Store& s, Range r, Privilege p);
  // The task's scalar arguments: its struct of arrays/kernels/task_args.hpp.
  template <class Args>
  ArrayLauncher& args(const Args& a) {
    kernels::pack(a, scalars_);
    return *this;
  }
  // A task future (kernels read futures in the order they were added).
  ArrayLauncher& future(const Future& f);
  // v's future, unless v is a constant.
  ArrayLauncher& future_of(const Value& v);
  ArrayLauncher& dependent_partitioning();
  ArrayLauncher& replicated();  // every rank runs it all (TaskLauncher::replicate)
  Future execute(std::optional<std::pair<ReduceOp, DType>> result = std::nullopt);

 private:
  struct StoreSpec {
    Store store;
    int kind;  // 0 aligned, 1 rows, 2 whole
    int64_t offset, stride, width;
    Range range;
    Privilege privilege;
  };
  TaskId task_;
  Layout layout_;
  std::source_location where_;
  std::vector<StoreSpec> stores_;
  std::vector<Scalar> scalars_;
  std::vector<Future> futures_;
  bool dep_part_ = false;
  bool replicated_ = false;
};

// "name at file:line: " for error messages.
std::string who(const char* name, const std::source_location& where);
// Throws unless a and b have the same shape.
// `in`, or a copy of it when it reads elements of the store `out` writes
// at other positions (z[10:] -= z[:-10]): the points of one launch run at
// once, so such an input is read in full before any of it is written, as
// NumPy does.
Array unaliased(const Array& in, const Array& out, const std::source_location& where);

void check_same_shape(const Array& a, const Array& b, const char* name,
                      const std::source_location& where);
// One side of an elementwise operation: an array or a value, and the line of
// the program that asked for it.
struct Term {
  bool is_array = false;
  Array array;
  Value value = 0.0;
  std::source_location where;
  Term(const ArrayArg& o) : is_array(true), array(o.array), where(o.where) {}  // NOLINT
  Term(const ValueArg& v) : value(v.value), where(v.where) {}                  // NOLINT
  Term(const Array& a, std::source_location w) : is_array(true), array(a), where(w) {}
};
// Where an operand comes from (an array, a constant or a future), and its
// constant as given: an int64 or a double, 0.0 for an array or a future.
kernels::Source source_of(const Value& v);
kernels::Source source_of(const Term& t);
Scalar constant_of(const Value& v);
Scalar constant_of(const Term& t);
// out = a op b (BinaryOpTask); out is created when null. Checks shapes and
// types; at least one side is an array.
Array binary(kernels::Op op, const Term& a, const Term& b, Array* out);
// Where mask is set: a = v (op Identity) or a = a op v; v is a value or an
// array of a's shape (PutmaskTask).
void masked_update(Array& a, const Array& mask, kernels::Op op, const Term& v,
                   const std::source_location& at);
// How many elements of a are not zero (an int64 value).
Value count_nonzero(const Array& a, const std::source_location& where);
// A new contiguous array of the given shape, its store allocated at where.
Array new_array(int ndim, int64_t rows, int64_t cols, DType type,
                const std::source_location& where);
// Throws std::invalid_argument, as NumPy does, unless rows x cols elements
// of type make an array: no negative dimension, and no more than 2^63 - 1
// bytes (so the size and every offset fit int64).
void check_shape(int64_t rows, int64_t cols, DType type, const char* name,
                 const std::source_location& where);

}  // namespace legato::rt::detail
