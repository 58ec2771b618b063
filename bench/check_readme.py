#!/usr/bin/env python3
"""Checks bench/README.md against the metrics the bench programs print.

    python3 bench/check_readme.py [REPO_ROOT]

Finds every `RESULT <metric>` a program under bench/ prints, reading the C++
sources: printf calls whose format starts with "RESULT <name> ", and calls of
the result() helper of bench/result.hpp, whose first argument may join string
literals and variables with `+`. A variable is resolved from its function:
a range-for over a braced list (structured bindings over std::tuple{...}
included), a local `std::string x = ...;`, or a parameter whose call sites
pass literals; the few values the sources compute otherwise are listed in
COMPUTED below, each with the source text it stands for. A RESULT print
this script cannot follow is an error naming its file and line.

Then checks that README.md is under MAX_LINES lines, that no table in it has
more than MAX_COLUMNS columns, that every metric a bench_X program prints
appears as `name` in a table row under README.md's `## bench_X` heading, and
that every metric-like `name` in a row's first cell is one a program prints.
Prints each problem; exit status 1 if there is any. Standard library only.
"""
import itertools
import pathlib
import re
import sys

MAX_LINES = 300  # README.md must have fewer lines than this
MAX_COLUMNS = 6

# Values the sources compute in ways this script does not evaluate:
# (file, function, term) -> (values, [(file, source text that must still be there)]).
# Whitespace in the source text is matched loosely. When the text changes,
# the check fails and names the entry to update.
COMPUTED = {
    ("bench_trace_format.cpp", "run", "suffix"): (
        ["", "_chunked"],
        [
            ("bench_trace_format.cpp",
             'const std::string suffix = headline ? "" : std::string("_") + shape.name;'),
            ("bench_trace_format.cpp", "run(bench::kMixedShape, ops, true);"),
            ("bench_trace_format.cpp", "run(bench::kChunkedShape, ops, false);"),
            ("task_stream.hpp", 'inline constexpr StreamShape kChunkedShape{"chunked",'),
        ],
    ),
    # The report curve's sizes: 1 and 10 M records by default, 100 M with
    # --report-records (the figures in README.md).
    ("bench_analysis.cpp", "report_point", "label"): (
        ["1m_records", "10m_records", "100m_records"],
        [
            ("bench_analysis.cpp",
             "const std::string label = records >= 1'000'000 && records % 1'000'000 == 0 "
             "? std::to_string(records / 1'000'000) + \"m_records\" "
             ": std::to_string(records) + \"_records\";"),
            ("bench_analysis.cpp", "std::vector<uint64_t> curve = {1'000'000, 10'000'000};"),
        ],
    ),
    ("bench_legion_import.cpp", "formats",
     "std::to_string(legion::testing::format_of(kVersions[v]))"): (
        ["1008", "1011", "1012"],
        [
            ("bench_legion_import.cpp",
             "constexpr LogVersion kVersions[] = {LogVersion::V1008, LogVersion::V1011, "
             "LogVersion::V1012};"),
        ],
    ),
    ("bench_ranks.cpp", "cg_traffic", "f.name"): (
        ["dense", "stencil"],
        [
            ("bench_ranks.cpp", '{"dense", kDenseN,'),
            ("bench_ranks.cpp", '{"stencil", kStencilN,'),
            ("bench_ranks.cpp", "for (const Form& f : forms)"),
        ],
    ),
}

SOURCE_SUFFIXES = {".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h"}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A metric-like name in a README table's first cell.
METRIC_TOKEN = re.compile(r"`([a-z][a-z0-9_]*)`")
RAW_STRING = re.compile(r'R"([^()\\ ]{0,16})\(')


class Unresolved(Exception):
    pass


class Source:
    """A C++ file with comments blanked (`text`) and, in `code`, the insides
    of string and character literals blanked too; both keep every offset."""

    def __init__(self, path):
        self.path = path
        self.name = path.name
        raw = path.read_text(encoding="utf-8", errors="replace")
        text, code = list(raw), list(raw)
        self.literals = []  # (start, end, value): start at the opening quote
        i, n = 0, len(raw)

        def blank(buf, a, b):
            for k in range(a, b):
                if buf[k] != "\n":
                    buf[k] = " "

        while i < n:
            c = raw[i]
            if raw.startswith("//", i):
                j = raw.find("\n", i)
                j = n if j < 0 else j
                blank(text, i, j)
                blank(code, i, j)
                i = j
            elif raw.startswith("/*", i):
                j = raw.find("*/", i + 2)
                j = n if j < 0 else j + 2
                blank(text, i, j)
                blank(code, i, j)
                i = j
            elif (c == "R" and (i == 0 or not (raw[i - 1].isalnum() or raw[i - 1] == "_"))
                  and RAW_STRING.match(raw, i)):
                m = RAW_STRING.match(raw, i)
                close = ")" + m.group(1) + '"'
                j = raw.find(close, m.end())
                j = n if j < 0 else j + len(close)
                self.literals.append((i + 1, j, raw[m.end():j - len(close)]))
                blank(code, i + 2, j - 1)
                i = j
            elif c == '"':
                j, value = i + 1, []
                while j < n and raw[j] != '"':
                    if raw[j] == "\\" and j + 1 < n:
                        esc = raw[j + 1]
                        value.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"',
                                      "'": "'", "0": "\0"}.get(esc, "\\" + esc))
                        j += 2
                    else:
                        value.append(raw[j])
                        j += 1
                self.literals.append((i, j + 1, "".join(value)))
                blank(code, i + 1, j)
                i = j + 1
            elif c == "'":
                # A digit separator (1'000'000) or a character literal.
                if i > 0 and raw[i - 1].isalnum() and i + 1 < n and raw[i + 1].isalnum():
                    i += 1
                    continue
                j = i + 1
                while j < n and raw[j] != "'":
                    j += 2 if raw[j] == "\\" else 1
                blank(code, i + 1, j)
                i = j + 1
            else:
                i += 1
        self.text = "".join(text)
        self.code = "".join(code)
        self.functions = self._functions()

    def line_of(self, pos):
        return self.text.count("\n", 0, pos) + 1

    def where(self, pos):
        return f"bench/{self.name}:{self.line_of(pos)}"

    def literal_at(self, pos):
        for start, end, value in self.literals:
            if start == pos:
                return end, value
        return None

    def _functions(self):
        """(start, end, name, parameter text) of each function defined at
        column 0, the style of these sources."""
        found = []
        head = re.compile(r"^(?!(?:using|namespace|template|return|if|for|while|switch|"
                          r"struct|class|enum|typedef|static_assert)\b)"
                          r"[A-Za-z_][^=;(){}]*?\b([A-Za-z_]\w*)\s*\(", re.M)
        for m in head.finditer(self.code):
            close = match_paren(self.code, m.end() - 1)
            rest = self.code[close + 1:close + 200]
            brace = re.match(r"\s*(?:const\s*)?(?:noexcept\s*)?\{", rest)
            if brace is None:
                continue
            found.append([m.start(), None, m.group(1), self.code[m.end():close]])
        for k, f in enumerate(found):
            f[1] = found[k + 1][0] if k + 1 < len(found) else len(self.code)
        return [tuple(f) for f in found]

    def function_at(self, pos):
        for f in self.functions:
            if f[0] <= pos < f[1]:
                return f
        return None


def match_paren(s, open_pos):
    """Index of the bracket closing the one at open_pos (in blanked code)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for k in range(open_pos, len(s)):
        ch = s[k]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}":
            if not stack or stack.pop() != ch:
                raise ValueError("unbalanced brackets")
            if not stack:
                return k
    raise ValueError("unbalanced brackets")


def split_top(s, code, sep):
    """Splits s at top-level occurrences of sep; code is s with literal
    insides blanked (same offsets)."""
    parts, depth, last = [], 0, 0
    for k, ch in enumerate(code):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append((last, k))
            last = k + 1
    parts.append((last, len(code)))
    return parts


def loose(text):
    """A regex matching text with any whitespace between its tokens."""
    out = []
    for tok in re.findall(r"\w+|\S", text):
        out.append(re.escape(tok))
    return r"\s*".join(out)


class Resolver:
    def __init__(self, sources):
        self.sources = sources  # name -> Source
        self.depth = 0

    def values(self, src, start, end, func):
        """Every value of the expression src.text[start:end] (joined by +)."""
        self.depth += 1
        try:
            if self.depth > 12:
                raise Unresolved("its name nests too deeply")
            results = [""]
            for a, b in split_top(src.text[start:end], src.code[start:end], "+"):
                term_values = self.term(src, start + a, start + b, func)
                results = [x + y for x, y in itertools.product(results, term_values)]
            return results
        finally:
            self.depth -= 1

    def term(self, src, start, end, func):
        text = src.text[start:end]
        code = src.code[start:end]
        lead = len(text) - len(text.lstrip())
        start, end = start + lead, start + len(text.rstrip())
        text, code = src.text[start:end], src.code[start:end]
        if not text:
            raise Unresolved("an empty term in its name")
        key = (src.name, func[2] if func else None, " ".join(text.split()))
        if key in COMPUTED:
            values, witnesses = COMPUTED[key]
            for file, needle in witnesses:
                other = self.sources.get(file)
                if other is None or not re.search(loose(needle), other.text):
                    raise Unresolved(
                        f"check_readme.py's COMPUTED entry for `{key[2]}` in {key[1]}() "
                        f"expects `{needle}` in bench/{file}, which is no longer there: "
                        f"update the entry")
            return list(values)
        # Adjacent string literals.
        if text.startswith('"') or text.startswith('R"'):
            pos, value = start, ""
            while pos < end:
                if src.text[pos] == "R":
                    pos += 1
                lit = src.literal_at(pos)
                if lit is None:
                    raise Unresolved(f"cannot follow `{text}` in its name")
                pos, part = lit
                value += part
                while pos < end and src.text[pos].isspace():
                    pos += 1
            return [value]
        if re.fullmatch(r"\d[\d']*", text):
            return [text.replace("'", "")]
        # std::string(x) and std::to_string(x): the values of x.
        m = re.match(r"(?:std::)?(?:string|to_string)\s*\(", code)
        if m and match_paren(code, m.end() - 1) == len(code) - 1:
            return self.values(src, start + m.end(), end - 1, func)
        if re.fullmatch(r"[A-Za-z_]\w*", text):
            return self.variable(src, text, func)
        raise Unresolved(f"cannot follow `{' '.join(text.split())}` in its name")

    def variable(self, src, name, func):
        if func is None:
            raise Unresolved(f"cannot follow `{name}` outside a function")
        fstart, fend, fname, params = func
        body_code = src.code[fstart:fend]
        # A range-for binding the name.
        for m in re.finditer(r"\bfor\s*\(", body_code):
            open_pos = fstart + m.end() - 1
            close = match_paren(src.code, open_pos)
            header = src.code[open_pos + 1:close]
            colon = re.search(r"(?<!:):(?!:)", header)
            if colon is None:
                continue
            binding = header[:colon.start()]
            rng_start = open_pos + 1 + colon.end()
            names = None
            sb = re.search(r"\[([^\]]*)\]\s*$", binding)
            if sb:
                names = [x.strip() for x in sb.group(1).split(",")]
                if name not in names:
                    continue
            elif not re.search(r"\b" + re.escape(name) + r"\s*$", binding):
                continue
            rng = src.code[rng_start:close]
            lead = len(rng) - len(rng.lstrip())
            if not rng.strip().startswith("{"):
                raise Unresolved(f"`{name}` ranges over `{rng.strip()}`, not a braced list")
            lb = rng_start + lead
            rb = match_paren(src.code, lb)
            out = []
            for a, b in split_top(src.text[lb + 1:rb], src.code[lb + 1:rb], ","):
                a, b = lb + 1 + a, lb + 1 + b
                if names is not None:
                    item = src.code[a:b].strip()
                    brace = src.code.find("{", a, b)
                    if brace < 0:
                        raise Unresolved(f"cannot follow `{item}` in the list `{name}` ranges over")
                    inner_end = match_paren(src.code, brace)
                    fields = split_top(src.text[brace + 1:inner_end],
                                       src.code[brace + 1:inner_end], ",")
                    fa, fb = fields[names.index(name)]
                    out += self.values(src, brace + 1 + fa, brace + 1 + fb, func)
                else:
                    out += self.values(src, a, b, func)
            return out
        # A local string defined from other terms.
        for m in re.finditer(r"\b(?:const\s+)?(?:std::string|auto)\s+" + re.escape(name) +
                             r"\s*=", body_code):
            rhs = fstart + m.end()
            semi = rhs
            while src.code[semi] != ";":
                if src.code[semi] in "([{":
                    semi = match_paren(src.code, semi)
                semi += 1
            if "?" in src.code[rhs:semi]:
                raise Unresolved(f"`{name}` is chosen by a condition: list its values in COMPUTED")
            return self.values(src, rhs, semi, func)
        # A parameter: the literals its call sites pass.
        for index, (a, b) in enumerate(split_top(params, params, ",")):
            if re.search(r"\b" + re.escape(name) + r"\s*$", params[a:b]):
                return self.call_site_values(src, fname, index)
        raise Unresolved(f"cannot follow `{name}` in {fname}()")

    def call_site_values(self, src, fname, index):
        out, calls = [], 0
        definition = self.find_definition(src, fname)
        for m in re.finditer(r"(?<![\w.>:])" + re.escape(fname) + r"\s*\(", src.code):
            if definition is not None and m.start() == definition:
                continue
            caller = src.function_at(m.start())
            open_pos = m.end() - 1
            close = match_paren(src.code, open_pos)
            args = split_top(src.text[open_pos + 1:close], src.code[open_pos + 1:close], ",")
            if index >= len(args):
                raise Unresolved(f"the call of {fname}() at {src.where(m.start())} lacks "
                                 f"argument {index + 1}")
            a, b = args[index]
            out += self.values(src, open_pos + 1 + a, open_pos + 1 + b, caller)
            calls += 1
        if calls == 0:
            raise Unresolved(f"no call of {fname}() passes its argument {index + 1}")
        return out

    @staticmethod
    def find_definition(src, fname):
        for f in src.functions:
            if f[2] == fname:
                m = re.search(r"\b" + re.escape(fname) + r"\s*\(", src.code[f[0]:])
                return f[0] + m.start() if m else None
        return None


def printed_metrics(root, problems):
    """{(program, metric): first place it is printed}; program is the
    bench_* source's name without its suffix (its README section), or None
    for a shared source."""
    bench = root / "bench"
    sources = {}
    for path in sorted(bench.rglob("*")):
        if path.is_file() and path.suffix in SOURCE_SUFFIXES:
            sources[path.name] = Source(path)
        elif path.is_file() and path.suffix == ".py" and path.name != "check_readme.py":
            for k, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if "RESULT" in line.split("#")[0]:
                    problems.append(f"bench/{path.relative_to(bench)}:{k}: a RESULT print "
                                    "this script cannot parse (it reads only C++ sources)")
    resolver = Resolver(sources)
    metrics = {}

    def add(src, name, where):
        program = src.path.stem if src.path.stem.startswith("bench_") else None
        if not NAME.match(name):
            problems.append(f"{where}: `{name}` is not a metric name")
        else:
            metrics.setdefault((program, name), where)

    for src in sources.values():
        # 1. String literals that mention RESULT: printf("RESULT name ...").
        for start, end, value in src.literals:
            if "RESULT" not in value:
                continue
            where = src.where(start)
            before = src.code[max(0, start - 80):start]
            call = re.search(r"(?:std::)?f?printf\s*\(\s*(?:stdout\s*,\s*)?$", before)
            m = re.match(r"RESULT ([A-Za-z_][A-Za-z0-9_]*) ", value)
            func = src.function_at(start)
            if (src.name == "result.hpp" and func and func[2] == "result" and call
                    and value.startswith("RESULT %s ")):
                continue  # the helper's own printf: its callers are read below
            if call is None or m is None:
                problems.append(f"{where}: a RESULT print this script cannot parse: "
                                f"{' '.join(src.text[start:end].split())}")
                continue
            add(src, m.group(1), where)
        # 2. Calls of the result() helper.
        for m in re.finditer(r"(?<![\w.>])((?:(?:legato::)?bench::)?)result\s*\(", src.code):
            qual_start = m.start()
            if re.search(r"::\s*$", src.code[max(0, qual_start - 2):qual_start]):
                continue  # some other namespace's result()
            if re.search(r"\bvoid\s+$", src.code[max(0, qual_start - 20):qual_start]):
                continue  # the definition in result.hpp
            where = src.where(m.start())
            open_pos = m.end() - 1
            try:
                close = match_paren(src.code, open_pos)
                first = split_top(src.text[open_pos + 1:close],
                                  src.code[open_pos + 1:close], ",")[0]
                names = resolver.values(src, open_pos + 1 + first[0], open_pos + 1 + first[1],
                                        src.function_at(m.start()))
            except (Unresolved, ValueError) as e:
                problems.append(f"{where}: a RESULT print this script cannot parse: {e}")
                continue
            for name in names:
                add(src, name, where)
    return metrics


def split_row(line):
    """The cells of a Markdown table row (a `\\|` is not a separator)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return re.split(r"(?<!\\)\|", body)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent).resolve()
    readme = root / "bench" / "README.md"
    problems = []
    metrics = printed_metrics(root, problems)
    complete = not problems  # every RESULT print was followed
    if not metrics:
        problems.append("no RESULT metric found in bench/: wrong REPO_ROOT?")
    lines = readme.read_text(encoding="utf-8").splitlines()
    if len(lines) >= MAX_LINES:
        problems.append(f"bench/README.md has {len(lines)} lines; keep it under {MAX_LINES} "
                        "(history goes to bench/HISTORY.md)")
    # Backticked names in table rows, per `## ` section (its heading's first word).
    in_tables = {}  # section -> set of names
    printed = {name for _, name in metrics}
    section = None
    for k, line in enumerate(lines, 1):
        heading = re.match(r"##\s+`?([\w.-]+)", line)
        if heading:
            section = heading.group(1)
            continue
        if not line.lstrip().startswith("|"):
            continue
        cells = split_row(line)
        if len(cells) > MAX_COLUMNS:
            problems.append(f"bench/README.md:{k}: a table row of {len(cells)} columns "
                            f"(at most {MAX_COLUMNS})")
        if re.fullmatch(r"\s*\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", line):
            continue  # the header's separator
        in_tables.setdefault(section, set()).update(re.findall(r"`([^`]+)`", line))
        for token in METRIC_TOKEN.findall(cells[0]) if complete else []:
            if token not in printed and "_" in token:
                problems.append(f"bench/README.md:{k}: `{token}` is in a table's metric "
                                "column but no bench program prints it")
    anywhere = set().union(*in_tables.values()) if in_tables else set()

    def order(item):
        file, _, line = item[1].rpartition(":")
        return file, int(line), item[0][1]

    for (program, name), where in sorted(metrics.items(), key=order):
        if program is None:
            if name not in anywhere:
                problems.append(f"{where}: metric `{name}` is not in a bench/README.md table")
        elif name not in in_tables.get(program, set()):
            missing = "" if program in in_tables else \
                f" (README.md has no table under a `## {program}` heading)"
            problems.append(f"{where}: metric `{name}` is not in a table of bench/README.md's "
                            f"`## {program}` section{missing}")
    for p in problems:
        print(p)
    if problems:
        print(f"check_readme.py: {len(problems)} problem(s)")
        return 1
    print(f"check_readme.py: {len(metrics)} metrics, each in its program's table in "
          f"bench/README.md ({len(lines)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
