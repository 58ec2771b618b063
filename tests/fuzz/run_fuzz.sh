#!/usr/bin/env bash
# Runs the trace reader fuzzers for a number of seconds in all (split between
# the three targets: the .prof reader, its payload decoders, and the Legion
# Prof log importer), with clang's libFuzzer, AddressSanitizer and UBSan.
#   tests/fuzz/run_fuzz.sh [SECONDS]        (default 60)
# Needs clang-14 and libclang-rt-14-dev / libfuzzer-14-dev (scripts/install-deps.sh --fuzz).
# Crashes are written to build-fuzz/artifacts/; the corpus grows in build-fuzz/corpus-*.
set -euo pipefail
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 3 ]; then
  echo "run_fuzz.sh: SECONDS must be a whole number of at least 3, got '$seconds'" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build-fuzz"
cd "$root"
if ! command -v clang++-14 >/dev/null; then
  echo "run_fuzz.sh: clang++-14 not found; run scripts/install-deps.sh --fuzz first" >&2
  exit 2
fi
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -DLEGATO_FUZZ=ON -DLEGATO_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_reader fuzz_payload fuzz_legion >/dev/null
mkdir -p "$build/artifacts" "$build/corpus-reader" "$build/corpus-payload" "$build/corpus-legion"
cp -n sample_traces/*.prof "$build/corpus-reader/" 2>/dev/null || true
cp -n tests/fuzz/seeds/payload-* "$build/corpus-payload/" 2>/dev/null || true
cp -n tests/legion_import/data/*.prof "$build/corpus-legion/" 2>/dev/null || true
# Every record kind of formats 1008-1012 as Legion's own serializer writes it.
cp -n tests/legion_import/data/serializer/*.prof "$build/corpus-legion/" 2>/dev/null || true
for log in tests/legion_import/data/*.prof; do  # the gzip container too
  seed="$build/corpus-legion/$(basename "$log").gz"
  [ -e "$seed" ] || gzip -c "$log" >"$seed"
done
share=$((seconds / 3))
status=0
for target in reader payload legion; do
  echo "== fuzz_$target for ${share}s"
  "$build/bin/fuzz_$target" "$build/corpus-$target" -max_total_time="$share" -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$target-" -rss_limit_mb=2048 -timeout=10 2>&1 |
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==|SUMMARY|INFO: Seed)" || true
  if ls "$build/artifacts/$target-"* >/dev/null 2>&1; then
    echo "fuzz_$target found crashing inputs:" && ls "$build/artifacts/$target-"*
    status=1
  fi
done
exit $status
