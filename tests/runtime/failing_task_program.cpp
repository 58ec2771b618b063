// A task that throws: the runtime reports it, finishes the trace and exits 1.
#include <stdexcept>

#include "runtime/legato.hpp"

using namespace legato::rt;

int main() {
  start();
  const TaskId bad = register_task("bad_task", [](TaskContext& ctx) {
    if (ctx.point() == 0) throw std::runtime_error("index 7 is out of bounds");
  });
  Store a = create_store(100, DType::F64, "a");
  TaskLauncher(bad, 100).add_aligned(a, 0, Privilege::Write).execute();  // [bad]
  fence();
  finish();
  return 0;
}
