// Conjugate gradient on the 2-D adjacency (Poisson) system of cuPyNumeric's
// cg.py: an N^2 x N^2 matrix with 4 (8 with corners) on the diagonal and -1
// on the diagonals +-1 and +-N (and +-(N+1), +-(N-1) with corners).
//
// Small systems use the dense matrix and matrix-vector products, as cg.py
// does; large ones (a dense N = 300 matrix would need 64 GB) apply the same
// matrix as shifted slices of the vector, one per diagonal.
//
//   legate --cpus 4 --profile cg -n 10 --check -t
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>

#include "arrays/array.hpp"
#include "examples/timer.hpp"

using namespace legato::rt;

namespace {

struct Options {
  std::vector<int64_t> sizes{10};
  bool corners = false, check = false, pre = false, timing = false, verbose = false;
  int conv_iters = 25, warmup = 5;
  int64_t max_iters = -1;
  double threshold = 1e-10;
  std::string op = "auto";
  uint64_t seed = 42;
};

// The matrix, dense or as its diagonals, and the right-hand side.
struct System {
  int64_t n = 0, N = 0;
  double diagonal = 4;
  std::vector<int64_t> offsets;  // the -1 diagonals above the main one (and mirrored below)
  bool dense = false;
  Array A, M;  // dense only (M: the Jacobi preconditioner)
  Array b;
};

System generate_2d(int64_t N, const Options& o) {
  System s;
  s.N = N;
  s.n = N * N;
  s.diagonal = o.corners ? 8 : 4;
  s.offsets = {1, N};
  if (o.corners) s.offsets.insert(s.offsets.end(), {N + 1, N - 1});
  s.dense = o.op == "dense" || (o.op == "auto" && s.n * s.n * 8 <= (int64_t{64} << 20));
  std::printf("Generating %lldx%lld 2-D adjacency system %s corners (%s)...\n",
              static_cast<long long>(s.n), static_cast<long long>(s.n),
              o.corners ? "with" : "without",
              s.dense ? "dense matrix" : "matrix-free, one slice per diagonal");
  if (s.dense) {
    s.A = eye(s.n) * s.diagonal;
    for (int64_t k : s.offsets) {
      s.A += diag(full(s.n - k, -1.0), k);
      s.A += diag(full(s.n - k, -1.0), -k);
    }
    if (o.pre) s.M = diag(full(s.n, 1.0 / (s.diagonal * static_cast<double>(s.n))));
  }
  s.b = Generator(o.seed).random(s.n);
  return s;
}

// A.dot(p)
Array apply(const System& s, const Array& p) {
  if (s.dense) return matvec(s.A, p);
  Array ap = p * s.diagonal;
  for (int64_t k : s.offsets) {
    ap.slice(k, s.n) -= p.slice(0, s.n - k);  // diagonal -k
    ap.slice(0, s.n - k) -= p.slice(k, s.n);  // diagonal +k
  }
  return ap;
}

// M.dot(r) for the Jacobi preconditioner diag(1 / d)
Array precondition(const System& s, const Array& r) {
  if (s.dense) return matvec(s.M, r);
  return r * (1.0 / (s.diagonal * static_cast<double>(s.n)));
}

bool check(const System& s, const Array& x) {
  std::printf("Checking result...\n");
  // allclose(A.dot(x), b): |Ax - b| <= 1e-8 + 1e-5 |b| everywhere
  const Array excess = abs(apply(s, x) - s.b) - (abs(s.b) * 1e-5 + 1e-8);
  const bool ok = excess.max().item() <= 0;
  std::printf("%s\n", ok ? "PASS!" : "FAIL!");
  return ok;
}

struct Result {
  double ms = 0, r_start = -1, r_end = -1;
  int64_t iterations = 0;
  bool converged = false, passed = true;
};

Result run_cg(const System& s, const Options& o) {
  std::printf(o.pre ? "Solving system with preconditioner...\n" : "Solving system...\n");
  const int64_t max_iters = o.max_iters >= 0 ? std::min(o.max_iters, s.n) : s.n;
  Array x = zeros(s.n);
  Array r = s.b - apply(s, x);
  Array z = o.pre ? precondition(s, r) : r;
  Array p = z;
  Value rzold = r.dot(z);
  Result res;
  int64_t converged = -1;
  examples::Timer timer;
  if (o.verbose) std::printf("Residual %d: %g\n", -o.warmup, rzold.item());
  timer.start();
  for (int64_t i = -o.warmup; i < max_iters; ++i) {
    if (i == 0) {
      res.r_start = sqrt(rzold).item();
      timer.start();
    }
    Array ap = apply(s, p);
    Value alpha = rzold / p.dot(ap);
    x = x + alpha * p;
    r = r - alpha * ap;
    Value rznew = r.dot(r);
    if (o.verbose) std::printf("Residual %lld: %g\n", static_cast<long long>(i + 1), rznew.item());
    // The convergence test waits for the residual: only every conv_iters
    // iterations and on the last one.
    if (i >= 0 && (i % o.conv_iters == 0 || i == max_iters - 1)) {
      const double norm = sqrt(rznew).item();
      if (norm < o.threshold) {
        converged = i;
        res.r_end = norm;
        break;
      }
    }
    if (o.pre) {
      z = precondition(s, r);
      rznew = r.dot(z);
    } else {
      z = r;
    }
    Value beta = rznew / rzold;
    p = z + beta * p;
    rzold = rznew;
  }
  res.ms = timer.stop();
  if (converged < 0) {
    res.r_end = sqrt(rzold).item();
    res.iterations = max_iters;
    std::printf("Convergence FAILURE!\n");
  } else {
    res.iterations = converged + 1;
    res.converged = true;
    std::printf("Converged in %lld iterations\n", static_cast<long long>(res.iterations));
  }
  if (o.check) res.passed = check(s, x);
  if (o.timing) std::printf("Elapsed Time: %.3f ms\n", res.ms);
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Conjugate gradient on the 2-D adjacency system of cuPyNumeric's cg.py"};
  Options o;
  app.add_flag("--check", o.check, "Check the result of the solve");
  app.add_flag("-k,--corners", o.corners, "Include corners when generating the adjacency matrix");
  app.add_option("-i,--iters", o.conv_iters, "Iterations between convergence tests")
      ->check(CLI::Range(1, 1 << 30))
      ->capture_default_str();
  app.add_flag("--pre", o.pre, "Use a Jacobi preconditioner");
  app.add_option("-m,--max", o.max_iters, "Bound the maximum number of iterations")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  app.add_option("-w,--warmup", o.warmup, "Warm-up iterations")
      ->check(CLI::Range(0, 1 << 30))
      ->capture_default_str();
  app.add_option("-n,--num", o.sizes, "Number of elements in one dimension (one or more)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 20))
      ->capture_default_str();
  app.add_flag("-t,--time", o.timing, "Perform timing");
  app.add_flag("-v,--verbose", o.verbose, "Print verbose output");
  app.add_option("--threshold", o.threshold, "Convergence check threshold")->capture_default_str();
  app.add_option("--operator", o.op,
                 "How to apply the matrix: dense, stencil, or auto (dense up to 64 MiB)")
      ->check(CLI::IsMember({"auto", "dense", "stencil"}))
      ->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random right-hand side")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  start();
  bool ok = true;
  for (int64_t N : o.sizes) {
    const System s = generate_2d(N, o);
    const Result r = run_cg(s, o);
    std::printf(
        "N = %lld: %lld iterations, residual norm %.3e -> %.3e, %.3f ms (%.3f ms per iteration)\n",
        static_cast<long long>(N), static_cast<long long>(r.iterations), r.r_start, r.r_end, r.ms,
        r.iterations > 0 ? r.ms / static_cast<double>(r.iterations) : 0.0);
    ok = ok && r.passed;
  }
  finish();
  return ok ? 0 : 1;
}
