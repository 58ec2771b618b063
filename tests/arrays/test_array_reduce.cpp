// Reductions, products and values against a plain C++ reference.
#include <algorithm>
#include <numeric>
#include <set>

#include "arrays/array_test_util.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato::rt;
using Catch::Matchers::Contains;
using legato::rt::testing::check_equal;

TEST_CASE("sum, min and max match the reference for every type and size", "[arrays][reduce]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(10);
  for (DType type : testing::numeric_types()) {
    for (int64_t n : testing::sizes()) {
      INFO(dtype_name(type) << " n=" << n);
      Array x = testing::random_input(g, n, type);
      const std::vector<double> xs = x.to_vector();
      const double total = std::accumulate(xs.begin(), xs.end(), 0.0);
      CHECK(x.sum().item() == Approx(total).epsilon(1e-12).margin(1e-9));
      if (type == DType::I64) CHECK(x.sum().item_int() == static_cast<int64_t>(total));
      if (n == 0) continue;
      CHECK(x.min().item() == *std::min_element(xs.begin(), xs.end()));
      CHECK(x.max().item() == *std::max_element(xs.begin(), xs.end()));
    }
  }
  Array flags = Generator(11).random(1000) < 0.3;
  const std::vector<double> fs = flags.to_vector();
  CHECK(flags.sum().item_int() == static_cast<int64_t>(std::accumulate(fs.begin(), fs.end(), 0.0)));
}

TEST_CASE("dot and matvec match the reference", "[arrays][reduce]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Generator g(12);
  for (DType type : testing::numeric_types()) {
    for (int64_t n : testing::sizes()) {
      INFO(dtype_name(type) << " n=" << n);
      Array x = testing::random_input(g, n, type), y = testing::random_input(g, n, type);
      const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
      const double want = std::inner_product(xs.begin(), xs.end(), ys.begin(), 0.0);
      CHECK(x.dot(y).item() == Approx(want).epsilon(1e-12).margin(1e-9));
      CHECK(dot(x, y).item() == Approx(want).epsilon(1e-12).margin(1e-9));
    }
    for (auto [rows, cols] :
         {std::pair<int64_t, int64_t>{0, 4}, {3, 0}, {1, 1}, {7, 300}, {600, 5}, {40, 41}}) {
      INFO(dtype_name(type) << " " << rows << "x" << cols);
      Array a = testing::random_input(g, rows * cols, type).reshape(rows, cols);
      Array v = testing::random_input(g, cols, type);
      const std::vector<double> as = a.to_vector(), vs = v.to_vector();
      std::vector<double> want(static_cast<size_t>(rows), 0.0);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) want[static_cast<size_t>(r)] += as[r * cols + c] * vs[c];
        if (type == DType::F32) want[r] = static_cast<float>(want[r]);
      }
      Array y = matvec(a, v);
      CHECK(y.shape() == std::vector<int64_t>{rows});
      check_equal(y.to_vector(), want, type == DType::F32 ? 1e-6 : 1e-12);
    }
  }
}

TEST_CASE("values compute on futures and wait only for item()", "[arrays][reduce]") {
  testing::RuntimeScope scope(testing::kArrayConfig);
  Array a = arange(1000, DType::F64);  // sum 499500
  Array b = ones(1000);
  Value s = a.sum();
  Value t = b.sum();
  Value mixed = (s + t) / 2.0 - 1.0;  // deferred: ScalarBinaryOpTask
  CHECK_FALSE(mixed.is_constant());
  CHECK(mixed.item() == Approx((499500.0 + 1000.0) / 2.0 - 1.0));
  CHECK(sqrt(Value(16.0)).item() == 4.0);
  CHECK(sqrt(a.dot(a)).item() == Approx(std::sqrt(332833500.0)));
  Value c = Value(3.0) * 2.0;  // constants fold at once
  CHECK(c.is_constant());
  CHECK(c.item() == 6.0);
  // A value as an operand of an array operation, without waiting for it.
  Array scaled = b * s;
  CHECK(scaled.sum().item() == Approx(499500.0 * 1000));
  Array filled = full(10, t);
  check_equal(filled.to_vector(), std::vector<double>(10, 1000.0));
  CHECK(arange(5).slice(3, 4).item() == 3.0);
}

TEST_CASE("every operation in the trace names the line of the program that asked for it",
          "[arrays][trace]") {
  legato::trace::testing::TempDir dir;
  int sum_line = 0, op_line = 0, value_line = 0, update_line = 0, flat_line = 0;
  {
    testing::RuntimeScope scope("--cpus 2 --profile --logdir " + dir.path().string());
    Array a = arange(1000, DType::F64);
    // clang-format off
    Value s = a.sum(); sum_line = __LINE__;
    Array b = a * 2.0; op_line = __LINE__;
    Value r = s / b.sum(); value_line = __LINE__;
    b[b > 10.0] += r; update_line = __LINE__;
    Array f = b.reshape(10, 100).view(2, 4, 3, 5).flatten(); flat_line = __LINE__;
    // clang-format on
    CHECK(f.size() == 4);
    CHECK(r.item() == Approx(0.5));
  }
  const auto l = legato::trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  std::map<uint32_t, std::string> strings, kinds;
  for (const auto& s : l.records.get<legato::trace::StringRecord>()) strings[s.id] = s.text;
  for (const auto& k : l.records.get<legato::trace::TaskKindRecord>())
    kinds[k.id] = strings[k.name];
  std::multimap<std::string, std::string> where;  // task kind -> provenance
  std::string all_lines;                          // of every operation
  for (const auto& o : l.records.get<legato::trace::OperationRecord>()) {
    if (o.task_kind != 0) where.emplace(kinds[o.task_kind], strings[o.provenance]);
    all_lines += strings[o.provenance] + " ";
  }
  const auto at = [](int line) {
    return std::string("test_array_reduce.cpp:") + std::to_string(line);
  };
  const auto lines_of = [&](const std::string& kind) {
    std::string all;
    for (auto [it, end] = where.equal_range(kind); it != end; ++it) all += it->second + " ";
    return all;
  };
  CHECK_THAT(lines_of("ScalarUnaryRedTask"), Contains(at(sum_line)));
  CHECK_THAT(lines_of("BinaryOpTask"), Contains(at(op_line)));
  CHECK_THAT(lines_of("ScalarUnaryRedTask"), Contains(at(value_line)));  // b.sum()
  CHECK_THAT(lines_of("ScalarBinaryOpTask"), Contains(at(value_line)));  // s / ...
  CHECK_THAT(lines_of("BinaryOpTask"), Contains(at(update_line)));       // b > 10.0
  CHECK_THAT(lines_of("PutmaskTask"), Contains(at(update_line)));        // += r
  CHECK_THAT(lines_of("ScalarBinaryOpTask"), !Contains("arrays/array_reduce.cpp"));
  // flatten() of a view copies it: at the caller's line, not the library's.
  CHECK_THAT(all_lines, Contains(at(flat_line)));
  CHECK_THAT(all_lines, !Contains("arrays/array.cpp"));
}

TEST_CASE("a CallSite names a front end's line in the trace, the store and error messages",
          "[arrays][trace]") {
  legato::trace::testing::TempDir dir;
  {
    testing::RuntimeScope scope("--cpus 2 --profile --logdir " + dir.path().string());
    Array a = zeros(10), b = zeros(11);
    {
      CallSite site("/home/u/prog.py", 7);
      Array c = a * 2.0;
      CHECK_THROWS_WITH(a + b, Catch::StartsWith("add at /home/u/prog.py:7: "));
      {
        CallSite inner("/home/u/lib.py", 3);
        CHECK_THROWS_WITH(a + b, Catch::StartsWith("add at /home/u/lib.py:3: "));
      }
      CHECK_THROWS_WITH(a + b, Catch::StartsWith("add at /home/u/prog.py:7: "));
      CHECK(c.sum().item() == 0);
    }
    CHECK_THROWS_WITH(a + b, Contains("test_array_reduce.cpp:"));
  }
  const auto l = legato::trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  std::map<uint32_t, std::string> strings;
  for (const auto& s : l.records.get<legato::trace::StringRecord>()) strings[s.id] = s.text;
  std::set<std::string> op_lines, store_lines;
  for (const auto& o : l.records.get<legato::trace::OperationRecord>())
    op_lines.insert(strings[o.provenance]);
  for (const auto& i : l.records.get<legato::trace::InstanceRecord>())
    store_lines.insert(strings[i.provenance]);
  CHECK(op_lines.count("/home/u/prog.py:7") == 1);
  CHECK(store_lines.count("/home/u/prog.py:7") == 1);  // c's store
}
