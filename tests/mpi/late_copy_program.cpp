// A program for test_distributed (2 ranks) where a copy into an instance
// runs late: rank 0 holds a[k] (a halo from rank 1) in an instance that a
// wider one replaces, and the copy of its data into the new instance waits
// behind a long copy on rank 0's copy thread. Meanwhile rank 1 updates a and
// rank 0 receives the new a[k] into the new instance. The receive must not
// be overwritten by the late copy of the old value.
#include <cstdio>
#include <cstdlib>

#include "arrays/array.hpp"

using namespace legato::rt;

int main(int argc, char** argv) {
  if (argc != 3 || std::atoll(argv[1]) < 16 || std::atoll(argv[2]) < 1) {
    std::fprintf(stderr, "usage: %s K M (K >= 16: half of a; M >= 1: elements of the long copy)\n",
                 argv[0]);
    return 2;
  }
  const int64_t k = std::atoll(argv[1]), m = std::atoll(argv[2]), n = 2 * k + 1;
  start();
  Array a = arange(n, DType::F64);  // rank 0 writes a[:k], rank 1 a[k:]
  const Array source = ones(m);
  (void)source.sum().item();  // everything so far is done
  // Rank 0 receives a[k] from rank 1.
  const Array b1 = a.slice(1, n) + a.slice(0, n - 1);
  // A long copy on every rank's copy thread, ready at once.
  Array target = empty(m);
  target.assign(source);
  // Rank 0 reads a[k+1 : 3k/2+1], past the instance holding a[k] but not
  // a[k] itself: a wider instance replaces that one, and the copy of its
  // data waits behind the long copy (nothing rank 0 runs next waits for
  // it). Rank 1 reads only what it holds.
  const Array e = a.slice(k + 1, n) * 2.0;
  // Rank 1 changes a[k]; rank 0 receives the new value into the new instance.
  a += 1.0;
  const Array b2 = a.slice(1, n) + a.slice(0, n - 1);
  // Once the long copy is done (the late one follows it), rank 0 reads a[k] again.
  const bool copied = target.sum().item() == static_cast<double>(m);
  const Array b3 = a.slice(1, n) + a.slice(0, n - 1);
  // b1 = 2i + 1 for i < n - 1; b2 = b3 = b1 + 2.
  const double want1 = static_cast<double>((n - 1) * (n - 1));
  const double want2 = want1 + 2.0 * static_cast<double>(n - 1);
  const double sum1 = b1.sum().item(), sum2 = b2.sum().item(), sum3 = b3.sum().item();
  const bool ok = copied && sum1 == want1 && sum2 == want2 && sum3 == want2 &&
                  e.sum().item() == static_cast<double>((3 * k + 1) * k);
  std::printf("sums %.1f %.1f %.1f (want %.1f %.1f %.1f): %s\n", sum1, sum2, sum3, want1, want2,
              want2, ok ? "PASS" : "FAIL");
  finish();
  return ok ? 0 : 1;
}
