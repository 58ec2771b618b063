#!/usr/bin/env bash
# The main job: sets everything up, then runs the seeds' Example 1 both ways
# (chunked_update: nonzero + scatter and a 4,096-element slice loop;
# vectorized_update: out= arithmetic, putmask and wide masked updates), and
# the inefficient one again as the seeds print it in Python, with
# --profile, each into its own log directory under build/demo/ (each run ends
# by writing its HTML report there), and prints where the traces and reports
# are, what the traces hold and the two run times. With Xvfb (installed by
# install-deps.sh) it also saves the desktop viewer's first view of each
# trace as view.png next to it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
bin="$root/build/bin"
out="$root/build/demo"
rm -rf "$out"
mkdir -p "$out"
cd "$out"

declare -A ms
for program in chunked_update vectorized_update example1_inefficient.py; do
  case $program in
    *.py) logdir="$out/python"; command=("$root/examples/python/$program") ;;
    *) logdir="$out/${program%_update}"; command=("$bin/$program") ;;
  esac
  echo "== $program =="
  "$bin/legate" --cpus 4 --profile --logdir "$logdir" --verbose "${command[@]}" | tee "$logdir.txt"
  ms[$program]=$(sed -n 's/^time = \([0-9.]*\) ms$/\1/p' "$logdir.txt")
  echo
  test -s "$logdir/legate_prof/index.html"
  if command -v xvfb-run >/dev/null; then
    xvfb-run -a "$bin/legate_prof" view "$logdir/legate_0.prof" --screenshot "$logdir/view.png"
  fi
  echo
  "$bin/legate_prof" info "$logdir/legate_0.prof"
  echo
  "$bin/legate_prof" findings "$logdir/legate_0.prof" | grep -E '^[0-9]+\. ' || true
  echo
done

chunked=${ms[chunked_update]}
vectorized=${ms[vectorized_update]}
echo "Traces:"
echo "  chunked_update:    $out/chunked/legate_0.prof"
echo "  vectorized_update: $out/vectorized/legate_0.prof"
echo "  the same as Python: $out/python/legate_0.prof"
echo "Reports (open in a browser):"
echo "  chunked_update:    $out/chunked/legate_prof/index.html"
echo "  vectorized_update: $out/vectorized/legate_prof/index.html"
echo "  the same as Python: $out/python/legate_prof/index.html"
if [ -s "$out/chunked/view.png" ]; then
  echo "Viewer screenshots (open a run with: $bin/legate_prof view $out/chunked):"
  echo "  chunked_update:    $out/chunked/view.png"
  echo "  vectorized_update: $out/vectorized/view.png"
  echo "  the same as Python: $out/python/view.png"
fi
echo "Run times (from the first array operation to the checksum):"
echo "  chunked_update:    $chunked ms"
echo "  vectorized_update: $vectorized ms"
echo "  example1_inefficient.py (chunked_update in Python): ${ms[example1_inefficient.py]} ms"
awk -v c="$chunked" -v v="$vectorized" 'BEGIN { printf "  the chunked version takes %.1fx as long\n", c / v }'
echo "What is wrong in a run: $bin/legate_prof findings $out/chunked/legate_0.prof"
echo "Inspect a trace: $bin/legate_prof dump $out/chunked/legate_0.prof --strings --kind task | head"
