// Row-strided arguments (2-D views) and indirect copies (gather, scatter).
#include <catch2/catch.hpp>
#include <numeric>

#include "runtime/runtime_test_util.hpp"

using namespace legato::rt;

namespace {
std::vector<int64_t>* g_out = nullptr;

TaskId readback_task() {
  return register_task("readback", [](TaskContext& ctx) {
    const int64_t* a = ctx.data<int64_t>(0);
    g_out->assign(a, a + ctx.range(0).size());
  });
}

std::vector<int64_t> read(const Store& s, TaskId readback) {
  std::vector<int64_t> out;
  g_out = &out;
  TaskLauncher(readback, 1).add_whole(s, {0, s.size()}, Privilege::Read).execute();
  fence();
  return out;
}
}  // namespace

TEST_CASE("row-strided arguments touch only their rows' columns", "[runtime][rows]") {
  testing::RuntimeScope scope("--cpus 4 --min-cpu-chunk 16");
  const TaskId readback = readback_task();
  const TaskId iota = register_task("iota", [](TaskContext& ctx) {
    int64_t* a = ctx.data<int64_t>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i) a[i] = ctx.range(0).lo + i;
  });
  // Adds 1000 to the interior columns 2..5 of rows 1..8 of a 10x10 grid,
  // reading the column to the left: out[r][c] = in[r][c-1] + 1000.
  const TaskId shift_add = register_task("shift_add", [](TaskContext& ctx) {
    const int64_t* in = ctx.data<int64_t>(0);
    int64_t* out = ctx.data<int64_t>(1);
    const int64_t rows = ctx.domain().size();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < 4; ++c) out[r * 10 + c] = in[r * 10 + c] + 1000;
    }
  });
  Store grid = create_store(100, DType::I64, "grid");
  Store next = create_store(100, DType::I64, "next");
  TaskLauncher(iota, 100).add_aligned(grid, 0, Privilege::Write).execute();
  copy(grid, 0, next, 0, 100);
  TaskLauncher(shift_add, 8)
      .add_rows(grid, 10 + 1, 10, 4, Privilege::Read)
      .add_rows(next, 10 + 2, 10, 4, Privilege::Write)
      .set_elements_per_index(4)
      .execute();
  const std::vector<int64_t> out = read(next, readback);
  REQUIRE(out.size() == 100);
  for (int64_t r = 0; r < 10; ++r) {
    for (int64_t c = 0; c < 10; ++c) {
      const bool inside = r >= 1 && r <= 8 && c >= 2 && c <= 5;
      INFO("row " << r << " column " << c);
      CHECK(out[static_cast<size_t>(r * 10 + c)] == (inside ? r * 10 + c - 1 + 1000 : r * 10 + c));
    }
  }
  CHECK_THROWS_WITH(TaskLauncher(shift_add, 8).add_rows(grid, 11, 3, 4, Privilege::Read),
                    Catch::Contains("rows of width 4 do not fit a row stride of 3"));
  CHECK_THROWS_WITH(TaskLauncher(shift_add, 11).add_rows(grid, 11, 10, 4, Privilege::Read),
                    Catch::Contains("outside store 'grid'"));
}

TEST_CASE("gather and scatter follow their indices", "[runtime][indirect]") {
  testing::RuntimeScope scope("--cpus 2");
  const TaskId readback = readback_task();
  const TaskId set = register_task("set", [](TaskContext& ctx) {
    int64_t* a = ctx.data<int64_t>(0);
    for (int64_t i = 0; i < ctx.range(0).size(); ++i)
      a[i] = ctx.scalar_int(0) + (ctx.range(0).lo + i) * ctx.scalar_int(1);
  });
  Store src = create_store(50, DType::I64, "src");
  Store idx = create_store(5, DType::I64, "idx");
  Store dst = create_store(20, DType::I64, "dst");
  TaskLauncher(set, 50)
      .add_aligned(src, 0, Privilege::Write)
      .add_scalar(int64_t{100})
      .add_scalar(int64_t{1})
      .execute();
  TaskLauncher(set, 5)
      .add_aligned(idx, 0, Privilege::Write)
      .add_scalar(int64_t{0})
      .add_scalar(int64_t{3})
      .execute();  // 0 3 6 9 12
  TaskLauncher(set, 20)
      .add_aligned(dst, 0, Privilege::Write)
      .add_scalar(int64_t{-1})
      .add_scalar(int64_t{0})
      .execute();
  gather(src, {10, 50}, idx, 0, dst, 2, 5);  // dst[2..7) = src[10 + 0, 3, 6, 9, 12]
  scatter(src, 0, idx, 1, dst, {5, 20}, 4);  // dst[5 + 3, 6, 9, 12] = src[0..4)
  const std::vector<int64_t> out = read(dst, readback);
  const std::vector<int64_t> expected = {-1, -1,  110, 113, 116, 119, 122, -1,  100, -1,
                                         -1, 101, -1,  -1,  102, -1,  -1,  103, -1,  -1};
  CHECK(out == expected);
  Store fidx = create_store(5, DType::F64, "fidx");
  CHECK_THROWS_WITH(gather(src, {0, 50}, fidx, 0, dst, 0, 5),
                    Catch::Contains("indices must be int64, not float64"));
}
