"""The seeds' Python programs run as users run them: `legate --profile
prog.py` and `LEGATE_CONFIG=... python3 prog.py`, one interpreter per rank
under mpirun; the same checksums as the C++ examples; traces whose findings
name the lines of the .py file; a trace finished after an uncaught exception
or Ctrl-C."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ["LEGATO_BIN_DIR"]
SRC = os.environ["LEGATO_SOURCE_DIR"]
EXAMPLES = os.path.join(SRC, "examples", "python")


def run(cmd, cwd, env=None, timeout=120):
    full_env = dict(os.environ, LEGATO_SEED="42")
    full_env.pop("LEGATE_CONFIG", None)
    full_env.update(env or {})
    return subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=timeout)


def line_of(path, text):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return f"{path}:{n}"
    raise AssertionError(f"no '{text}' in {path}")


def checksum(out):
    return out.split("checksum = ")[1].split()[0]


def write_program(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class Programs(unittest.TestCase):
    def assert_finished_trace_and_report(self, d):
        info = run([f"{BIN}/legate_prof", "info", "legate_0.prof"], d)
        self.assertEqual(info.returncode, 0, info.stdout + info.stderr)
        self.assertTrue(os.path.exists(os.path.join(d, "legate_prof", "index.html")))

    def test_example1_matches_the_cpp_example_and_its_trace_names_the_loop(self):
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(EXAMPLES, "example1_inefficient.py")
            r = run([f"{BIN}/legate", "--cpus", "2", "--profile", prog, "300000"], d)
            self.assertEqual(r.returncode, 0, r.stderr)
            cpp = run([f"{BIN}/chunked_update", "--n", "300000"], d)
            self.assertEqual(checksum(r.stdout), checksum(cpp.stdout))
            self.assertTrue(os.path.exists(os.path.join(d, "legate_prof", "index.html")))
            f = run([f"{BIN}/legate_prof", "findings", "--json", "legate_0.prof"], d)
            self.assertEqual(f.returncode, 0, f.stderr)
            found = {x["rule"]: x for x in json.loads(f.stdout)["findings"]}
            loop = {line_of(prog, "sub[gt1]  = sub[gt1]  + 2.0"),
                    line_of(prog, "sub[~gt1] = sub[~gt1] - 2.0")}
            # Lines are ranked by cost, which depends on how fast this machine ran
            # each item (the loop's many small copies against the one large
            # scatter before it); the loop holding most of the items is the
            # workload's shape.
            for rule in ("tiny_tasks", "index_copies", "dep_part_churn"):
                self.assertIn(rule, found)
                most = max(found[rule]["lines"], key=lambda line: line["items"])
                self.assertIn(most["where"], loop | {line_of(prog, "gt1 = sub > 1.0")}, rule)
            # The program blocks in the loop's masked reads; on a loaded machine
            # its one long wait for the first nonzero can cost as much as they
            # do, so the loop's lines are among the blocked lines, not always first.
            blocked = {line["where"] for line in found["blocked_top_level"]["lines"]}
            self.assertTrue(loop <= blocked, blocked)

    def test_example1_efficient_matches_and_runs_from_python_itself(self):
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(EXAMPLES, "example1_efficient.py")
            r = run([sys.executable, prog, "300000"], d,
                    {"LEGATE_CONFIG": "--cpus 2 --profile",
                     "PYTHONPATH": os.environ["PYTHONPATH"]})
            self.assertEqual(r.returncode, 0, r.stderr)
            cpp = run([f"{BIN}/vectorized_update", "--n", "300000"], d)
            self.assertEqual(checksum(r.stdout), checksum(cpp.stdout))
            self.assertTrue(os.path.exists(os.path.join(d, "legate_0.prof")))

    def test_an_uncaught_exception_still_finishes_the_trace(self):
        with tempfile.TemporaryDirectory() as d:
            prog = write_program(d, "bad.py",
                                 "import legato.numpy as np\n"
                                 "a = np.zeros(10)\n"
                                 "b = a + 1.0\n"
                                 "c = a + np.zeros(11)\n")
            r = run([f"{BIN}/legate", "--cpus", "1", "--profile", prog], d)
            self.assertEqual(r.returncode, 1)
            self.assertIn(f"ValueError: add at {prog}:4: operands could not be broadcast", r.stderr)
            self.assert_finished_trace_and_report(d)

    def test_ctrl_c_finishes_the_trace(self):
        with tempfile.TemporaryDirectory() as d:
            # Interrupted inside the loop, once it has run an iteration.
            prog = write_program(d, "loop.py",
                                 "import legato.numpy as np\n"
                                 "a = np.zeros(1000)\n"
                                 "while True:\n"
                                 "    a += 1.0\n"
                                 "    if a.sum().item() == 1000.0:\n"
                                 "        print('looping', flush=True)\n")
            env = dict(os.environ, LEGATE_CONFIG="--cpus 1 --profile")
            p = subprocess.Popen([sys.executable, prog], cwd=d, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            self.assertEqual(p.stdout.readline().strip(), "looping")
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("KeyboardInterrupt", err)
            self.assertIn("wrote ./legate_prof/index.html", err)
            self.assert_finished_trace_and_report(d)

    def test_the_oom_example_reports_the_seeds_numbers_and_lines_and_its_fixes_fit(self):
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(EXAMPLES, "oom.py")
            flags = ["--cpus", "1", "--gpus", "0", "--sysmem", "40", "--profile"]
            r = run([f"{BIN}/legate"] + flags + [prog], d, {"LEGATE_TEST": "1"})
            self.assertEqual(r.returncode, 1)
            at = lambda n: f"{prog}:{n}"  # noqa: E731
            err = r.stderr
            self.assertTrue(err.startswith("LEGATE ERROR: Failed to allocate 8388608 bytes on "
                                           "memory "), err)
            self.assertIn(f"of Task BinaryOpTask[{at(16)}]", err)
            self.assertIn("reserving 33554400 of the available 41943040 bytes", err)
            for store, made in ((13, [13]), (7, [13, 10]), (4, [10])):
                self.assertIn(f"LogicalStore allocated at {at(store)}:", err)
                for m in made:
                    self.assertIn(f"created for an operation launched at {at(m)}", err)
            f = run([f"{BIN}/legate_prof", "findings", "--json", "legate_0.prof"], d)
            oom = [x for x in json.loads(f.stdout)["findings"] if x["rule"] == "out_of_memory"]
            self.assertEqual(len(oom), 1)
            self.assertEqual(oom[0]["bytes"], 33554400)
            self.assertEqual({line["where"] for line in oom[0]["lines"]}, {at(13), at(7), at(4)})
            for fix in ("oom_fix_stencil_hint.py", "oom_fix_prefetch.py", "oom_fix_in_place.py"):
                fixed = run([f"{BIN}/legate"] + flags + [os.path.join(EXAMPLES, fix)], d)
                self.assertEqual(fixed.returncode, 0, fix + fixed.stderr)
                self.assertEqual(fixed.stdout.strip(), "sum = 6291454.0", fix)

    def test_cg_matches_the_cpp_example(self):
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(EXAMPLES, "cg.py")
            for args in (["-n", "10", "--operator", "dense"], ["-n", "12", "--operator", "stencil"],
                         ["-n", "8", "-k", "--pre"]):
                ours = run([f"{BIN}/legate", "--cpus", "2", prog, "--check"] + args, d)
                theirs = run([f"{BIN}/cg", "--check"] + args, d,
                             {"LEGATE_CONFIG": "--cpus 2"})
                self.assertEqual(ours.returncode, 0, ours.stderr)
                self.assertEqual(theirs.returncode, 0, theirs.stderr)
                self.assertIn("PASS!", ours.stdout)
                summary = [line.split(", ")[:2] for line in ours.stdout.splitlines()
                           if line.startswith("N = ")]
                expected = [line.split(", ")[:2] for line in theirs.stdout.splitlines()
                            if line.startswith("N = ")]
                self.assertEqual(summary, expected, args)  # iterations and residual norms

    def test_one_interpreter_per_rank_under_mpirun(self):
        with tempfile.TemporaryDirectory() as d:
            prog = os.path.join(EXAMPLES, "example1_efficient.py")
            r = run([f"{BIN}/legate", "--ranks-per-node", "2", "--launcher", "mpirun", "--cpus",
                     "1", "--profile", prog, "100000"], d, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(os.path.join(d, "legate_0.prof")))
            self.assertTrue(os.path.exists(os.path.join(d, "legate_1.prof")))
            cpp = run([f"{BIN}/vectorized_update", "--n", "100000"], d)
            self.assertEqual(checksum(r.stdout), checksum(cpp.stdout))


if __name__ == "__main__":
    unittest.main()
