// Hostile inputs to the array library: NaN in every reduction and
// comparison (NumPy's answers, whichever point of a split launch holds it),
// int64 values that a double cannot hold (exact end to end), shapes whose
// sizes overflow or have negative dimensions, and a fork of a process that
// runs the runtime.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <limits>

#include "arrays/array_test_util.hpp"

using namespace legato::rt;
using Catch::Matchers::Contains;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

std::vector<int64_t> ints_of(const Array& a) {
  std::vector<int64_t> out(static_cast<size_t>(a.size()));
  Array exact = a.dtype() == DType::I64 ? a : a.astype(DType::I64);
  exact.read(out.data());
  return out;
}

std::vector<uint8_t> bools_of(const Array& a) {
  std::vector<uint8_t> out(static_cast<size_t>(a.size()));
  a.read(out.data());
  return out;
}

Array int_array(const std::vector<int64_t>& v) {
  return from_buffer(v.data(), {static_cast<int64_t>(v.size())}, DType::I64);
}

}  // namespace

TEST_CASE("min and max are NaN wherever a NaN is, as NumPy's", "[arrays][hostile][nan]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  for (DType type : {DType::F32, DType::F64}) {
    // 1000 elements split into several points: the NaN in the first, a
    // middle or the last one, and arrays of NaN alone.
    for (int64_t at : {int64_t{0}, int64_t{1}, int64_t{500}, int64_t{999}}) {
      INFO(dtype_name(type) << " NaN at " << at);
      Array a = arange(1000, DType::F64);
      a.slice(at, at + 1).assign(Value(kNaN));
      if (type == DType::F32) a = a.astype(type);
      CHECK(std::isnan(a.min().item()));
      CHECK(std::isnan(a.max().item()));
      CHECK(std::isnan(a.sum().item()));
      CHECK(std::isnan(a.dot(a).item()));
      CHECK(std::isnan(matvec(a.reshape(10, 100), ones(100, type)).to_vector()[at / 100]));
    }
    for (int64_t n : {int64_t{1}, int64_t{3}, int64_t{1000}}) {
      INFO(dtype_name(type) << " all NaN, n=" << n);
      Array a = full(n, kNaN, type);
      CHECK(std::isnan(a.min().item()));
      CHECK(std::isnan(a.max().item()));
    }
    // Infinities are values: only NaN wins.
    Array inf = from_values({1.0, kInf, -kInf, 3.0}, type);
    CHECK(inf.max().item() == kInf);
    CHECK(inf.min().item() == -kInf);
  }
  // Two NaN-free partial results still fold to the right answer.
  CHECK(arange(1000, DType::F64).max().item() == 999.0);
  CHECK(arange(1000, DType::F64).min().item() == 0.0);
}

TEST_CASE("comparisons, where and conversions of NaN are NumPy's", "[arrays][hostile][nan]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array x = from_values({kNaN, 1.0, kInf, -kInf, 0.0});
  Array y = from_values({kNaN, kNaN, kInf, 1.0, -0.0});
  CHECK(bools_of(x == y) == std::vector<uint8_t>{0, 0, 1, 0, 1});
  CHECK(bools_of(x != y) == std::vector<uint8_t>{1, 1, 0, 1, 0});
  CHECK(bools_of(x < y) == std::vector<uint8_t>{0, 0, 0, 1, 0});
  CHECK(bools_of(x >= y) == std::vector<uint8_t>{0, 0, 1, 0, 1});
  CHECK(bools_of(x == kNaN) == std::vector<uint8_t>{0, 0, 0, 0, 0});
  CHECK(bools_of(x != x) == std::vector<uint8_t>{1, 0, 0, 0, 0});  // isnan
  testing::check_equal(where(x == x, x, y).to_vector(), {kNaN, 1.0, kInf, -kInf, 0.0});
  // As NumPy's astype: NaN is true, and NaN, infinities and values out of
  // int64's range become INT64_MIN (never undefined behaviour).
  CHECK(bools_of(x.astype(DType::Bool)) == std::vector<uint8_t>{1, 1, 1, 1, 0});
  CHECK(ints_of(from_values({kNaN, kInf, -kInf, 1e300, -2.5, 2.5})) ==
        std::vector<int64_t>{kMin, kMin, kMin, kMin, -2, 2});
  CHECK(ints_of(full(3, kNaN, DType::I64)) == std::vector<int64_t>(3, kMin));
  CHECK(nonzero(x).size() == 4);
  CHECK_THROWS_AS(Value(kNaN).item_int(), std::domain_error);
  CHECK_THROWS_AS(Value(1e300).item_int(), std::domain_error);
}

TEST_CASE("int64 values stay exact past 2^53 end to end", "[arrays][hostile][int64]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  const int64_t big = (int64_t{1} << 53) + 1;  // the first integer a double cannot hold
  const std::vector<int64_t> values = {big, kMax, kMin, -big, 0, kMax - 2};
  Array a = int_array(values);
  CHECK(ints_of(a) == values);  // from_buffer and read
  CHECK(a.slice(0, 1).item_int() == big);
  CHECK(a.max().item_int() == kMax);
  CHECK(a.min().item_int() == kMin);
  // Constants: a + 1 and a == big compare as int64, not as doubles.
  CHECK(ints_of(a.slice(0, 1) + 1) == std::vector<int64_t>{big + 1});
  CHECK(ints_of(a.slice(0, 1) + Value(big)) == std::vector<int64_t>{2 * big});
  CHECK(bools_of(a == Value(big)) == std::vector<uint8_t>{1, 0, 0, 0, 0, 0});
  CHECK(bools_of(a == Value(big - 1)) == std::vector<uint8_t>{0, 0, 0, 0, 0, 0});
  // Fills of int64 constants, contiguous (a runtime fill) and in a view (FillTask).
  CHECK(ints_of(full(3, Value(kMax - 1), DType::I64)) == std::vector<int64_t>(3, kMax - 1));
  Array g = zeros(3, 4, DType::I64);
  g.view(0, 3, 1, 2).assign(Value(big));
  CHECK(ints_of(g)[5] == big);
  CHECK(ints_of(g)[4] == 0);
  // where with int64 values gives int64.
  Array picked = where(a > Value(0), Value(big), Value(int64_t{-1}));
  CHECK(picked.dtype() == DType::I64);
  CHECK(ints_of(picked) == std::vector<int64_t>{big, big, -1, -1, -1, big});
  // Reductions and values: sums past 2^53 (split into several points), and
  // arithmetic on int64 values stays int64.
  Array many = full(1000, Value(big), DType::I64);
  const Value s = many.sum();
  CHECK(s.dtype() == DType::I64);
  CHECK(s.item_int() == 1000 * big);
  const Value t = s + 1;
  CHECK(t.dtype() == DType::I64);
  CHECK_FALSE(t.is_constant());
  CHECK(t.item_int() == 1000 * big + 1);
  CHECK((s * 2 - s).item_int() == 1000 * big);
  CHECK((Value(big) + Value(int64_t{1})).item_int() == big + 1);  // folded at once
  CHECK((s / 1000).dtype() == DType::F64);                        // true division
  CHECK(many.dot(ones(1000, DType::I64)).item_int() == 1000 * big);
  Array scaled = ones(1000, DType::I64) * s;  // a future int64 operand
  CHECK(scaled.slice(999, 1000).item_int() == 1000 * big);
  // Overflow wraps, as NumPy's int64 does.
  CHECK(ints_of(int_array({kMax}) + 1) == std::vector<int64_t>{kMin});
  CHECK(ints_of(-int_array({kMin})) == std::vector<int64_t>{kMin});
  CHECK(ints_of(abs(int_array({kMin}))) == std::vector<int64_t>{kMin});
  CHECK(int_array({kMax, kMax}).sum().item_int() == -2);
}

TEST_CASE("int64 arrays refuse to divide in place", "[arrays][hostile][int64]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = arange(10);
  CHECK_THROWS_WITH(a[a > Value(2)] /= 0, Contains("cannot divide an int64 array in place"));
  CHECK_THROWS_WITH(a[arange(3)] /= 2, Contains("cannot divide an int64 array in place"));
  CHECK_THROWS_WITH(a /= 2, Contains("out is int64, the result is float64"));
  CHECK(a.sum().item_int() == 45);
}

TEST_CASE("shapes with negative dimensions or sizes that overflow are refused",
          "[arrays][hostile][shapes]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  const int64_t two32 = int64_t{1} << 32;
  CHECK_THROWS_WITH(zeros(two32, two32), Contains("array is too big"));
  CHECK_THROWS_WITH(empty(two32, two32, DType::Bool), Contains("array is too big"));
  CHECK_THROWS_WITH(ones(int64_t{1} << 62), Contains("array is too big"));  // the bytes overflow
  CHECK_THROWS_WITH(zeros(kMax, 2), Contains("array is too big"));
  CHECK_THROWS_WITH(zeros(-2, -3), Contains("negative dimensions"));
  CHECK_THROWS_WITH(zeros(3, -1), Contains("negative dimensions"));
  CHECK_THROWS_WITH(eye(two32), Contains("array is too big"));
  CHECK_THROWS_WITH(eye(-1), Contains("negative dimensions"));
  CHECK_THROWS_WITH(Generator(1).random(two32, two32), Contains("array is too big"));
  CHECK_THROWS_WITH(Generator(1).random(-4, -3), Contains("negative dimensions"));
  CHECK_THROWS_WITH(from_values({1.0}, two32, two32), Contains("array is too big"));
  CHECK_THROWS_WITH(from_values({1.0, 2.0}, -1, -2), Contains("negative dimensions"));
  Array a = arange(12);
  CHECK_THROWS_WITH(a.reshape(-3, -4), Contains("cannot reshape") && Contains("negative"));
  CHECK_THROWS_WITH(a.reshape(-1, -12), Contains("cannot reshape"));
  // 2^62 * 4 wraps to 0 and 2^32 * 2^32 too: never a match for size 0.
  CHECK_THROWS_WITH(zeros(0).reshape(two32, two32), Contains("cannot reshape"));
  CHECK_THROWS_WITH(diag(arange(2), kMax), Contains("array is too big"));
  CHECK_THROWS_WITH(diag(arange(2), kMin), Contains("array is too big"));
  CHECK(diag(zeros(3, 3), kMin).size() == 0);  // past the corner: empty
  CHECK(diag(zeros(3, 3), kMax).size() == 0);
  CHECK(arange(-3).size() == 0);  // as NumPy's
  CHECK_THROWS_WITH(zeros(3, 4).stencil_hint({kMax, 0}, {0, 0}), Contains("too large"));
  CHECK(a.sum().item_int() == 66);  // the runtime goes on
}

TEST_CASE("a fork of a process running the runtime exits cleanly and says why arrays fail",
          "[arrays][hostile][fork]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = arange(1000, DType::F64);
  const Value s = a.sum();
  CHECK(s.item() == 499500.0);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // A hang here would hang the test: the alarm ends a stuck child (its
    // status then says so) long after a working one has exited.
    ::alarm(120);
    int code = 0;
    try {
      zeros(3);
      code = 10;  // must not work
    } catch (const std::logic_error& e) {
      const std::string what = e.what();
      if (what.find("belongs to process " + std::to_string(::getppid())) == std::string::npos ||
          what.find("fork") == std::string::npos)
        code = 11;
    }
    try {
      (void)a.sum().item();
      code = 12;
    } catch (const std::logic_error&) {
    }
    try {
      (void)s.item();  // a future: the parent's
      code = 13;
    } catch (const std::logic_error&) {
    }
    if (running()) code = 14;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    // A sanitizer's check at exit would count the parent's runtime, which
    // only the parent's threads reach, as the child's leaks: the child
    // finishes as exit would, then leaves without that check.
    finish();
    std::_Exit(code);
#else
    std::exit(code);  // runs finish() at exit: it must return at once
#endif
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  INFO("status " << status);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent's runtime is untouched.
  CHECK((a * 2.0).sum().item() == 999000.0);
}
