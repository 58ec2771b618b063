#!/usr/bin/env bash
# Sets everything up and runs every test.
#   scripts/test.sh              all tests of the normal build (build/)
#   scripts/test.sh --sanitize   unit tests under ASan + UBSan (build-asan/, only their targets)
#   scripts/test.sh --tsan       recorder, runtime, model and model-loading tests under ThreadSanitizer (build-tsan/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
jobs=$(nproc)
case "${1:-}" in
  "")
    "$root/scripts/build.sh" "$root/build"
    ctest --test-dir "$root/build" --output-on-failure -j"$jobs"
    ;;
  --sanitize)
    # Only what the unit tests run (ctest -L unit).
    "$root/scripts/build.sh" "$root/build-asan" -DLEGATO_SANITIZE=ON --target unit_tests
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir "$root/build-asan" --output-on-failure -j"$jobs" -L unit
    ;;
  --tsan)
    "$root/scripts/build.sh" "$root/build-tsan" -DLEGATO_SANITIZE=thread --target test_recorder test_runtime test_runtime_units test_gpu_collector test_gpu_nccl test_arrays test_analysis test_legion_import legate_prof
    TSAN_OPTIONS=halt_on_error=1 ctest --test-dir "$root/build-tsan" --output-on-failure -j"$jobs" -L unit
    ;;
  *)
    echo "test.sh: unknown option '$1' (expected nothing, --sanitize or --tsan)" >&2
    exit 2
    ;;
esac
