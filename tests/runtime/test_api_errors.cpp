// Misusing the task API throws a clear error at the call; nothing is
// submitted and the runtime keeps working.
#include <catch2/catch.hpp>

#include "runtime/runtime_test_util.hpp"

using namespace legato::rt;

TEST_CASE("API misuse is refused at the call with what was wrong", "[runtime][api]") {
  CHECK_THROWS_WITH(create_store(10, DType::F64),
                    Catch::Contains("the Legato runtime is not running"));
  testing::RuntimeScope scope("--cpus 1");
  const TaskId touch = register_task("touch", [](TaskContext&) {});
  Store a = create_store(100, DType::F64, "a");
  Store b = create_store(50, DType::I64, "b");
  CHECK_THROWS_WITH(
      TaskLauncher(touch, 10).add_aligned(a, 95, Privilege::Read),
      Catch::Contains("argument 0: elements [95, 105) are outside store 'a' of 100 elements"));
  CHECK_THROWS_WITH(TaskLauncher(touch, 10).add_whole(a, {-1, 5}, Privilege::Read),
                    Catch::Contains("outside store 'a'"));
  CHECK_THROWS_WITH(TaskLauncher(999, 10), Catch::Contains("task id 999 was not registered"));
  CHECK_THROWS_WITH(TaskLauncher(touch, -1), Catch::Contains("negative domain size"));
  CHECK_THROWS_WITH(copy(a, 0, b, 0, 10),
                    Catch::Contains("source is float64, destination is int64; convert first"));
  CHECK_THROWS_WITH(copy(a, 0, a, 95, 10),
                    Catch::Contains("(destination): elements [95, 105) are outside store 'a'"));
  CHECK_THROWS_WITH(fill(b, {40, 60}, Scalar(int64_t{1})),
                    Catch::Contains("outside store 'b' of 50 elements"));
  CHECK_THROWS_WITH(create_store(-5, DType::F64), Catch::Contains("negative size -5"));
  CHECK_THROWS_WITH(TaskLauncher(touch, 1).add_future(Future()),
                    Catch::Contains("an empty future"));
  CHECK_THROWS_WITH(register_task("empty", {}), Catch::Contains("the CPU variant is empty"));
  // The runtime still works after all that.
  const TaskId count =
      register_task("count", [](TaskContext& ctx) { ctx.result(ctx.range(0).size()); });
  CHECK(TaskLauncher(count, 100)
            .add_aligned(a, 0, Privilege::Read)
            .reduce_result(ReduceOp::Sum)
            .execute()
            .get_int() == 100);
}
