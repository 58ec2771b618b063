# Conjugate gradient on the 2-D adjacency (Poisson) system, in the style of
# cuPyNumeric's cg.py: an N^2 x N^2 matrix with 4 (8 with corners) on the
# diagonal and -1 on the diagonals +-1 and +-N (and +-(N+1), +-(N-1) with
# corners). Small systems use the dense matrix as cg.py does; large ones
# apply the same matrix as shifted slices of the vector, one per diagonal.
# The same options and output as the C++ example (examples/cg.cpp).
#
#   legate --cpus 4 --profile cg.py -n 10 --check -t
import argparse
import time

import legato.numpy as np


def generate_2d(N, args):
    n = N * N
    diagonal = 8.0 if args.corners else 4.0
    offsets = [1, N] + ([N + 1, N - 1] if args.corners else [])
    dense = args.operator == "dense" or (args.operator == "auto" and n * n * 8 <= 64 << 20)
    print(f"Generating {n}x{n} 2-D adjacency system {'with' if args.corners else 'without'} "
          f"corners ({'dense matrix' if dense else 'matrix-free, one slice per diagonal'})...")
    A = M = None
    if dense:
        A = np.eye(n) * diagonal
        for k in offsets:
            A += np.diag(np.full(n - k, -1.0), k)
            A += np.diag(np.full(n - k, -1.0), -k)
        if args.pre:
            M = np.diag(np.full(n, 1.0 / (diagonal * n)))
    b = np.random.default_rng(args.seed).random(n)
    return dict(n=n, diagonal=diagonal, offsets=offsets, A=A, M=M, b=b)


def apply(s, p):
    """A.dot(p)"""
    if s["A"] is not None:
        return s["A"].dot(p)
    n = s["n"]
    ap = p * s["diagonal"]
    for k in s["offsets"]:
        ap[k:n] -= p[0:n - k]  # diagonal -k
        ap[0:n - k] -= p[k:n]  # diagonal +k
    return ap


def precondition(s, r):
    if s["M"] is not None:
        return s["M"].dot(r)
    return r * (1.0 / (s["diagonal"] * s["n"]))


def check(s, x):
    print("Checking result...")
    ok = np.allclose(apply(s, x), s["b"])
    print("PASS!" if ok else "FAIL!")
    return ok


def run_cg(s, args):
    print("Solving system with preconditioner..." if args.pre else "Solving system...")
    n = s["n"]
    max_iters = min(args.max, n) if args.max is not None else n
    x = np.zeros(n)
    r = s["b"] - apply(s, x)
    z = precondition(s, r) if args.pre else r
    p = z
    rzold = r.dot(z)
    converged = -1
    r_start = r_end = -1.0
    if args.verbose:
        print(f"Residual {-args.warmup}: {float(rzold):g}")
    start = time.perf_counter()
    for i in range(-args.warmup, max_iters):
        if i == 0:
            r_start = float(np.sqrt(rzold))
            start = time.perf_counter()
        ap = apply(s, p)
        alpha = rzold / p.dot(ap)
        x = x + alpha * p
        r = r - alpha * ap
        rznew = r.dot(r)
        if args.verbose:
            print(f"Residual {i + 1}: {float(rznew):g}")
        # The convergence test waits for the residual: only every `iters`
        # iterations and on the last one.
        if i >= 0 and (i % args.iters == 0 or i == max_iters - 1):
            norm = float(np.sqrt(rznew))
            if norm < args.threshold:
                converged = i
                r_end = norm
                break
        if args.pre:
            z = precondition(s, r)
            rznew = r.dot(z)
        else:
            z = r
        beta = rznew / rzold
        p = z + beta * p
        rzold = rznew
    ms = (time.perf_counter() - start) * 1e3
    if converged < 0:
        r_end = float(np.sqrt(rzold))
        iterations = max_iters
        print("Convergence FAILURE!")
    else:
        iterations = converged + 1
        print(f"Converged in {iterations} iterations")
    passed = check(s, x) if args.check else True
    if args.time:
        print(f"Elapsed Time: {ms:.3f} ms")
    return ms, iterations, r_start, r_end, passed


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="check the result of the solve")
    parser.add_argument("-k", "--corners", action="store_true",
                        help="include corners when generating the adjacency matrix")
    parser.add_argument("-i", "--iters", type=int, default=25,
                        help="iterations between convergence tests")
    parser.add_argument("--pre", action="store_true", help="use a Jacobi preconditioner")
    parser.add_argument("-m", "--max", type=int, default=None,
                        help="bound the maximum number of iterations")
    parser.add_argument("-w", "--warmup", type=int, default=5, help="warm-up iterations")
    parser.add_argument("-n", "--num", type=int, nargs="+", default=[10],
                        help="number of elements in one dimension (one or more)")
    parser.add_argument("-t", "--time", action="store_true", help="perform timing")
    parser.add_argument("-v", "--verbose", action="store_true", help="print verbose output")
    parser.add_argument("--threshold", type=float, default=1e-10,
                        help="convergence check threshold")
    parser.add_argument("--operator", choices=["auto", "dense", "stencil"], default="auto",
                        help="how to apply the matrix (dense up to 64 MiB by default)")
    parser.add_argument("--seed", type=int, default=42, help="seed of the right-hand side")
    args = parser.parse_args()
    ok = True
    for N in args.num:
        s = generate_2d(N, args)
        ms, iterations, r_start, r_end, passed = run_cg(s, args)
        per = ms / iterations if iterations > 0 else 0.0
        print(f"N = {N}: {iterations} iterations, residual norm {r_start:.3e} -> {r_end:.3e}, "
              f"{ms:.3f} ms ({per:.3f} ms per iteration)")
        ok = ok and passed
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
