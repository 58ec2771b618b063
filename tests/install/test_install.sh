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
