// Mistakes with shapes, types and indices are clear exceptions naming the
// operation and the caller's line; nothing crashes and the runtime goes on.
#include "arrays/array_test_util.hpp"

using namespace legato::rt;
using Catch::Matchers::Contains;

TEST_CASE("shape and type mismatches throw clear errors", "[arrays][errors]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = zeros(10), b = zeros(11), i = zeros(10, DType::I64), m = zeros(10, DType::Bool);
  Array g = zeros(3, 4);
  CHECK_THROWS_WITH(a + b, Contains("add at ") && Contains("test_array_errors.cpp:") &&
                               Contains("could not be broadcast together with shapes (10,) (11,)"));
  CHECK_THROWS_WITH(a * i, Contains("multiply") &&
                               Contains("different types (float64 and int64)") &&
                               Contains("astype"));
  CHECK_THROWS_WITH(a + g, Contains("shapes (10,) (3, 4)"));
  CHECK_THROWS_WITH(m + m, Contains("arithmetic on bool arrays"));
  CHECK_THROWS_WITH(sqrt(i), Contains("sqrt of int64 arrays") && Contains("astype"));
  CHECK_THROWS_WITH(a & a, Contains("logical_and") && Contains("needs bool arrays, not float64"));
  Array out = zeros(10, DType::F32);
  CHECK_THROWS_WITH(add(a, a, out), Contains("out is float32, the result is float64"));
  Array short_out = zeros(9);
  CHECK_THROWS_WITH(add(a, a, short_out), Contains("(10,) (9,)"));
  CHECK_THROWS_WITH(a += b, Contains("(10,) (11,)"));
  CHECK_THROWS_WITH(where(a, a, a), Contains("condition must be a bool array"));
  CHECK_THROWS_WITH(where(m, a, i), Contains("different types"));
  CHECK_THROWS_WITH(putmask(a, a, a), Contains("mask must be a bool array"));
  CHECK_THROWS_WITH(putmask(a, m, i), Contains("values are int64, the array is float64"));
  CHECK_THROWS_WITH(a.assign(b), Contains("assign") && Contains("(11,) (10,)"));
}

TEST_CASE("bad shapes, slices and reductions throw clear errors", "[arrays][errors]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = zeros(10), g = zeros(3, 4);
  CHECK_THROWS_WITH(a.slice(2, 11), Contains("slice [2, 11) is outside an axis of size 10"));
  CHECK_THROWS_WITH(a.slice(5, 3), Contains("outside"));
  CHECK_THROWS_WITH(g.view(0, 4, 0, 1), Contains("outside shape (3, 4)"));
  CHECK_THROWS_WITH(a.view(0, 1, 0, 1), Contains("needs a 2-D array"));
  CHECK_THROWS_WITH(a.reshape(3, 3),
                    Contains("cannot reshape an array of size 10 into shape (3, 3)"));
  CHECK_THROWS_WITH(g.view(0, 3, 1, 3).reshape(2, 3), Contains("contiguous"));
  CHECK_THROWS_WITH(zeros(-1), Contains("negative dimensions"));
  CHECK_THROWS_WITH(zeros(0).min(), Contains("zero-size array to reduction operation minimum"));
  CHECK_THROWS_WITH(zeros(0).max(), Contains("maximum which has no identity"));
  CHECK(zeros(0).sum().item() == 0.0);
  CHECK_THROWS_WITH(a.item(), Contains("only convert an array of size 1") && Contains("(10,)"));
  CHECK_THROWS_WITH(a.dot(zeros(9)), Contains("shapes (10,) and (9,) not aligned"));
  CHECK_THROWS_WITH(a.dot(g), Contains("use matvec"));
  CHECK_THROWS_WITH(matvec(g, zeros(3)), Contains("not aligned: 4 (dim 1) != 3 (dim 0)"));
  CHECK_THROWS_WITH(matvec(g, zeros(4, DType::F32)), Contains("of one type"));
  CHECK_THROWS_WITH(dot(zeros(3, DType::Bool), zeros(3, DType::Bool)), Contains("float or int64"));
}

TEST_CASE("bad indices throw clear errors", "[arrays][errors]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = zeros(10), g = zeros(3, 4);
  CHECK_THROWS_WITH(a[a], Contains("must be int64 or bool, not float64"));
  CHECK_THROWS_WITH(a[zeros(9, DType::Bool)], Contains("boolean index") && Contains("(10,) (9,)"));
  CHECK_THROWS_WITH(g[arange(2)], Contains("index a 1-D array") && Contains("flatten()"));
  CHECK_THROWS_WITH(a[arange(3)] = arange(4, DType::F64),
                    Contains("cannot assign 4 input values to the 3"));
  Array view = g.view(0, 3, 1, 3);
  CHECK_THROWS_WITH(view[nonzero(ones(2))], Contains("index a 1-D array"));
  CHECK_THROWS_WITH(view[view == 0.0] = arange(6, DType::F64), Contains("2-D view with gaps"));
  // The runtime still works after every one of these.
  Array ok = arange(10, DType::F64);
  ok[ok > 4.0] += 1.0;
  CHECK(ok.sum().item() == 50.0);
}
