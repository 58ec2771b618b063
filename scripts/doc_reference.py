#!/usr/bin/env python3
"""Keeps the documentation true to the programs it describes.

The reference tables in README.md and docs/*.md that the code already knows
(the findings rules and their parameters, the legate and LEGATE_CONFIG flags,
every legate_prof subcommand's --help) sit between markers

    <!-- BEGIN generated: NAME -->
    <!-- END generated: NAME -->

and are rendered here from the built programs' own output. --write renders
them into the files; --check (ctest `docs`) fails when one differs from what
the programs say now, when a generated table is missing from every page,
when a page links to a file that does not exist, or when a picture in
docs/images/ is referenced by no page.

Usage: scripts/doc_reference.py --check|--write [--bin BUILD/bin] [--root TREE]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUBCOMMANDS = ["info", "dump", "stats", "findings", "archive", "view"]
BLOCK = re.compile(r"(<!-- BEGIN generated: ([\w.-]+) -->\n)(.*?)(<!-- END generated: \2 -->)",
                   re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def pages():
    return [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "*.md")))


def output(command):
    env = dict(os.environ, COLUMNS="100")
    env.pop("LEGATE_CONFIG", None)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env)
    if result.returncode != 0:
        sys.exit("doc_reference.py: %s failed (exit %d):\n%s" %
                 (" ".join(command), result.returncode, result.stdout))
    return result.stdout


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def rules_table(bin_dir):
    rules = json.loads(output([os.path.join(bin_dir, "legate_prof"), "findings", "--list-rules",
                               "--json"]))["rules"]
    lines = ["| rule | what it looks for | parameter | default | meaning |",
             "|---|---|---|---|---|"]
    for r in rules:
        params = r["params"] or [None]
        for k, p in enumerate(params):
            head = ("`%s`: %s" % (r["rule"], cell(r["title"])), cell(r["looks_for"])) if k == 0 \
                else ("", "")
            if p is None:
                lines.append("| %s | %s | | | |" % head)
                continue
            v = p["default"]
            value = "{:,}".format(int(v)) if float(v).is_integer() else "%g" % v
            bare = p["unit"] in ("count", "share", "ratio")  # the meaning says which
            default = value if bare else "%s %s" % (value, p["unit"])
            lines.append("| %s | %s | `%s` | %s | %s |" %
                         (head + (p["threshold"], default, cell(p["meaning"]))))
    return "\n".join(lines) + "\n"


def flag_entries(help_text, first_line):
    """The (flag, description) pairs of one section of legate --help."""
    lines = help_text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith(first_line)) + 1
    except StopIteration:
        sys.exit("doc_reference.py: legate --help has no line starting %r" % first_line)
    entries = []
    for line in lines[start:]:
        if line.startswith("  --"):
            flag, _, text = line.strip().partition("  ")
            entries.append([flag.strip(), text.strip()])
        elif line.startswith("    ") and entries:
            entries[-1][1] += " " + line.strip()
        elif entries and not line.strip():
            break
    if not entries:
        sys.exit("doc_reference.py: no flags found after %r in legate --help" % first_line)
    return entries


def flags_table(bin_dir, section):
    help_text = output([os.path.join(bin_dir, "legate"), "--help"])
    # The driver's flags follow their heading; the runtime's follow the
    # paragraph on the forms they take (their --help is the driver's).
    first = {"driver": "Driver flags:", "runtime": "Forms:"}[section]
    entries = [e for e in flag_entries(help_text, first)
               if section == "driver" or e[0] != "--help"]
    lines = ["| flag | what it sets | default |", "|---|---|---|"]
    for flag, text in entries:
        default = ""
        m = re.search(r"\s*\[default: (.*)\]$", text)
        if m:
            default, text = m.group(1), text[:m.start()]
        lines.append("| `%s` | %s | %s |" % (flag, cell(text), cell(default)))
    return "\n".join(lines) + "\n"


def help_block(bin_dir, sub):
    command = [os.path.join(bin_dir, "legate_prof")] + ([sub] if sub else []) + ["--help"]
    return "```text\n" + output(command).rstrip() + "\n```\n"


def generators(bin_dir):
    g = {
        "findings-rules": lambda: rules_table(bin_dir),
        "legate-driver-flags": lambda: flags_table(bin_dir, "driver"),
        "legate-runtime-flags": lambda: flags_table(bin_dir, "runtime"),
        "legate_prof-help": lambda: help_block(bin_dir, None),
    }
    for sub in SUBCOMMANDS:
        g["legate_prof-%s-help" % sub] = (lambda s: lambda: help_block(bin_dir, s))(sub)
    return g


def render(path, gens, problems, seen):
    with open(path) as f:
        text = f.read()

    def fill(m):
        name = m.group(2)
        seen.add(name)
        if name not in gens:
            problems.append("%s: no generator named %r (known: %s)" %
                            (rel(path), name, ", ".join(sorted(gens))))
            return m.group(0)
        return m.group(1) + gens[name]() + m.group(4)

    return text, BLOCK.sub(fill, text)


def rel(path):
    return os.path.relpath(path, ROOT)


def check_links(problems):
    referenced = set()
    for path in pages():
        with open(path) as f:
            text = f.read()
        # Links inside code blocks are examples, not links.
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
            referenced.add(file)
            if not os.path.exists(file):
                problems.append("%s: links to %s, which does not exist" % (rel(path), target))
    for image in sorted(glob.glob(os.path.join(ROOT, "docs", "images", "*"))):
        if os.path.normpath(image) not in referenced:
            problems.append("%s is referenced by no page (README.md, docs/*.md); remove it or "
                            "show it" % rel(image))


def main():
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--root", default=ROOT, help="the tree whose pages are read (its tests' "
                        "copies)")
    args = parser.parse_args()
    ROOT = os.path.abspath(args.root)
    gens = generators(os.path.abspath(args.bin))
    problems, seen = [], set()
    for path in pages():
        old, new = render(path, gens, problems, seen)
        if old == new:
            continue
        if args.write:
            with open(path, "w") as f:
                f.write(new)
            print("rewrote the generated tables of", rel(path))
        else:
            problems.append("%s: a generated table differs from what the programs say now; run "
                            "scripts/doc_reference.py --write and review the diff" % rel(path))
    for name in sorted(set(gens) - seen):
        problems.append("no page holds the generated table %r" % name)
    check_links(problems)
    for p in problems:
        print("doc_reference.py: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
