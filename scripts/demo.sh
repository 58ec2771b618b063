#!/usr/bin/env bash
# The main job: sets everything up, runs an array program on the Legato
# runtime with --profile, then inspects its trace with legate_prof. Output
# goes to build/demo/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null
out="$root/build/demo"
mkdir -p "$out"
cd "$out"
"$root/build/bin/legate" --cpus 4 --profile --verbose "$root/build/bin/parallel_sum"
echo
"$root/build/bin/legate_prof" info legate_0.prof
echo
"$root/build/bin/legate_prof" dump legate_0.prof --strings --no-frames >legate_0.jsonl
echo "First records of legate_0.jsonl (legate_prof dump legate_0.prof --strings --no-frames):"
head -n 12 legate_0.jsonl
echo
echo "Trace: $out/legate_0.prof"
