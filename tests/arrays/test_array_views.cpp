// Views share storage: slices of 1-D arrays, row and column ranges of 2-D
// arrays, and operations that read and write through them.
#include "arrays/array_test_util.hpp"

using namespace legato::rt;
using legato::rt::testing::check_equal;

TEST_CASE("1-D slices read and write the array they view", "[arrays][views]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = zeros(1000);
  Array mid = a.slice(100, 900);
  mid += 1.0;
  a.slice(-10, 1000).assign(Value(5.0));  // negative bounds count from the end
  std::vector<double> want(1000, 0.0);
  for (int i = 100; i < 900; ++i) want[i] = 1.0;
  for (int i = 990; i < 1000; ++i) want[i] = 5.0;
  check_equal(a.to_vector(), want);
  // The seed's halo shift: b[1:-1] = a.
  Array b = zeros(1002);
  b.slice(1, -1).assign(a);
  CHECK(b.sum().item() == Approx(800.0 + 50.0));
  CHECK(mid.sum().item() == 800.0);
  CHECK(a.slice(5, 5).size() == 0);
}

TEST_CASE("assigning a slice onto an overlapping slice of the same array copies as NumPy does",
          "[arrays][views]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  for (const int64_t shift : {1, 3, 700}) {
    INFO("shift " << shift);
    Array a = arange(1000, DType::F64);
    a.slice(shift, 1000).assign(a.slice(0, 1000 - shift));  // a[s:] = a[:-s]
    Array b = arange(1000, DType::F64);
    b.slice(0, 1000 - shift).assign(b.slice(shift, 1000));  // b[:-s] = b[s:]
    std::vector<double> want_a(1000), want_b(1000);
    for (int64_t i = 0; i < 1000; ++i) {
      want_a[i] = static_cast<double>(i < shift ? i : i - shift);
      want_b[i] = static_cast<double>(i < 1000 - shift ? i + shift : i);
    }
    check_equal(a.to_vector(), want_a);
    check_equal(b.to_vector(), want_b);
  }
}

TEST_CASE("an operation reading what it writes elsewhere in the same array reads it first",
          "[arrays][views]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  const int64_t n = 5000;  // several points, so their order would show
  Array z = arange(n, DType::F64);
  z.slice(10, n) -= z.slice(0, n - 10);  // z[10:] -= z[:-10]
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = static_cast<double>(i < 10 ? i : 10);
  check_equal(z.to_vector(), want);
  // out= onto a shifted part of an input, and a putmask reading itself shifted.
  Array x = arange(n, DType::F64), y = full(n - 1, 2.0);
  Array dst = x.slice(1, n);
  add(x.slice(0, n - 1), y, dst);  // x[1:] = x[:-1] + 2
  for (int64_t i = 0; i < n; ++i) want[i] = static_cast<double>(i == 0 ? 0 : i + 1);
  check_equal(x.to_vector(), want);
  Array w = arange(n, DType::F64);
  Array head = w.slice(0, n - 1);
  putmask(head, ones(n - 1, DType::Bool), w.slice(1, n));  // w[:-1] = w[1:]
  for (int64_t i = 0; i < n; ++i) want[i] = static_cast<double>(i + 1 < n ? i + 1 : i);
  check_equal(w.to_vector(), want);
}

TEST_CASE("2-D views with gaps between rows compute like their copies", "[arrays][views]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  const int64_t rows = 50, cols = 70;
  Array grid = arange(rows * cols, DType::F64).reshape(rows, cols);
  Array inner = grid.view(1, rows - 1, 1, cols - 1);
  CHECK(inner.shape() == std::vector<int64_t>{rows - 2, cols - 2});
  CHECK_FALSE(inner.contiguous());
  std::vector<double> want;
  for (int64_t r = 1; r < rows - 1; ++r) {
    for (int64_t c = 1; c < cols - 1; ++c) want.push_back(static_cast<double>(r * cols + c));
  }
  check_equal(inner.to_vector(), want);
  check_equal(inner.copy().to_vector(), want);
  // A 5-point stencil through four shifted views.
  Array next = zeros(rows, cols);
  Array sum4 = grid.view(0, rows - 2, 1, cols - 1) + grid.view(2, rows, 1, cols - 1) +
               grid.view(1, rows - 1, 0, cols - 2) + grid.view(1, rows - 1, 2, cols);
  next.view(1, rows - 1, 1, cols - 1).assign(sum4 * 0.25);
  const std::vector<double> out = next.to_vector();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const bool interior = r > 0 && r < rows - 1 && c > 0 && c < cols - 1;
      INFO("row " << r << " column " << c);
      CHECK(out[r * cols + c] == (interior ? static_cast<double>(r * cols + c) : 0.0));
    }
  }
  // In-place on a view leaves the border alone.
  inner *= 0.0;
  CHECK(grid.sum().item() == Approx((rows * cols - 1) * rows * cols / 2.0 - [&] {
          double s = 0;
          for (double v : want) s += v;
          return s;
        }()));
  // Row slices of a 2-D array, reductions and products on views.
  Array m = arange(rows * cols, DType::F64).reshape(rows, cols);
  CHECK(m.slice(2, 4).shape() == std::vector<int64_t>{2, cols});
  CHECK(m.view(0, rows, 3, 4).sum().item() == Approx(rows * 3.0 + cols * rows * (rows - 1) / 2.0));
  Array x = ones(cols - 10);
  const std::vector<double> y = matvec(m.view(0, rows, 5, cols - 5), x).to_vector();
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t c = 5; c < cols - 5; ++c) s += static_cast<double>(r * cols + c);
    CHECK(y[r] == s);
  }
  CHECK(m.flatten().shape() == std::vector<int64_t>{rows * cols});
  CHECK(inner.flatten().size() == (rows - 2) * (cols - 2));
}
