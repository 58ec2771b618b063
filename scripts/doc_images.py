#!/usr/bin/env python3
"""Makes the pictures of README.md and docs/ (docs/images/*.png) from real runs.

Runs the seed workloads with --profile (Example 1 inefficient, the
out-of-memory seed, conjugate gradient on 4 ranks), opens their traces and a
real Legion Prof log from the tests in the desktop viewer under Xvfb, and
their reports in headless Chromium. The annotated timeline is the viewer's
screenshot with numbered marks placed from the viewer's own dump of where
each row is, drawn by Chromium over the picture; docs/timeline.md explains
the numbers.

Usage: scripts/doc_images.py [--build DIR] [--only NAME,...]
Needs a build (scripts/build.sh), xvfb-run and chromium (install-deps.sh
installs both). Run it after a change to the viewer or the report, look at
the pictures, and commit them.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "docs", "images")
SIZE = (1600, 1000)

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]


def fail(message):
    sys.exit("doc_images.py: " + message)


def run(command, env=None, cwd=ROOT):
    result = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        fail("failed (exit %d): %s\n%s" % (result.returncode, " ".join(command), result.stdout))
    return result.stdout


class Maker:
    def __init__(self, build, work):
        self.bin = os.path.join(build, "bin")
        self.work = work
        for tool in ("legate", "legate_prof", "chunked_update", "oom", "cg"):
            if not os.access(os.path.join(self.bin, tool), os.X_OK):
                fail("no %s in %s: build first (scripts/build.sh)" % (tool, self.bin))
        self.chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not self.chromium or not shutil.which("xvfb-run"):
            fail("needs chromium and xvfb-run (scripts/install-deps.sh installs them)")

    def tool(self, name):
        # Relative to the repository root: the viewer's header shows the
        # program as the run named it, and a picture should not show our paths.
        return os.path.relpath(os.path.join(self.bin, name), ROOT)

    def profile(self, name, command, env_config=None):
        """Runs command with --profile into work/name; returns the log directory."""
        logdir = os.path.join(self.work, name)
        env = dict(os.environ)
        env.pop("LEGATE_CONFIG", None)
        if env_config:
            env["LEGATE_CONFIG"] = (env_config + " --profile --logdir " +
                                    os.path.relpath(logdir, ROOT))
            subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)  # the OOM seed fails on purpose
        else:
            run([self.tool("legate"), "--profile", "--logdir", os.path.relpath(logdir, ROOT)] +
                command, env=env)
        if not os.path.exists(os.path.join(logdir, "legate_prof", "index.html")):
            fail("the run of %s wrote no report in %s" % (" ".join(command), logdir))
        return logdir

    def view(self, traces, out, steps=(), dump=None):
        """The viewer's picture after the script steps (none: the first view)."""
        script = os.path.join(self.work, os.path.basename(out) + ".script")
        with open(script, "w") as f:
            for step in steps:
                f.write(step + "\n")
            if dump:
                f.write("dump %s\n" % dump)
            f.write("screenshot %s\n" % out)
        run(["xvfb-run", "-a", os.path.join(self.bin, "legate_prof"), "view"] + traces +
            ["--size", "%dx%d" % SIZE, "--script", script])

    def browser(self, url, out, wait_ms=8000):
        profile = tempfile.mkdtemp(dir=self.work)
        run([self.chromium] + CHROMIUM_FLAGS +
            ["--user-data-dir=" + profile, "--window-size=%d,%d" % SIZE,
             "--virtual-time-budget=%d" % wait_ms, "--screenshot=" + out, url])

    def marked(self, picture, marks, out):
        """picture with numbered marks [(number, x, y)] drawn over it."""
        page = os.path.join(self.work, os.path.basename(out) + ".html")
        dots = "".join(
            '<div class="m" style="left:%dpx;top:%dpx">%d</div>' % (x - 12, y - 12, n)
            for n, x, y in marks)
        with open(page, "w") as f:
            f.write(
                "<!doctype html><style>body{margin:0}"
                ".m{position:absolute;width:24px;height:24px;border-radius:12px;"
                "background:#c62828;color:#fff;font:bold 14px/24px sans-serif;"
                "text-align:center;box-shadow:0 0 0 2px #fff}</style>"
                '<img src="file://%s">%s' % (picture, dots))
        self.browser("file://" + page, out, wait_ms=1000)


def row(dump, text):
    for r in dump["rows"]:
        if r["text"] == text:
            return r
    fail("the viewer's dump has no row %r (the rows: %s)" %
         (text, ", ".join(r["text"] for r in dump["rows"])))


def example1(m, only):
    logdir = m.profile("example1", ["--cpus", "4", m.tool("chunked_update")])
    trace = [os.path.join(logdir, "legate_0.prof")]
    if "viewer-first-view" in only:
        m.view(trace, os.path.join(IMAGES, "viewer-first-view.png"))
    if "report-first-screen" in only:
        m.browser("file://" + os.path.join(logdir, "legate_prof", "index.html"),
                  os.path.join(IMAGES, "report-first-screen.png"))
    if "findings-window" in only:
        m.view(trace, os.path.join(IMAGES, "findings-window.png"), ["finding 1"])
    if "timeline-annotated" in only:
        # About 3 ms around the program's fourth nonzero, where tasks, a
        # wait of the program, the partitioning and the avg lines all show
        # whatever the run's speed (the selection cleared, the mouse away).
        plain = os.path.join(m.work, "timeline.png")
        dump = os.path.join(m.work, "timeline.json")
        m.view(trace, plain, ["select NonzeroTask 3", "zoom 40", "key escape", "hover 5 995"],
               dump=dump)
        with open(dump) as f:
            d = json.load(f)
        left = int(d["lanes_area"][0])
        bottom = int(d["lanes_area"][1] + d["lanes_area"][3])

        def at(text, x=left - 16):
            r = row(d, text)
            return (x, int(r["top"] + r["height"] / 2))

        marks = [
            (1, SIZE[0] - 20, 27),  # the header: program, run, ranks, records, span, view
            (2, left - 16, 52),  # the time ruler
            (3,) + at("Node 0 (vm)"),
            (4,) + at("CPU avg (4)"),
            (5,) + at("c1"),
            (6,) + at("u1"),
            (7,) + at("io0"),
            (8,) + at("dp0"),
            (9,) + at("System Memory avg (1)"),
            (10,) + at("sysmem to sysmem"),
            (11, SIZE[0] - 100, bottom + 28),  # the findings
        ]
        m.marked(plain, marks, os.path.join(IMAGES, "timeline-annotated.png"))


def oom(m, only):
    if "oom-timeline" not in only:
        return
    logdir = m.profile("oom", [m.tool("oom")], env_config="--cpus 1 --sysmem 40")
    m.view([os.path.join(logdir, "legate_0.prof")], os.path.join(IMAGES, "oom-timeline.png"),
           ["expand all"])


def ranks(m, only):
    if "ranks-cg" not in only:
        return
    logdir = m.profile("cg", ["--ranks-per-node", "4", "--launcher", "mpirun", "--cpus", "1",
                              m.tool("cg"), "-n", "100"])
    traces = [os.path.join(logdir, "legate_%d.prof" % r) for r in range(4)]
    m.view(traces, os.path.join(IMAGES, "ranks-cg.png"))


def legion(m, only):
    if "legion-log" not in only:
        return
    log = os.path.join(ROOT, "tests", "legion_import", "data", "legatejl_85d792a6_legate_0.prof")
    # The run's last 0.4 s, where its tasks ran (it spent the rest starting).
    m.view([log], os.path.join(IMAGES, "legion-log.png"), ["range 2.33s 2.74s"])


PICTURES = ["viewer-first-view", "report-first-screen", "findings-window", "timeline-annotated",
            "oom-timeline", "ranks-cg", "legion-log"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--only", default=",".join(PICTURES),
                        help="pictures to make, of: " + ", ".join(PICTURES))
    args = parser.parse_args()
    only = set(args.only.split(","))
    unknown = only - set(PICTURES)
    if unknown:
        fail("no picture named %s; the pictures: %s" % (", ".join(sorted(unknown)),
                                                         ", ".join(PICTURES)))
    os.makedirs(IMAGES, exist_ok=True)
    # The runs' directory shows in the pictures (the report's header names
    # the log directory): one under the build, named for what it is.
    build = os.path.abspath(args.build)
    work = os.path.join(build, "doc-images")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        m = Maker(build, work)
        for make in (example1, oom, ranks, legion):
            make(m, only)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name in PICTURES:
        if name in only:
            print("wrote", os.path.relpath(os.path.join(IMAGES, name + ".png"), ROOT))


if __name__ == "__main__":
    main()
