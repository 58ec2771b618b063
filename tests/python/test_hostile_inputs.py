"""Hostile input on the Python front end: os.fork() of a program that imported
legato.numpy (before and after arrays exist, with --profile, multiprocessing's
"fork" start method), NaN in every reduction and comparison, shapes and
integers NumPy refuses or keeps exact (sizes that overflow, negative
dimensions, int64 past 2**53), and programs in directories whose names are
not UTF-8. Outcomes are decided by what the programs print and return, never
by how long they take: the timeouts only stop a hang."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

import numpy

import legato.numpy as np

BIN = os.environ["LEGATO_BIN_DIR"]
# Only a guard against a hang (these programs take a few seconds).
HANG_TIMEOUT = 300
BIG = 2**53 + 1  # the first integer a double cannot hold
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
NAN = float("nan")
INF = float("inf")


def run_python(prog, cwd, config="--cpus 1", args=(), env=None):
    full_env = dict(os.environ, LEGATE_CONFIG=config, LEGATO_SEED="5")
    full_env.update(env or {})
    return subprocess.run([sys.executable, prog, *args], cwd=cwd, env=full_env,
                          capture_output=True, timeout=HANG_TIMEOUT)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


# --- 1. os.fork() ---

FORK_PROGRAM = r"""
import os, sys
import legato.numpy as np

def child_status(body, before_arrays=False):
    pid = os.fork()
    if pid == 0:
        body()
        sys.exit(0)  # runs the interpreter's exit hooks, as a real child does
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])

def only_exits():
    sys.exit(0)

def raises():
    raise KeyError("an uncaught exception in the child")

statuses = {}
statuses["before any array"] = child_status(only_exits)
a = np.arange(10)
s = a.sum()
print("sum before", s.item(), flush=True)
statuses["after arrays"] = child_status(only_exits)
statuses["uncaught exception"] = child_status(raises)

def uses_arrays():
    parent = str(os.getppid())
    attempts = {
        "create": lambda: np.zeros(3),
        "compute": lambda: (a + 1).sum().item(),
        "read": lambda: a.tolist(),
        "print": lambda: print(a),
        "deferred scalar": lambda: float(s),
    }
    for name, attempt in attempts.items():
        try:
            attempt()
        except RuntimeError as e:
            if "belongs to process " + parent not in str(e) or "fork" not in str(e):
                print("unclear error for", name, ":", e, flush=True)
                os._exit(3)
        else:
            print(name, "worked in the fork", flush=True)
            os._exit(4)

statuses["uses arrays"] = child_status(uses_arrays)
print("statuses", sorted(statuses.items()), flush=True)
print("parent after", (a * 2).sum().item(), np.ones(5).sum().item(), flush=True)
"""

MULTIPROCESSING_PROGRAM = r"""
import multiprocessing as mp
import sys, time
import legato.numpy as np

def plain(n):
    return n * 2

def uses_arrays(n):
    return float(np.ones(n).sum())

if __name__ == "__main__":
    a = np.arange(10)
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        print("plain", pool.map(plain, [1, 2, 3]), flush=True)
        try:
            pool.map(uses_arrays, [3])
            print("arrays worked in a worker", flush=True)
        except RuntimeError as e:
            print("worker error names the parent", "belongs to process" in str(e), flush=True)
    p = ctx.Process(target=sys.exit, args=(0,))
    p.start()
    p.join()
    print("exit code", p.exitcode, flush=True)
    p = ctx.Process(target=time.sleep, args=(600,))
    p.start()
    p.terminate()
    p.join()
    print("terminated", p.exitcode, flush=True)
    print("parent", a.sum().item(), flush=True)
"""

# A fork that outlives its parent (a daemon): once it runs (it says so on a
# pipe), the parent's trace is no longer held by it.
DAEMON_PROGRAM = r"""
import os, time
import legato.numpy as np
print("sum", np.arange(10).sum().item(), flush=True)
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.write(w, b"x")
    os.close(w)
    time.sleep(600)
    os._exit(0)
os.close(w)
os.read(r, 1)
print("child", pid, flush=True)
"""

FORK_STATUSES = ("statuses [('after arrays', 0), ('before any array', 0), "
                 "('uncaught exception', 1), ('uses arrays', 0)]")


class Fork(unittest.TestCase):
    def check_fork_program(self, config):
        with tempfile.TemporaryDirectory() as d:
            prog = write(os.path.join(d, "forks.py"), FORK_PROGRAM)
            r = run_python(prog, d, config)
            out, err = r.stdout.decode(), r.stderr.decode()
            self.assertEqual(r.returncode, 0, out + err)
            self.assertIn("sum before 45", out)
            self.assertIn(FORK_STATUSES, out, out + err)
            self.assertIn("parent after 90 5.0", out)
            self.assertIn("KeyError", err)  # the child's traceback, and nothing worse
            return d, out, err, os.listdir(d)

    def test_a_fork_exits_cleanly_and_says_why_arrays_fail_there(self):
        self.check_fork_program("--cpus 2")

    def test_a_fork_leaves_the_parents_trace_and_report_alone(self):
        with tempfile.TemporaryDirectory() as d:
            prog = write(os.path.join(d, "forks.py"), FORK_PROGRAM)
            r = run_python(prog, d, "--cpus 1 --profile")
            out, err = r.stdout.decode(), r.stderr.decode()
            self.assertEqual(r.returncode, 0, out + err)
            self.assertIn(FORK_STATUSES, out, out + err)
            self.assertEqual(err.count("legate_prof/index.html"), 1, err)  # the parent's report
            info = subprocess.run([f"{BIN}/legate_prof", "info", "legate_0.prof"], cwd=d,
                                  capture_output=True, text=True, timeout=HANG_TIMEOUT)
            self.assertEqual(info.returncode, 0, info.stdout + info.stderr)
            self.assertNotIn("incomplete", info.stdout.lower())
            self.assertIn("forks.py", info.stdout)

    def test_a_fork_that_outlives_its_parent_leaves_the_trace_to_later_runs(self):
        with tempfile.TemporaryDirectory() as d:
            first = run_python(write(os.path.join(d, "daemon.py"), DAEMON_PROGRAM), d,
                               "--cpus 1 --profile")
            out = first.stdout.decode()
            self.assertEqual(first.returncode, 0, out + first.stderr.decode())
            child = int(out.split("child ")[1].split()[0])
            try:
                again = run_python(write(os.path.join(d, "again.py"),
                                         "import legato.numpy as np\n"
                                         "print(np.arange(4).sum().item())\n"), d,
                                   "--cpus 1 --profile")
                self.assertEqual(again.returncode, 0, again.stderr.decode())
                self.assertEqual(again.stdout.decode().split()[0], "6")
            finally:
                os.kill(child, signal.SIGKILL)

    def test_multiprocessing_with_fork_workers(self):
        for config in ("--cpus 2", "--cpus 1 --profile"):
            with tempfile.TemporaryDirectory() as d:
                prog = write(os.path.join(d, "pool.py"), MULTIPROCESSING_PROGRAM)
                r = run_python(prog, d, config)
                out, err = r.stdout.decode(), r.stderr.decode()
                self.assertEqual(r.returncode, 0, config + out + err)
                self.assertIn("plain [2, 4, 6]", out)
                self.assertIn("worker error names the parent True", out, out + err)
                self.assertIn("exit code 0", out)
                self.assertIn("terminated -15", out)
                self.assertIn("parent 45", out)


# --- 2. NaN ---

class NaN(unittest.TestCase):
    def test_min_and_max_are_nan_wherever_a_nan_is(self):
        n = 300_000  # several points per launch
        for dtype in (np.float64, np.float32):
            for at in (0, 1, n // 2, n - 1):
                host = numpy.arange(n, dtype=dtype)
                host[at] = NAN
                a = np.asarray(host)
                for got in (a.max(), a.min(), a.sum(), a.mean(), np.dot(a, a)):
                    self.assertTrue(numpy.isnan(got.item()), (dtype, at))
                self.assertTrue(numpy.isnan(numpy.asarray(np.dot(a.reshape(600, 500),
                                                                 np.ones(500, dtype)))[at // 500]))
            for size in (1, 3, n):
                a = np.full(size, NAN, dtype=dtype)
                self.assertTrue(numpy.isnan(a.max().item()), size)
                self.assertTrue(numpy.isnan(a.min().item()), size)
        small = np.asarray([1.0, NAN, 3.0])
        self.assertTrue(numpy.isnan(float(small.max())))
        self.assertTrue(numpy.isnan(float(small.min())))
        self.assertFalse(small.max() == small.max())  # NaN is not equal to itself
        with self.assertRaises(ValueError):
            int(small.max())
        infs = np.asarray([1.0, INF, -INF])
        self.assertEqual(infs.max().item(), INF)
        self.assertEqual(infs.min().item(), -INF)

    def test_min_and_max_are_nan_across_ranks(self):
        # One interpreter per rank: each rank holds a block, and the NaN is in
        # one rank's block, then the other's.
        with tempfile.TemporaryDirectory() as d:
            # Each rank writes a file of its own: mpirun forwards the ranks'
            # output in pieces, so lines on one stdout can interleave.
            prog = write(os.path.join(d, "ranks.py"),
                         "import os\n"
                         "import numpy\n"
                         "import legato.numpy as np\n"
                         "with open(f'rank_{os.getpid()}.txt', 'w') as out:\n"
                         "    for at in (0, 99_999):\n"
                         "        h = numpy.arange(100_000.0)\n"
                         "        h[at] = numpy.nan\n"
                         "        a = np.asarray(h)\n"
                         "        print('at', at, a.max().item(), a.min().item(), file=out)\n")
            r = subprocess.run([f"{BIN}/legate", "--ranks-per-node", "2", "--launcher", "mpirun",
                                "--cpus", "1", prog], cwd=d, capture_output=True, text=True,
                               timeout=HANG_TIMEOUT)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            lines = []
            for name in os.listdir(d):
                if name.startswith("rank_"):
                    with open(os.path.join(d, name)) as f:
                        lines += f.read().splitlines()
            lines.sort()
            self.assertEqual(lines, ["at 0 nan nan"] * 2 + ["at 99999 nan nan"] * 2, r.stderr)

    def test_comparisons_where_and_conversions_of_nan_match_numpy(self):
        hx = numpy.array([NAN, 1.0, INF, -INF, 0.0, NAN])
        hy = numpy.array([NAN, NAN, INF, 1.0, -0.0, 2.0])
        x, y = np.asarray(hx), np.asarray(hy)
        for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            numpy.testing.assert_array_equal(numpy.asarray(getattr(x, op)(y)),
                                             getattr(hx, op)(hy), op)
            numpy.testing.assert_array_equal(numpy.asarray(getattr(x, op)(NAN)),
                                             getattr(hx, op)(NAN), op)
        numpy.testing.assert_array_equal(numpy.asarray(np.where(x != x, y, x)),
                                         numpy.where(hx != hx, hy, hx))
        numpy.testing.assert_array_equal(numpy.asarray(x.astype(np.bool_)), hx.astype(bool))
        with numpy.errstate(invalid="ignore"):
            numpy.testing.assert_array_equal(numpy.asarray(x.astype(np.int64)),
                                             hx.astype(numpy.int64))
        (nz,) = np.nonzero(x)
        numpy.testing.assert_array_equal(numpy.asarray(nz), numpy.nonzero(hx)[0])
        # Integer and bool arrays against NaN compare as NumPy's, in float64.
        for host in (numpy.array([INT64_MIN, 0, 1]), numpy.array([True, False, True])):
            for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
                numpy.testing.assert_array_equal(numpy.asarray(getattr(np.asarray(host), op)(NAN)),
                                                 getattr(host, op)(NAN), f"{host} {op}")

    def test_allclose_and_isclose_treat_nan_and_infinities_as_numpy(self):
        nan1, nan2 = np.asarray([NAN]), np.asarray([NAN])
        self.assertFalse(np.allclose(nan1, nan2))
        self.assertTrue(np.allclose(nan1, nan2, equal_nan=True))
        self.assertFalse(np.allclose(np.asarray([1.0, NAN]), np.asarray([1.0, 1.0])))
        self.assertFalse(np.allclose(np.asarray([1.0, NAN]), np.asarray([1.0, 1.0]),
                                     equal_nan=True))
        self.assertTrue(np.allclose(np.asarray([INF]), np.asarray([INF])))
        self.assertFalse(np.allclose(np.asarray([INF]), np.asarray([-INF])))
        self.assertFalse(np.allclose(np.asarray([1e308]), np.asarray([INF])))
        self.assertFalse(np.allclose(NAN, NAN))
        self.assertTrue(np.allclose(NAN, NAN, equal_nan=True))
        self.assertTrue(np.allclose(np.asarray([1.0, 2.0]), 1.5, atol=0.5))
        self.assertTrue(np.allclose(np.arange(3), np.asarray([0.0, 1.0, 2.0])))
        hx = numpy.array([NAN, 1.0, INF, -INF, 0.0, 1e308, 1.0, NAN])
        hy = numpy.array([NAN, 1.0 + 1e-9, INF, INF, 1e-9, INF, NAN, 0.0])
        for equal_nan in (False, True):
            numpy.testing.assert_array_equal(
                numpy.asarray(np.isclose(np.asarray(hx), np.asarray(hy), equal_nan=equal_nan)),
                numpy.isclose(hx, hy, equal_nan=equal_nan), equal_nan)
            numpy.testing.assert_array_equal(
                numpy.asarray(np.isclose(np.asarray(hx), NAN, equal_nan=equal_nan)),
                numpy.isclose(hx, NAN, equal_nan=equal_nan), equal_nan)


# --- 3. shapes and integers ---

class Shapes(unittest.TestCase):
    def test_sizes_that_overflow_are_too_big(self):
        for make in (np.zeros, np.ones, np.empty, lambda s: np.full(s, 1.0),
                     lambda s: np.random.default_rng(1).random(s)):
            for shape in ((2**32, 2**32), (2**62, 4), 2**62, (INT64_MAX, 2)):
                with self.assertRaisesRegex(ValueError, "array is too big"):
                    make(shape)
        for shape in ((2**32, 2**32), (2**62, 4), (INT64_MAX, 2)):  # more than 2**63 - 1 bytes
            with self.assertRaisesRegex(ValueError, "array is too big"):
                np.zeros(shape, dtype=np.bool_)
        for make in (np.zeros, np.ones, np.empty, lambda s: np.full(s, 1.0),
                     lambda s: np.random.default_rng(1).random(s)):
            with self.assertRaisesRegex(ValueError, "maximum allowed dimension"):
                make(2**64)
        with self.assertRaisesRegex(ValueError, "array is too big"):
            np.eye(2**32)
        with self.assertRaisesRegex(ValueError, "array is too big"):
            np.diag(np.arange(2), 2**62)
        with self.assertRaisesRegex(ValueError, "array is too big"):
            np.diag(np.arange(2), -(2**70))
        self.assertEqual(np.diag(np.zeros((3, 3)), 2**70).shape, (0,))
        self.assertEqual(np.diag(np.zeros((3, 3)), -(2**70)).shape, (0,))

    def test_negative_dimensions_and_bad_shape_arguments(self):
        for make in (np.zeros, np.ones, np.empty, lambda s: np.full(s, 2),
                     lambda s: np.random.default_rng(1).random(s)):
            for shape in (-1, (-1,), (3, -1), (-1, 3), (-2, -3)):
                with self.assertRaisesRegex(ValueError, "negative dimensions"):
                    make(shape)
            for shape in ((2.5, 3), 2.0, "ab", (2, None)):
                with self.assertRaises(TypeError):
                    make(shape)
            with self.assertRaisesRegex(ValueError, "maximum supported dimension"):
                make((1,) * 33)
            with self.assertRaisesRegex(NotImplementedError, "3 dimensions"):
                make((2, 2, 2))
        with self.assertRaisesRegex(ValueError, "negative dimensions"):
            np.eye(-1)
        self.assertEqual(np.arange(-3).shape, (0,))  # as NumPy's
        self.assertEqual(np.zeros((3, 0)).shape, (3, 0))
        with self.assertRaises(ValueError):
            np.random.default_rng(-1)

    def test_reshape_accepts_one_minus_one_only(self):
        a = np.arange(12)
        for shape in ((-3, -4), (-1, -1), (-2, 6), (5, -1), (-1, 0), (0, -1), (2**32, 2**32),
                      (-12,), (13,), (2**64, 1)):
            with self.assertRaises(ValueError, msg=shape):
                a.reshape(*shape)
        with self.assertRaises(ValueError):
            np.zeros(0).reshape(0, -1)
        for shape in ((2.0, 6), (None, 6), 12.0):
            with self.assertRaises(TypeError, msg=shape):
                a.reshape(shape) if not isinstance(shape, tuple) else a.reshape(*shape)
        self.assertEqual(a.reshape(3, -1).shape, (3, 4))
        self.assertEqual(a.reshape((-1, 6)).shape, (2, 6))
        self.assertEqual(a.reshape([4, 3]).shape, (4, 3))
        self.assertEqual(a.reshape(3, 4).reshape(-1).shape, (12,))
        self.assertEqual(a.reshape(numpy.int64(12)).shape, (12,))

    def test_int64_values_stay_exact_end_to_end(self):
        values = [BIG, INT64_MAX, INT64_MIN, -BIG, 0, INT64_MAX - 2]
        a = np.asarray(values)
        self.assertEqual(a.dtype, numpy.int64)
        self.assertEqual(a.tolist(), values)
        self.assertEqual(numpy.asarray(a).tolist(), values)
        self.assertEqual(a[0], BIG)
        self.assertEqual(a[0:1].item(), BIG)
        self.assertEqual(int(a[5:6]), INT64_MAX - 2)
        self.assertEqual(a.max().item(), INT64_MAX)
        self.assertEqual(a.min().item(), INT64_MIN)
        self.assertEqual(repr(a.max()), repr(numpy.int64(INT64_MAX)))
        # Arithmetic with int scalars (and int64 overflow wrapping, as NumPy's).
        b = np.asarray([BIG, 1])
        self.assertEqual((b + 1).tolist(), [BIG + 1, 2])
        self.assertEqual((b * 2).tolist(), [2 * BIG, 2])
        self.assertEqual((BIG - b).tolist(), [0, BIG - 1])
        self.assertEqual((b + numpy.int64(BIG)).tolist(), [2 * BIG, BIG + 1])
        self.assertEqual((b == BIG).tolist(), [True, False])
        self.assertEqual((b == BIG - 1).tolist(), [False, False])
        self.assertEqual((np.asarray([INT64_MAX]) + 1).tolist(), [INT64_MIN])
        # Reductions and deferred scalars.
        odd = 2**40 + 1  # 300,000 of them sum past 2**53 to a number no double holds
        s = np.full(300_000, odd, dtype=np.int64).sum()  # several points
        self.assertEqual(s.dtype, numpy.int64)
        self.assertEqual(s.item(), 300_000 * odd)
        small = np.full(1000, BIG, dtype=np.int64).sum()
        self.assertEqual(small.item(), 1000 * BIG)
        self.assertEqual((small + 1).item(), 1000 * BIG + 1)
        self.assertEqual((small + 1).dtype, numpy.int64)
        self.assertEqual((small - small + BIG).item(), BIG)
        self.assertEqual((-small).item(), -1000 * BIG)
        self.assertEqual(int(small), 1000 * BIG)
        self.assertEqual(np.dot(np.full(1000, BIG, dtype=np.int64), np.ones(1000, np.int64)).item(),
                         1000 * BIG)
        self.assertEqual((np.ones(3, np.int64) * small).tolist(), [1000 * BIG] * 3)
        # Creation and assignment.
        self.assertEqual(np.full(3, BIG, dtype=np.int64).tolist(), [BIG] * 3)
        self.assertEqual(np.full((2, 2), BIG).dtype, numpy.int64)
        w = np.where(np.asarray([True, False]), BIG, 0)
        self.assertEqual(w.dtype, numpy.int64)
        self.assertEqual(w.tolist(), [BIG, 0])
        c = np.zeros(4, dtype=np.int64)
        c[0] = BIG
        c[1:3] = INT64_MIN
        c[c == 0] = BIG + 2
        self.assertEqual(c.tolist(), [BIG, INT64_MIN, INT64_MIN, BIG + 2])
        c[c > 0] += 2
        self.assertEqual(c.tolist(), [BIG + 2, INT64_MIN, INT64_MIN, BIG + 4])
        np.putmask(c, c < 0, INT64_MAX)
        self.assertEqual(c.tolist(), [BIG + 2, INT64_MAX, INT64_MAX, BIG + 4])
        g = np.zeros((3, 3), dtype=np.int64)
        g[:, 1] = BIG
        self.assertEqual(np.asarray(g)[:, 1].tolist(), [BIG] * 3)

    def test_int64_arrays_with_floats_and_out_of_range_integers_follow_numpy(self):
        ha = numpy.arange(5)
        a = np.arange(5)
        self.assertEqual((a + 0.5).dtype, numpy.float64)
        numpy.testing.assert_array_equal(numpy.asarray(a + 0.5), ha + 0.5)
        numpy.testing.assert_array_equal(numpy.asarray(2.5 - a), 2.5 - ha)
        numpy.testing.assert_array_equal(numpy.asarray(a < 2.5), ha < 2.5)
        numpy.testing.assert_array_equal(numpy.asarray(a == 2.5), ha == 2.5)
        numpy.testing.assert_array_equal(numpy.asarray(a * numpy.float64(0.5)), ha * 0.5)
        numpy.testing.assert_array_equal(numpy.asarray(a / 2), ha / 2)
        mask = np.asarray([True, False, True])
        numpy.testing.assert_array_equal(numpy.asarray(mask + 1), numpy.array([2, 1, 2]))
        numpy.testing.assert_array_equal(numpy.asarray(mask < 0.5), numpy.array([False, True,
                                                                                  False]))
        self.assertEqual((np.arange(3, dtype=np.float64) + 2**70).tolist(), [2.0**70] * 3)
        with self.assertRaises(OverflowError):
            a + 2**63
        with self.assertRaises(OverflowError):
            np.full(2, 2**64, dtype=np.int64)
        self.assertEqual((a < 2**70).tolist(), [True] * 5)
        self.assertEqual((a > -(2**70)).tolist(), [True] * 5)
        self.assertEqual((a == 2**64).tolist(), [False] * 5)
        b = np.arange(3)
        with self.assertRaises(ValueError):
            b[0] = NAN
        with self.assertRaises(OverflowError):
            b[0] = INF
        with self.assertRaises(OverflowError):
            b[0] = 2**63
        with self.assertRaises(ValueError):
            np.putmask(b, b > 0, NAN)
        with self.assertRaises(TypeError):
            b += 0.5
        with self.assertRaises(TypeError):
            b /= 2
        with self.assertRaises(TypeError):
            b[b > 0] /= 0
        with self.assertRaises(TypeError):
            b[b > 0] += 0.5
        b[1] = 2.7  # truncated, as NumPy's
        self.assertEqual(b.tolist(), [0, 2, 2])


# --- 4. file names that are not UTF-8 ---

def escaped(path_bytes):
    """The text Legato records for a path: bytes that are not UTF-8 as \\xNN."""
    out = []
    for byte in path_bytes:
        if byte == 0x5C:
            out.append("\\\\")
        elif byte < 0x80:
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    return "".join(out)


class FileNames(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = os.fsencode(self.tmp.name)
        # Latin-1 'é' and two bytes that start no UTF-8 sequence.
        self.bad = os.path.join(self.d, b"caf\xe9-\xff\xfe")
        os.mkdir(self.bad)

    def tearDown(self):
        self.tmp.cleanup()

    def run_in_bad_dir(self, text, config, env=None):
        prog = os.path.join(self.bad, b"prog.py")
        with open(prog, "w") as f:
            f.write(text)
        full_env = dict(os.environ, LEGATE_CONFIG=config)
        full_env.update(env or {})
        r = subprocess.run([sys.executable, prog], cwd=self.d, env=full_env,
                           capture_output=True, timeout=HANG_TIMEOUT)
        return r, escaped(prog)

    def provenance(self):
        r = subprocess.run([f"{BIN}/legate_prof", "dump", "--kind", "string", "legate_0.prof"],
                           cwd=self.d, capture_output=True, timeout=HANG_TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        return {json.loads(line).get("text", "") for line in r.stdout.decode().splitlines()}

    def test_operations_and_errors_name_the_file_and_line(self):
        r, where = self.run_in_bad_dir(
            "import legato.numpy as np\n"
            "a = np.zeros(10)\n"
            "b = a + 1.0\n"
            "print(b.sum().item())\n"
            "try:\n"
            "    a + np.zeros(11)\n"
            "except ValueError as e:\n"
            "    print(e)\n"
            "print(np.ones((4, 4))[1:3, 1:3].flatten().sum().item())\n",  # a copy
            "--cpus 1 --profile")
        out, err = r.stdout.decode(), r.stderr.decode()
        self.assertEqual(r.returncode, 0, out + err)
        self.assertIn("10.0", out)
        self.assertIn(f"add at {where}:6: operands could not be broadcast", out)
        texts = self.provenance()
        self.assertIn("4.0", out)
        for line in (2, 3, 4, 9):
            self.assertIn(f"{where}:{line}", texts)
        # the library never stands in for the user (flatten copies a view)
        self.assertFalse([t for t in texts if "/arrays/" in t], texts)
        self.assertFalse([t for t in texts if "<unknown>" in t], texts)

    def test_the_out_of_memory_report_names_the_file_and_line(self):
        r, where = self.run_in_bad_dir(
            "import legato.numpy as np\n"
            "a = np.ones(10_000_000)\n"
            "print(a.sum().item())\n", "--cpus 1 --sysmem 40")
        err = r.stderr.decode()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("LEGATE ERROR: Failed to allocate", err)
        self.assertIn(f"{where}:2", err)
        self.assertNotIn("<unknown>", err)

    def test_the_package_itself_may_live_in_such_a_directory(self):
        package = os.path.join(self.bad, b"site")
        subprocess.run(["cp", "-r", os.fsencode(os.environ["PYTHONPATH"]), package], check=True)
        r, where = self.run_in_bad_dir(
            "import legato.numpy as np\n"
            "a = np.arange(4)\n"
            "print(a.sum().item())\n"
            "try:\n"
            "    a.reshape(3, 3)\n"
            "except ValueError as e:\n"
            "    print(e)\n"
            "try:\n"
            "    np.where(a > 1, a, np.zeros(4))\n"
            "except ValueError as e:\n"
            "    print(e)\n", "--cpus 1", env={"PYTHONPATH": os.fsdecode(package)})
        out, err = r.stdout.decode(), r.stderr.decode()
        self.assertEqual(r.returncode, 0, out + err)
        self.assertIn("6", out)
        self.assertIn(f"where at {where}:9: ", out)  # the user's line, not the package's


if __name__ == "__main__":
    unittest.main()
