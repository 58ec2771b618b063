// Gathers (or with "scatter", scatters) through an index past the end of a
// 10-element array: the run must stop naming the operation and the index.
#include <cstdio>
#include <string>

#include "arrays/array.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  const bool scatter = argc > 1 && std::string(argv[1]) == "scatter";
  start();
  Array a = arange(10, DType::F64);
  Array index = arange(5) * int64_t{3};  // 0 3 6 9 12
  if (scatter) {
    a[index] = arange(5, DType::F64);  // [bad]
  } else {
    Array b = a[index];  // [bad]
    std::printf("sum %g\n", b.sum().item());
  }
  finish();
  return 0;
}
