#!/usr/bin/env bash
# The main job: sets everything up, runs a real parallel computation that
# records its own trace with the Legato recorder, then inspects the trace
# with legate_prof. Output goes to build/demo/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
out="$root/build/demo"
mkdir -p "$out"
cd "$out"
"$root/build/bin/parallel_sum" --logdir .
echo
"$root/build/bin/legate_prof" info legate_0.prof
echo
"$root/build/bin/legate_prof" dump legate_0.prof --strings --no-frames >legate_0.jsonl
echo "First records of legate_0.jsonl (legate_prof dump legate_0.prof --strings --no-frames):"
head -n 12 legate_0.jsonl
echo
echo "Trace: $out/legate_0.prof"
