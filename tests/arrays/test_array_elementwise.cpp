// Elementwise operations against a plain C++ reference, for every numeric
// type and sizes below, at and above the chunk size.
#include <functional>

#include "arrays/array_test_util.hpp"

using namespace legato::rt;
using legato::rt::testing::as_type;
using legato::rt::testing::check_equal;

namespace {

// x op y for operands of any kind (elements, arrays, values).
template <class A, class B>
auto compute(char op, const A& x, const B& y) {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    default:
      return x / y;
  }
}

// x op y as an element of `type` computes it (int64 division is true division).
double reference(char op, double x, double y, DType type) {
  if (type == DType::F32) return compute(op, static_cast<float>(x), static_cast<float>(y));
  if (type == DType::I64 && op != '/') {
    return static_cast<double>(compute(op, static_cast<int64_t>(x), static_cast<int64_t>(y)));
  }
  return compute(op, x, y);
}

}  // namespace

TEST_CASE("arithmetic operators match the reference for every type and size",
          "[arrays][elementwise]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(1);
  for (DType type : testing::numeric_types()) {
    for (int64_t n : testing::sizes()) {
      Array x = testing::random_input(g, n, type);
      // Divisors away from zero: |y| >= 1.
      Array y =
          where(testing::random_input(g, n, type) < 0.0, Value(-1.0), Value(1.0)).astype(type) +
          testing::random_input(g, n, type);
      y = where(abs(y) < 1.0, full(n, 1.0, type), y);
      const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
      for (char op : {'+', '-', '*', '/'}) {
        INFO(dtype_name(type) << " n=" << n << " op " << op);
        std::vector<double> aa(xs.size()), as(xs.size()), sa(xs.size());
        for (size_t i = 0; i < xs.size(); ++i) {
          aa[i] = reference(op, xs[i], ys[i], type);
          as[i] = reference(op, xs[i], as_type(2.5, type), type);
          sa[i] = reference(op, as_type(3.0, type), ys[i], type);
        }
        Array r = compute(op, x, y);
        CHECK(r.dtype() == (op == '/' && type == DType::I64 ? DType::F64 : type));
        check_equal(r.to_vector(), aa);
        check_equal(compute(op, x, 2.5).to_vector(), as);
        check_equal(compute(op, 3.0, y).to_vector(), sa);
      }
    }
  }
}

TEST_CASE("unary operators, comparisons and bool logic match the reference",
          "[arrays][elementwise]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(2);
  for (DType type : testing::numeric_types()) {
    for (int64_t n : testing::sizes()) {
      INFO(dtype_name(type) << " n=" << n);
      Array x = testing::random_input(g, n, type);
      Array y = testing::random_input(g, n, type);
      const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
      std::vector<double> neg, ab, sq, lt, le, gt, ge, eq, ne;
      for (size_t i = 0; i < xs.size(); ++i) {
        neg.push_back(-xs[i]);
        ab.push_back(std::abs(xs[i]));
        const double s = type == DType::F32 ? std::sqrt(static_cast<float>(std::abs(xs[i])))
                                            : std::sqrt(std::abs(xs[i]));
        sq.push_back(as_type(s, type));
        lt.push_back(xs[i] < ys[i]);
        le.push_back(xs[i] <= ys[i]);
        gt.push_back(xs[i] > ys[i]);
        ge.push_back(xs[i] >= ys[i]);
        eq.push_back(xs[i] == xs[i] ? 1 : 0);
        ne.push_back(xs[i] != ys[i]);
      }
      check_equal((-x).to_vector(), neg);
      check_equal(abs(x).to_vector(), ab);
      if (type != DType::I64) check_equal(sqrt(abs(x)).to_vector(), sq);
      Array c = x < y;
      CHECK(c.dtype() == DType::Bool);
      check_equal(c.to_vector(), lt);
      check_equal((x <= y).to_vector(), le);
      check_equal((x > y).to_vector(), gt);
      check_equal((x >= y).to_vector(), ge);
      check_equal((x == x).to_vector(), eq);
      check_equal((x != y).to_vector(), ne);
      std::vector<double> both, either, inv;
      for (size_t i = 0; i < xs.size(); ++i) {
        both.push_back(lt[i] && xs[i] < 0);
        either.push_back(lt[i] || xs[i] < 0);
        inv.push_back(!lt[i]);
      }
      check_equal(((x < y) & (x < 0.0)).to_vector(), both);
      check_equal(((x < y) | (x < 0.0)).to_vector(), either);
      check_equal((~(x < y)).to_vector(), inv);
    }
  }
}

TEST_CASE("out= forms, in-place updates and assignment write into existing arrays",
          "[arrays][elementwise]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(3);
  for (int64_t n : testing::sizes()) {
    INFO("n=" << n);
    Array x = g.random(n, DType::F32), y = g.random(n, DType::F32);
    const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
    Array z = empty_like(x);
    const std::vector<std::pair<char, std::function<void(const Array&, const Array&, Array&)>>>
        outs = {{'+', [](const Array& a, const Array& b, Array& o) { add(a, b, o); }},
                {'-', [](const Array& a, const Array& b, Array& o) { subtract(a, b, o); }},
                {'*', [](const Array& a, const Array& b, Array& o) { multiply(a, b, o); }},
                {'/', [](const Array& a, const Array& b, Array& o) { divide(a, b, o); }}};
    for (const auto& [op, f] : outs) {
      f(x, y, z);
      std::vector<double> want;
      for (size_t i = 0; i < xs.size(); ++i)
        want.push_back(reference(op, xs[i], ys[i], DType::F32));
      check_equal(z.to_vector(), want);
    }
    Array w = x.copy();
    w += y;
    w *= 2.0;
    w -= 1;
    w /= y;
    std::vector<double> want;
    for (size_t i = 0; i < xs.size(); ++i) {
      float v = static_cast<float>(xs[i]) + static_cast<float>(ys[i]);
      v = v * 2.0f;
      v = v - 1.0f;
      want.push_back(v / static_cast<float>(ys[i]));
    }
    check_equal(w.to_vector(), want);
    check_equal(x.to_vector(), xs);  // copy() did not share storage
    Array v = zeros(n, DType::F32);
    v.assign(x);
    check_equal(v.to_vector(), xs);
    v.assign(Value(4.0));
    check_equal(v.to_vector(), std::vector<double>(xs.size(), 4.0));
  }
}

TEST_CASE("where and putmask select elementwise", "[arrays][elementwise]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(4);
  for (DType type : testing::numeric_types()) {
    for (int64_t n : testing::sizes()) {
      INFO(dtype_name(type) << " n=" << n);
      Array x = testing::random_input(g, n, type), y = testing::random_input(g, n, type);
      Array cond = x < y;
      const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
      std::vector<double> sel, scal, masked, masked_value;
      for (size_t i = 0; i < xs.size(); ++i) {
        const bool c = xs[i] < ys[i];
        sel.push_back(c ? xs[i] : ys[i]);
        scal.push_back(c ? 1.5 : -2.0);
        masked.push_back(c ? ys[i] : xs[i]);
        masked_value.push_back(c ? as_type(7.0, type) : xs[i]);
      }
      check_equal(where(cond, x, y).to_vector(), sel);
      check_equal(where(cond, Value(1.5), Value(-2.0)).to_vector(), scal);
      Array m = x.copy();
      putmask(m, cond, y);
      check_equal(m.to_vector(), masked);
      Array mv = x.copy();
      putmask(mv, cond, Value(7.0));
      check_equal(mv.to_vector(), masked_value);
    }
  }
}

TEST_CASE("creation functions fill arrays as NumPy does", "[arrays][creation]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  for (int64_t n : testing::sizes()) {
    INFO("n=" << n);
    const auto un = static_cast<size_t>(n);
    check_equal(zeros(n).to_vector(), std::vector<double>(un, 0.0));
    check_equal(ones(n, DType::I64).to_vector(), std::vector<double>(un, 1.0));
    check_equal(full(n, 2.5, DType::F32).to_vector(), std::vector<double>(un, 2.5));
    check_equal(full(n, 2.5, DType::I64).to_vector(), std::vector<double>(un, 2.0));
    std::vector<double> iota(un);
    for (size_t i = 0; i < un; ++i) iota[i] = static_cast<double>(i);
    Array r = arange(n);
    CHECK(r.dtype() == DType::I64);
    check_equal(r.to_vector(), iota);
    check_equal(arange(n, DType::F32).to_vector(), iota);
    CHECK(empty_like(r).shape() == r.shape());
    CHECK(empty_like(r).dtype() == DType::I64);
  }
  for (int64_t n : {0, 1, 5, 40}) {
    std::vector<double> id;
    for (int64_t i = 0; i < n * n; ++i) id.push_back(i / n == i % n ? 1 : 0);
    Array e = eye(n);
    CHECK(e.shape() == std::vector<int64_t>{n, n});
    check_equal(e.to_vector(), id);
  }
  for (int64_t k : {-2, -1, 0, 1, 3}) {
    INFO("k=" << k);
    Array v = arange(4, DType::F64) + 1.0;
    Array d = diag(v, k);
    const int64_t m = 4 + std::abs(k);
    CHECK(d.shape() == std::vector<int64_t>{m, m});
    std::vector<double> want(static_cast<size_t>(m * m), 0.0);
    for (int64_t i = 0; i < 4; ++i) {
      const int64_t r = k < 0 ? i - k : i, c = k > 0 ? i + k : i;
      want[static_cast<size_t>(r * m + c)] = static_cast<double>(i + 1);
    }
    check_equal(d.to_vector(), want);
    check_equal(diag(d, k).to_vector(), {1, 2, 3, 4});
  }
  Array m = arange(12, DType::F64).reshape(3, 4);
  check_equal(diag(m).to_vector(), {0, 5, 10});
  check_equal(diag(m, 1).to_vector(), {1, 6, 11});
  check_equal(diag(m, -1).to_vector(), {4, 9});
  check_equal(diag(m, 5).to_vector(), {});
}

TEST_CASE("astype converts between every pair of types", "[arrays][creation]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  const std::vector<double> src = {-2.75, -1.0, -0.5, 0.0, 0.25, 1.0, 3.5, 1e6};
  Array a = empty(static_cast<int64_t>(src.size()));
  for (size_t i = 0; i < src.size(); ++i)
    a.slice(static_cast<int64_t>(i), static_cast<int64_t>(i) + 1).assign(src[i]);
  check_equal(a.to_vector(), src);
  for (DType from : {DType::F32, DType::F64, DType::I64, DType::Bool}) {
    Array f = a.astype(from);
    for (DType to : {DType::F32, DType::F64, DType::I64, DType::Bool}) {
      INFO(dtype_name(from) << " -> " << dtype_name(to));
      std::vector<double> want;
      for (double v : src) want.push_back(as_type(as_type(v, from), to));
      Array t = f.astype(to);
      CHECK(t.dtype() == to);
      check_equal(t.to_vector(), want);
    }
  }
}

TEST_CASE("the random generator is deterministic however the work is split", "[arrays][creation]") {
  std::vector<double> first, second, other_seed;
  {
    testing::RuntimeScope scope("--cpus 1 --min-cpu-chunk 100000");
    Generator g(99);
    first = g.random(3000).to_vector();
    second = g.random(3000).to_vector();
  }
  {
    testing::RuntimeScope scope("--cpus 4 --min-cpu-chunk 64");
    Generator g(99);
    check_equal(g.random(3000).to_vector(), first);
    check_equal(g.random(3000).to_vector(), second);
    other_seed = Generator(100).random(3000).to_vector();
    Array ints = Generator(5).random(1000, DType::I64);
    CHECK(ints.min().item() >= 0);
    CHECK(ints.max().item() < 2147483648.0);
    const double trues = Generator(5).random(10000, DType::Bool).sum().item();
    CHECK(trues > 4500);
    CHECK(trues < 5500);
  }
  CHECK(first != second);
  CHECK(first != other_seed);
  double mean = 0;
  for (double v : first) {
    CHECK(v >= 0.0);
    CHECK(v < 1.0);
    mean += v / 3000;
  }
  CHECK(mean == Approx(0.5).margin(0.03));
}
