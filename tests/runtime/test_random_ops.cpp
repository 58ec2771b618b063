// Random sequences of operations on overlapping ranges of several stores,
// run on 1, 2 and 8 CPUs against a plain sequential model: the same results,
// no deadlock, and every recorded dependency respected in the recorded times.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <sstream>

#include "runtime/runtime_test_util.hpp"
#include "trace_format/trace_test_util.hpp"

using namespace legato;
using namespace legato::rt;
using trace::testing::TempDir;

namespace {

struct Tasks {
  TaskId iota, add_const, axpy, sum, max, add_future, histogram, readback;
};

std::vector<std::vector<int64_t>*> g_readback;  // where readback tasks copy to

Tasks register_tasks() {
  Tasks t;
  t.iota = register_task("iota", [](TaskContext& ctx) {
    int64_t* a = ctx.data<int64_t>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] = (ctx.range(0).lo + i) * 7 % 1000;
  });
  t.add_const = register_task("add_const", [](TaskContext& ctx) {
    int64_t* a = ctx.data<int64_t>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] += ctx.scalar_int(0);
  });
  t.axpy = register_task("axpy", [](TaskContext& ctx) {
    const int64_t* x = ctx.data<int64_t>(0);
    int64_t* y = ctx.data<int64_t>(1);
    for (int64_t i = 0; i < ctx.range(1).size(); ++i) y[i] += ctx.scalar_int(0) * x[i];
  });
  t.sum = register_task("sum", [](TaskContext& ctx) {
    const int64_t* a = ctx.data<int64_t>(0);
    int64_t s = 0;
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) s += a[i];
    ctx.result(s);
  });
  t.max = register_task("max", [](TaskContext& ctx) {
    const int64_t* a = ctx.data<int64_t>(0);
    int64_t m = std::numeric_limits<int64_t>::lowest();
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) m = std::max(m, a[i]);
    ctx.result(m);
  });
  t.add_future = register_task("add_future", [](TaskContext& ctx) {
    int64_t* a = ctx.data<int64_t>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] += ctx.future_int(0) % 1000;
  });
  t.histogram = register_task("histogram", [](TaskContext& ctx) {
    int64_t* bins = ctx.data<int64_t>(0);  // this point's reduction buffer over the whole range
    const int64_t n = ctx.range(0).size();
    for (int64_t i = ctx.domain().lo; i < ctx.domain().hi; ++i) bins[i % n] += 1;
  });
  t.readback = register_task("readback", [](TaskContext& ctx) {
    const int64_t* a = ctx.data<int64_t>(0);
    std::vector<int64_t>& out = *g_readback[static_cast<size_t>(ctx.scalar_int(0))];
    out.assign(a, a + ctx.range(0).size());
  });
  return t;
}

Range random_range(std::mt19937_64& rng, int64_t size, int64_t max_len) {
  const int64_t lo = static_cast<int64_t>(rng() % static_cast<uint64_t>(size));
  const int64_t len =
      1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(std::min(max_len, size - lo)));
  return {lo, lo + len};
}

// Another store than s, and equally long ranges in both.
struct Pair {
  size_t dst;
  int64_t len, src_lo, dst_lo;
};
Pair random_pair(std::mt19937_64& rng, const std::vector<Store>& stores, size_t s) {
  const auto pick = [&](int64_t below) {
    return static_cast<int64_t>(rng() % static_cast<uint64_t>(below));
  };
  Pair p;
  p.dst = (s + 1 + rng() % (stores.size() - 1)) % stores.size();
  p.len = 1 + pick(std::min(stores[s].size(), stores[p.dst].size()));
  p.src_lo = pick(stores[s].size() - p.len + 1);
  p.dst_lo = pick(stores[p.dst].size() - p.len + 1);
  return p;
}

// One run: the same random program on the runtime and on the model.
void run_program(const std::string& config, uint64_t seed, int ops) {
  TempDir dir;
  std::vector<std::vector<int64_t>> model;
  std::vector<std::pair<Future, int64_t>> futures;  // with the model's value
  {
    testing::RuntimeScope scope(config + " --profile --logdir " + dir.path().string());
    const Tasks t = register_tasks();
    std::mt19937_64 rng(seed);
    std::vector<Store> stores;
    for (int s = 0; s < 4; ++s) {
      const int64_t n = 20000 + static_cast<int64_t>(rng() % 80000);
      stores.push_back(create_store(n, DType::I64, "s" + std::to_string(s)));
      model.emplace_back(static_cast<size_t>(n));
      TaskLauncher(t.iota, n).add_aligned(stores.back(), 0, Privilege::Write).execute();
      for (int64_t i = 0; i < n; ++i) model.back()[static_cast<size_t>(i)] = i * 7 % 1000;
    }
    Future last_sum;
    int64_t last_sum_value = 0;
    for (int k = 0; k < ops; ++k) {
      const size_t s = rng() % stores.size();
      const int64_t n = stores[s].size();
      auto& m = model[s];
      switch (rng() % 8) {
        case 0: {
          const Range r = random_range(rng, n, 50000);
          const int64_t c = static_cast<int64_t>(rng() % 100) - 50;
          TaskLauncher(t.add_const, r.size())
              .add_aligned(stores[s], r.lo, Privilege::ReadWrite)
              .add_scalar(c)
              .execute();
          for (int64_t i = r.lo; i < r.hi; ++i) m[static_cast<size_t>(i)] += c;
          break;
        }
        case 1: {
          const auto [d, len, src_lo, dst_lo] = random_pair(rng, stores, s);
          const int64_t k2 = static_cast<int64_t>(rng() % 5) - 2;
          TaskLauncher(t.axpy, len)
              .add_aligned(stores[s], src_lo, Privilege::Read)
              .add_aligned(stores[d], dst_lo, Privilege::ReadWrite)
              .add_scalar(k2)
              .execute();
          for (int64_t i = 0; i < len; ++i)
            model[d][static_cast<size_t>(dst_lo + i)] += k2 * m[static_cast<size_t>(src_lo + i)];
          break;
        }
        case 2: {
          const auto [d, len, src_lo, dst_lo] = random_pair(rng, stores, s);
          copy(stores[s], src_lo, stores[d], dst_lo, len);
          for (int64_t i = 0; i < len; ++i)
            model[d][static_cast<size_t>(dst_lo + i)] = m[static_cast<size_t>(src_lo + i)];
          break;
        }
        case 3: {
          const Range r = random_range(rng, n, 30000);
          const int64_t v = static_cast<int64_t>(rng() % 1000);
          fill(stores[s], r, Scalar(v));
          for (int64_t i = r.lo; i < r.hi; ++i) m[static_cast<size_t>(i)] = v;
          break;
        }
        case 4: {
          const Range r = random_range(rng, n, n);
          last_sum = TaskLauncher(t.sum, r.size())
                         .add_aligned(stores[s], r.lo, Privilege::Read)
                         .reduce_result(ReduceOp::Sum)
                         .execute();
          last_sum_value = 0;
          for (int64_t i = r.lo; i < r.hi; ++i) last_sum_value += m[static_cast<size_t>(i)];
          futures.emplace_back(last_sum, last_sum_value);
          break;
        }
        case 5: {
          if (!last_sum.valid()) break;
          const Range r = random_range(rng, n, 40000);
          TaskLauncher(t.add_future, r.size())
              .add_aligned(stores[s], r.lo, Privilege::ReadWrite)
              .add_future(last_sum)
              .execute();
          for (int64_t i = r.lo; i < r.hi; ++i) m[static_cast<size_t>(i)] += last_sum_value % 1000;
          break;
        }
        case 6: {
          const Range r = random_range(rng, n, 500);
          const int64_t domain = 1 + static_cast<int64_t>(rng() % 20000);
          TaskLauncher(t.histogram, domain)
              .add_whole(stores[s], r, Privilege::Reduce, ReduceOp::Sum)
              .execute();
          for (int64_t i = 0; i < domain; ++i) m[static_cast<size_t>(r.lo + i % r.size())] += 1;
          break;
        }
        case 7: {
          const Range r = random_range(rng, n, n);
          Future f = TaskLauncher(t.max, r.size())
                         .add_aligned(stores[s], r.lo, Privilege::Read)
                         .reduce_result(ReduceOp::Max)
                         .execute();
          int64_t mx = std::numeric_limits<int64_t>::lowest();
          for (int64_t i = r.lo; i < r.hi; ++i) mx = std::max(mx, m[static_cast<size_t>(i)]);
          futures.emplace_back(f, mx);
          if (rng() % 4 == 0) CHECK(f.get_int() == mx);  // block now and then, mid-stream
          break;
        }
      }
      if (rng() % 40 == 0) {
        // A store dies (its instances get collected) and a new one takes its place.
        const size_t i = rng() % stores.size();
        const int64_t size = 20000 + static_cast<int64_t>(rng() % 80000);
        stores[i] = create_store(size, DType::I64, "r" + std::to_string(k));
        model[i].assign(static_cast<size_t>(size), 0);
        TaskLauncher(t.iota, size).add_aligned(stores[i], 0, Privilege::Write).execute();
        for (int64_t j = 0; j < size; ++j) model[i][static_cast<size_t>(j)] = j * 7 % 1000;
      }
    }
    std::vector<std::vector<int64_t>> out(stores.size());
    g_readback.clear();
    for (auto& o : out) g_readback.push_back(&o);
    for (size_t s = 0; s < stores.size(); ++s) {
      TaskLauncher(t.readback, 1)
          .add_whole(stores[s], {0, stores[s].size()}, Privilege::Read)
          .add_scalar(static_cast<int64_t>(s))
          .execute();
    }
    fence();
    for (auto& [f, expected] : futures) CHECK(f.get_int() == expected);
    for (size_t s = 0; s < stores.size(); ++s) {
      INFO("store " << s);
      REQUIRE(out[s].size() == model[s].size());
      CHECK(out[s] == model[s]);
    }
  }
  // The trace: every dependency was respected in time.
  trace::testing::Loaded l = trace::testing::load_file(dir.file("legate_0.prof"));
  REQUIRE(l.clean);
  std::map<trace::Uid, std::pair<trace::Time, trace::Time>> spans;
  const auto add = [&](trace::Uid uid, trace::Time create, trace::Time ready, trace::Time start,
                       trace::Time stop) {
    CHECK(create <= ready);
    CHECK(ready <= start);
    CHECK(start <= stop);
    spans[uid] = {start, stop};
  };
  for (const auto& r : l.records.get<trace::TaskRecord>())
    add(r.uid, r.create, r.ready, r.start, r.stop);
  for (const auto& r : l.records.get<trace::CopyRecord>())
    add(r.uid, r.create, r.ready, r.start, r.stop);
  for (const auto& r : l.records.get<trace::MetaTaskRecord>())
    add(r.uid, r.create, r.ready, r.start, r.stop);
  uint64_t checked = 0, violated = 0;
  for (const auto& e : l.records.get<trace::EdgeRecord>()) {
    const auto item = spans.find(e.item), pre = spans.find(e.precondition);
    if (item == spans.end() || pre == spans.end()) continue;
    ++checked;
    if (pre->second.second > item->second.first) {
      ++violated;
      std::ostringstream msg;
      msg << "edge " << e.item << " <- " << e.precondition << " (" << trace::to_string(e.edge_kind)
          << "): precondition stops at " << pre->second.second << ", item starts at "
          << item->second.first;
      UNSCOPED_INFO(msg.str());
      std::fprintf(stderr, "%s\n", msg.str().c_str());
    }
  }
  CHECK(checked > 100);
  CHECK(violated == 0);
}

}  // namespace

TEST_CASE("random operations on 1 CPU match the sequential model", "[runtime][random]") {
  run_program("--cpus 1 --utility 1 --min-cpu-chunk 2048", 11, 600);
}

TEST_CASE("random operations on 2 CPUs match the sequential model", "[runtime][random]") {
  run_program("--cpus 2 --utility 2 --min-cpu-chunk 4096 --window-size 16", 22, 600);
}

TEST_CASE("random operations on 8 CPUs match the sequential model", "[runtime][random]") {
  run_program("--cpus 8 --utility 2 --min-cpu-chunk 1024", 33, 600);
}
