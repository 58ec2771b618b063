// The seeds' Example 2: a slice write makes a second instance of b, and the
// last temporary no longer fits a 40 MiB system memory.
//
//   LEGATE_CONFIG="--cpus 1 --sysmem 40" oom               # ends in the OOM report
//   LEGATE_CONFIG="--cpus 1 --sysmem 40" oom --prefetch    # touch all of b first
//   LEGATE_CONFIG="--cpus 1 --sysmem 40" oom --in-place    # no c and d temporaries
//   LEGATE_CONFIG="--cpus 1 --sysmem 40" oom --stencil-hint  # b's first instance covers its halo
#include <CLI/CLI.hpp>
#include <cstdio>

#include "arrays/array.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  CLI::App app{"Example 2: out of memory from a second instance of a sliced array"};
  bool prefetch = false, in_place = false, hint = false;
  app.add_flag("--prefetch", prefetch,
               "Fix B: materialize all of b (b *= 1) before the slice write");
  app.add_flag("--in-place", in_place,
               "Fix C: drop a after use and update b in place instead of c and d");
  app.add_flag("--stencil-hint", hint,
               "Fix A: b.stencil_hint(1, 1) so b's first instance covers all of it");
  CLI11_PARSE(app, argc, argv);

  start();
  const int64_t n = 1024 * 1024;
  Array a = ones(n - 2);               // allocation site, not instantiated yet
  Array b = zeros(n);                  // allocation site, not instantiated yet
  if (hint) b.stencil_hint({1}, {1});  // touches b[1:-1] now, all of b later
  if (prefetch) b *= 1;                // materializes all of b once
  b.slice(1, -1).assign(a);            // b[1:-1] = a: uses only a slice of b
  double total = 0;
  if (in_place) {
    a = Array();  // drop a: its instance is freed once the copy is done
    b += 2;       // replaces c = b + 2
    b += 3;       // replaces d = c + 3
    total = b.sum().item();
  } else {
    Array c = b + 2;  // uses all of b: a second instance of b
    Array d = c + 3;  // does not fit without a fix
    total = d.sum().item();
  }
  std::printf("sum = %.1f (expected %.1f)\n", total, 6.0 * static_cast<double>(n - 2) + 5.0 * 2);
  finish();
  return 0;
}
