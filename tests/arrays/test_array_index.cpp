// nonzero, gather, scatter and boolean-mask updates against a reference.
#include <random>

#include "arrays/array_test_util.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::rt;
using legato::rt::testing::check_equal;

TEST_CASE("nonzero lists the positions of non-zero elements", "[arrays][index]") {
  rt::testing::RuntimeScope scope(rt::testing::kArrayConfig);
  Generator g(20);
  for (int64_t n : rt::testing::sizes()) {
    INFO("n=" << n);
    Array mask = g.random(n) < 0.3;
    const std::vector<double> ms = mask.to_vector();
    std::vector<double> want;
    for (size_t i = 0; i < ms.size(); ++i) {
      if (ms[i] != 0) want.push_back(static_cast<double>(i));
    }
    Array idx = nonzero(mask);
    CHECK(idx.dtype() == DType::I64);
    check_equal(idx.to_vector(), want);
    check_equal(nonzero(mask.astype(DType::F32)).to_vector(), want);
  }
  check_equal(nonzero(zeros(100)).to_vector(), {});
  Array m2 = (arange(12).reshape(3, 4) > 8.0) | (arange(12).reshape(3, 4) < 2.0);
  check_equal(nonzero(m2).to_vector(), {0, 1, 9, 10, 11});  // row-major positions
}

TEST_CASE("gather and scatter with int64 indices", "[arrays][index]") {
  rt::testing::RuntimeScope scope(rt::testing::kArrayConfig);
  std::mt19937_64 rng(21);
  for (int64_t n : {1, 7, 256, 1000, 5000}) {
    INFO("n=" << n);
    Array a = arange(n, DType::F64) * 10.0;
    std::vector<double> picks;
    for (int i = 0; i < 300; ++i)
      picks.push_back(static_cast<double>(rng() % static_cast<uint64_t>(n)));
    Array idx = zeros(300, DType::I64);
    for (size_t i = 0; i < picks.size(); ++i)
      idx.slice(static_cast<int64_t>(i), static_cast<int64_t>(i) + 1).assign(picks[i]);
    std::vector<double> want;
    for (double p : picks) want.push_back(p * 10.0);
    Array got = a[idx];
    check_equal(got.to_vector(), want);
    // Scatter: distinct positions get -1, -2, ...
    Array distinct = nonzero(arange(n) < 50.0);
    Array b = zeros(n);
    b[distinct] = -(arange(distinct.size(), DType::F64) + 1.0);
    std::vector<double> bw(static_cast<size_t>(n), 0.0);
    for (int64_t i = 0; i < std::min<int64_t>(n, 50); ++i) bw[i] = -(i + 1.0);
    check_equal(b.to_vector(), bw);
    // Indexed updates: gather, add, scatter.
    b[distinct] += 100.0;
    for (int64_t i = 0; i < std::min<int64_t>(n, 50); ++i) bw[i] += 100.0;
    check_equal(b.to_vector(), bw);
    b[distinct] = Value(3.0);
    for (int64_t i = 0; i < std::min<int64_t>(n, 50); ++i) bw[i] = 3.0;
    check_equal(b.to_vector(), bw);
  }
}

TEST_CASE("boolean masks read, assign and update as in NumPy", "[arrays][index]") {
  rt::testing::RuntimeScope scope(rt::testing::kArrayConfig);
  Generator g(22);
  for (int64_t n : rt::testing::sizes()) {
    INFO("n=" << n);
    Array x = g.random(n, DType::F32), y = g.random(n, DType::F32);
    const std::vector<double> xs = x.to_vector(), ys = y.to_vector();
    Array cond = (x < 0.25f) & (y > 0.5);
    std::vector<double> selected, updated = xs;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i] < 0.25 && ys[i] > 0.5) {
        selected.push_back(xs[i]);
        updated[i] = static_cast<float>(xs[i]) + 2.0f;
      }
    }
    check_equal(Array(x[cond]).to_vector(), selected);
    // The seed's efficient update: one masked task each.
    Array z = x.copy();
    z[cond] += 2.0;
    check_equal(z.to_vector(), updated);
    Array gt = z > 1.0;  // exactly where cond was set
    z[gt] -= 2.0;
    z[~gt] *= 3.0;
    std::vector<double> back = updated;
    for (size_t i = 0; i < xs.size(); ++i) {
      back[i] = updated[i] > 1.0 ? static_cast<float>(updated[i]) - 2.0f
                                 : static_cast<float>(xs[i]) * 3.0f;
    }
    check_equal(z.to_vector(), back);
    // The seed's chunked update: gather, add, scatter through the mask.
    Array w = x.copy();
    w[cond] = w[cond] + 2.0;
    check_equal(w.to_vector(), updated);
    // z[idx] = z_alt[idx] with nonzero indices.
    Array alt = x * y + 1.0;
    Array idx = nonzero(cond);
    Array v = x.copy();
    v[idx] = alt[idx];
    const std::vector<double> alts = alt.to_vector();
    std::vector<double> vw = xs;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i] < 0.25 && ys[i] > 0.5) vw[i] = alts[i];
    }
    check_equal(v.to_vector(), vw);
  }
  // Masks on 2-D arrays and views.
  Array grid = arange(20, DType::F64).reshape(4, 5);
  Array inner = grid.view(1, 3, 1, 4);
  inner[inner > 10.0] += 100.0;  // a view with gaps: masked update in place
  const std::vector<double> gs = grid.to_vector();
  for (int i = 0; i < 20; ++i) {
    const bool inside = i / 5 >= 1 && i / 5 <= 2 && i % 5 >= 1 && i % 5 <= 3;
    CHECK(gs[i] == i + (inside && i > 10 ? 100.0 : 0.0));
  }
  check_equal(Array(inner[inner > 100.0]).to_vector(), {111, 112, 113});
}

TEST_CASE(
    "nonzero runs on the dependent-partitioning processor and the program waits for its count",
    "[arrays][index][trace]") {
  trace::testing::TempDir dir;
  {
    rt::testing::RuntimeScope scope("--cpus 2 --min-cpu-chunk 256 --profile --logdir " +
                                    dir.path().string());
    Array a = Generator(1).random(10000);
    Array idx = nonzero(a < 0.5);
    CHECK(idx.size() > 4000);
  }
  const trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  const auto& r = l.records;
  std::map<uint32_t, trace::ProcKind> kind;
  for (const auto& p : r.get<trace::ProcessorRecord>()) kind[p.id] = p.proc_kind;
  std::map<uint32_t, std::string> strings, names;
  for (const auto& s : r.get<trace::StringRecord>()) strings[s.id] = s.text;
  for (const auto& k : r.get<trace::TaskKindRecord>()) names[k.id] = strings[k.name];
  int count_tasks = 0;
  for (const auto& t : r.get<trace::TaskRecord>())
    count_tasks += names[t.task_kind] == "ScalarUnaryRedTask";
  // The dependent-partitioning lane holds one NonzeroTask, after the count.
  const auto& dp = r.get<trace::DepPartRecord>();
  REQUIRE(dp.size() == 1);
  CHECK(strings[dp[0].part_kind] == "NonzeroTask");
  CHECK(kind[dp[0].processor] == trace::ProcKind::DepPart);
  CHECK(count_tasks >= 2);  // the count, split into points
  CHECK(!r.get<trace::WaitRecord>().empty());
}
