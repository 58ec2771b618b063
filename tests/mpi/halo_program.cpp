// A program whose traffic between ranks is known, for test_distributed:
// with n = ranks * k + 1, `a[1:] + a[:-1]` needs one element of the next
// rank's block of `a` on every rank but the last, the sum is one all-reduce
// per rank, and reading `b` back brings every other rank's block of k
// elements to each rank.
#include <cstdio>
#include <cstdlib>

#include "arrays/array.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  if (argc != 2 || std::atoll(argv[1]) < 2) {
    std::fprintf(stderr, "usage: %s N (N >= 2)\n", argv[0]);
    return 2;
  }
  const int64_t n = std::atoll(argv[1]);
  start();
  const Array a = arange(n, DType::F64);
  const Array b = a.slice(1, n) + a.slice(0, n - 1);
  const double sum = b.sum().item();
  const std::vector<double> all = b.to_vector();
  std::printf("sum %.1f first %.1f last %.1f\n", sum, all.front(), all.back());
  finish();
  return 0;
}
