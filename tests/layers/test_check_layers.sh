#!/usr/bin/env bash
# scripts/check_layers.sh catches every kind of forbidden include: run on
# tests/layers/fixture (a tree with one crossing per rule beside allowed
# includes), it must fail and name exactly these, and pass on this tree.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$src/scripts/check_layers.sh" "$src/tests/layers/fixture")
rc=$?
if [ "$rc" -ne 1 ]; then
  echo "FAIL: check_layers.sh exited $rc on the fixture, expected 1"
  echo "$out"
  exit 1
fi
expected='arrays/uses_engine.cpp:5: includes "runtime/core/runtime_impl.hpp"
runtime/face.hpp:2: includes "runtime/memory/pool.hpp"
runtime/memory/pool.cpp:2: includes "runtime/core/store.hpp"
runtime/gpu/device.hpp:2: includes "runtime/ranks/comm.hpp"
runtime/core/engine.cpp:3: includes "arrays/array.hpp"
analysis/model.cpp:3: includes "recorder/recorder.hpp"
analysis/model.cpp:4: includes "legion_import/import.hpp"
analysis/model.cpp:5: includes "load/readers.hpp"
viewer/view.cpp:2: includes "runtime/legato.hpp"
viewer/view.cpp:4: includes "trace_format/file_create.hpp"
html_export/report.cpp:3: includes "trace_format/writer.hpp"
recorder/flush.cpp:2: includes "runtime/types.hpp"
trace_format/frame.cu:3: includes "recorder/clock.hpp"
legion_import/convert.cpp:5: includes "analysis/profile.hpp"
base/id_map.hpp:2: includes "trace_format/records.hpp"'
got=$(echo "$out" | grep ': includes ' | sed -E 's/(includes "[^"]+"):.*/\1/' | sort)
want=$(echo "$expected" | sort)
if [ "$got" != "$want" ]; then
  echo "FAIL: the violations found differ from the fixture's"
  diff <(echo "$want") <(echo "$got")
  exit 1
fi
if ! "$src/scripts/check_layers.sh" "$src" >/dev/null; then
  echo "FAIL: this tree crosses a layer boundary:"
  "$src/scripts/check_layers.sh" "$src"
  exit 1
fi
echo "PASS: $(echo "$expected" | wc -l) forbidden includes caught in the fixture; this tree is clean"
