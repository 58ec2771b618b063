#!/usr/bin/env bash
# Builds Legion's real runtime/legion/tools/serializer.cc (the Legion Prof
# binary log writer) of five Legion commits against the stub headers in
# stubs/, runs driver.cc with it, and writes to OUTDIR, per commit:
#   legion_<format>.prof   the log Legion's writer produced
#   legion_<format>.json   every record written, with the driver's values
# plus OUTDIR/README.md, then checks the results with check.py.
#
#   usage: build_and_run.sh LEGION_REPO OUTDIR
#
# LEGION_REPO is a Legion git repository (a bare mirror is fine); only
# serializer.cc, serializer.h and profiler_version.h of each commit are read,
# into a temporary directory. Nothing of Legion is kept.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 LEGION_REPO OUTDIR" >&2
  exit 2
fi
LEGION_REPO=$1
OUTDIR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
CXX=${CXX:-g++}
PYTHON=${PYTHON:-/usr/bin/python3}

# Commits, oldest first. 911657c11^ is the last commit writing format 1008.
# COMMITS="..." in the environment tries others (a newer format may need
# the stubs and the driver to learn its new records first).
COMMITS=${COMMITS:-"911657c11^ 911657c11 1c767e805 e1d009f4e 144a5e937"}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUTDIR"

rows=""
for commit in $COMMITS; do
  work="$TMP/$(echo "$commit" | tr -c 'A-Za-z0-9\n' '_')"
  mkdir -p "$work/src/legion/tools"
  for f in serializer.cc serializer.h profiler_version.h; do
    git -C "$LEGION_REPO" show "$commit:runtime/legion/tools/$f" \
      > "$work/src/legion/tools/$f"
  done
  format=$(tr -dc '0-9' < "$work/src/legion/tools/profiler_version.h")
  hash=$(git -C "$LEGION_REPO" log -1 --format=%H "$commit")
  date=$(git -C "$LEGION_REPO" log -1 --format=%cs "$commit")
  echo "== $commit ($hash, $date): format $format"

  # Include order: the commit's real serializer.h and profiler_version.h
  # (src/), then the stubs (legion/tools/profiler.h, legion/api/exception.h,
  # legion/kernel/runtime.h, ...). Built as a CUDA build so that ProcDesc
  # carries a real 16-byte device uuid. Warnings are allowed.
  "$CXX" -std=c++17 -O1 -DLEGION_USE_CUDA -DSTUB_PROF_VERSION="$format" \
    -I"$work/src" -I"$HERE/stubs" -I"$HERE" \
    "$work/src/legion/tools/serializer.cc" "$HERE/stubs/stubs.cc" \
    "$HERE/driver.cc" "$HERE/records_desc.cc" "$HERE/records_ops.cc" \
    "$HERE/records_events.cc" -o "$work/driver"
  "$work/driver" "$work/legion_$format"
  cp "$work/legion_$format.prof" "$work/legion_$format.json" "$OUTDIR/"
  rows="$rows| \`legion_$format.prof\` / \`.json\` | $format | \`$hash\` ($commit) | $date |
"
done

cat > "$OUTDIR/README.md" <<EOF
# Reference Legion Prof binary logs written by Legion's own serializer

Each \`legion_<format>.prof\` was written by the real
\`runtime/legion/tools/serializer.cc\` (\`LegionProfBinarySerializer\`) of the
Legion commit below, compiled with stub headers for Legion's types and driven
by \`scripts/legion_serializer_check/driver.cc\`. The matching
\`legion_<format>.json\` lists every record in the order written
(\`{"format": N, "records": [{"kind", "fields"}]}\`), keyed by the field names
of the file's header lines.

| files | format | Legion commit | commit date |
|---|---|---|---|
$rows
Produced by \`scripts/legion_serializer_check/build_and_run.sh LEGION_REPO OUTDIR\`
and checked by \`scripts/legion_serializer_check/check.py\`.

The values are synthetic: distinct, deterministic numbers (64-bit values with
high bits set, event ids with bit 63 set) and strings such as \`mapper-2\`,
not a real run. The build is a CUDA build (\`ProcDesc\` has a 16-byte uuid)
with \`LEGION_MAX_DIM\` 3 and \`LEGION_VERSION\` "legion-test-version".
JSON numbers of 2^53 or more are decimal strings; point, array and uuid
fields are hex strings of the raw bytes; a \`PhysicalInstanceUsage\` whose
\`mode\` is not 4 (LEGION_REDUCE) has \`"redop": null\`, as Legion then does not
write it.
EOF

"$PYTHON" "$HERE/check.py" "$OUTDIR"/legion_*.prof
