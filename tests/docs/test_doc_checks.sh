#!/usr/bin/env bash
# scripts/doc_reference.py --check passes on a copy of the pages, and fails,
# naming the fault, once a generated table is edited, a link points nowhere,
# a picture is shown by no page, or a generated table is dropped; and
# bench/check_readme.py likewise once a metric loses its row.
# Usage: test_doc_checks.sh PYTHON SOURCE_DIR BIN_DIR
set -euo pipefail
python=$1 src=$2 bin=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The pages copied (they are edited), the rest of the tree linked (what
# they link to).
fresh() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  for entry in "$src"/*; do
    case $(basename "$entry") in
      README.md | docs | build*) ;;
      *) ln -s "$entry" "$work/tree/" ;;
    esac
  done
  cp -r "$src/README.md" "$src/docs" "$work/tree/"
}
check() { "$python" "$src/scripts/doc_reference.py" --check --bin "$bin" --root "$work/tree" 2>&1; }
expect_fault() {  # what: a line the check must print
  local out
  if out=$(check); then
    echo "FAIL: the check passed after: $1"
    exit 1
  fi
  if ! grep -qF "$2" <<<"$out"; then
    echo "FAIL: after $1 the check said:"
    echo "$out"
    exit 1
  fi
  echo "ok: $1"
}

fresh
check || { echo "FAIL: the check fails on an unchanged copy"; exit 1; }
echo "ok: an unchanged copy passes"

fresh
sed -i 's/| `--cpus N` |/| `--cpus COUNT` |/' "$work/tree/docs/legate-flags.md"
expect_fault "a generated table edited by hand" "docs/legate-flags.md: a generated table differs"

fresh
echo "See [the missing page](docs/missing.md)." >>"$work/tree/README.md"
expect_fault "a link to a missing page" "README.md: links to docs/missing.md, which does not exist"

fresh
cp "$work/tree/docs/images/viewer-first-view.png" "$work/tree/docs/images/orphan.png"
expect_fault "a picture no page shows" "docs/images/orphan.png is referenced by no page"

fresh
"$python" - "$work/tree/docs/legate_prof.md" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"<!-- BEGIN generated: legate_prof-dump-help -->.*?<!-- END generated: legate_prof-dump-help -->\n",
           "", s, flags=re.S)
open(p, "w").write(s)
PY
expect_fault "a generated table dropped" "no page holds the generated table 'legate_prof-dump-help'"

# bench/check_readme.py fails once a printed metric loses its row.
rm -rf "$work/tree"
mkdir -p "$work/tree"
for entry in "$src"/*; do
  case $(basename "$entry") in
    bench | build*) ;;
    *) ln -s "$entry" "$work/tree/" ;;
  esac
done
cp -r "$src/bench" "$work/tree/"
"$python" "$work/tree/bench/check_readme.py" "$work/tree" >/dev/null ||
  { echo "FAIL: check_readme.py fails on an unchanged copy"; exit 1; }
grep -v '^| `first_paint_ms_1m` |' "$src/bench/README.md" >"$work/tree/bench/README.md"
if out=$("$python" "$work/tree/bench/check_readme.py" "$work/tree" 2>&1); then
  echo "FAIL: check_readme.py passed with first_paint_ms_1m's row removed"
  exit 1
fi
grep -q "first_paint_ms_1m" <<<"$out" || { echo "FAIL: check_readme.py said: $out"; exit 1; }
echo "ok: a benchmark metric without its row"
