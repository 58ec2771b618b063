#!/usr/bin/env bash
# Installs this build into a temporary prefix, builds tests/install/external
# against it with find_package(Legato) as a user would, and runs it.
#   test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/install/external" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
out=$(LEGATE_CONFIG="--cpus 2" "$work/build/user_program")
echo "$out"
# sum of 2*sqrt(i) for i < 1000, less 1 for each of the 599 values above 40;
# 349 values above 50 after the update.
expected="sum 41532.666 max 62.214 big 349"
if [[ "$out" != "$expected" ]]; then
  echo "expected: $expected" >&2
  exit 1
fi
test -x "$work/prefix/bin/legate" && test -x "$work/prefix/bin/legate_prof"

# The installed Python package, when this build has it: a .py program run by
# the installed legate finds it next to itself.
if ls "$build"/python/legato/_core*.so >/dev/null 2>&1; then
  cat > "$work/prog.py" <<'PY'
import legato.numpy as np
a = np.arange(10).astype(np.float64)
a[a > 4.0] += 1.0
print("python sum", float(a.sum()))
PY
  out=$(cd "$work" && "$work/prefix/bin/legate" --cpus 1 prog.py)
  echo "$out"
  if [[ "$out" != "python sum 50.0" ]]; then
    echo "expected: python sum 50.0" >&2
    exit 1
  fi
fi
